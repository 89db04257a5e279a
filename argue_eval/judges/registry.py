"""Judge backends by name, imported only when asked for (a model-backed judge pulls torch or an HTTP client).

``make_judge("lexical")``, ``make_judge("lexical,semantic")`` (a cascade, cheapest first) and
``available_judges()`` are what the CLI, the Python API and the alternate measures use, so a new backend
is one entry in ``BACKENDS``.
"""
from __future__ import annotations

import importlib
from typing import Any

from ..errors import InputError
from .base import JudgeBackend

__all__ = ["BACKENDS", "DEFAULT_JUDGE", "make_judge", "available_judges", "parse_judge_spec"]

BACKENDS: dict[str, str] = {
    "lexical": "argue_eval.judges.lexical:LexicalJudge",
    "semantic": "argue_eval.judges.semantic:SemanticJudge",
    "nli": "argue_eval.judges.nli:NLIJudge",
    "llm": "argue_eval.judges.llm:LLMJudge",
}
"""Backend name -> ``module:class``; the class takes its options as keyword arguments."""

DEFAULT_JUDGE = "lexical"


def available_judges() -> list[str]:
    return sorted(BACKENDS)


def parse_judge_spec(spec: str) -> list[str]:
    """``"lexical,semantic"`` -> ``["lexical", "semantic"]``; unknown names are a located user error."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if not names:
        raise InputError("--judge", None, None, f"expected a judge name ({', '.join(available_judges())}), found {spec!r}")
    for name in names:
        if name not in BACKENDS:
            raise InputError("--judge", None, None,
                             f"unknown judge {name!r}: expected one of {', '.join(available_judges())} "
                             "(or a comma list of them, cheapest first, for a cascade)")
    if len(set(names)) != len(names):
        raise InputError("--judge", None, None, f"a judge appears twice in the cascade {spec!r}")
    return names


def _backend_class(name: str) -> type[JudgeBackend]:
    module_name, _, class_name = BACKENDS[name].partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, class_name)


def make_judge(spec: str, options: dict[str, dict[str, Any]] | None = None) -> JudgeBackend:
    """The judge named by ``spec``; ``options`` maps a backend name to its keyword options.

    A comma list builds a cascade (``argue_eval.judges.cascade.CascadeJudge``): each judge answers what
    it is confident of and passes the rest on.
    """
    options = options or {}
    names = parse_judge_spec(spec)
    judges = [_backend_class(name)(**options.get(name, {})) for name in names]
    if len(judges) == 1:
        return judges[0]
    from .cascade import CascadeJudge

    return CascadeJudge(judges, **options.get("cascade", {}))
