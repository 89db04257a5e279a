"""Judge backends by name, imported only when asked for (a model-backed judge pulls torch or an HTTP client).

``make_judge("lexical")``, ``make_judge("lexical,semantic")`` (a cascade, cheapest first) and
``available_judges()`` are what the CLI, the Python API and the alternate measures use, so a new backend
is one entry in ``BACKENDS``.
"""
from __future__ import annotations

import importlib
import inspect
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
    for backend in options:
        if backend not in names and not (backend == "cascade" and len(names) > 1):
            raise InputError("--judge-option", None, None,
                             f"options for {backend!r}, which is not in --judge {spec!r}")
    judges = [_construct(_backend_class(name), name, options.get(name, {})) for name in names]
    if len(judges) == 1:
        return judges[0]
    from .cascade import CascadeJudge

    return _construct(CascadeJudge, "cascade", options.get("cascade", {}), judges)


def _construct(cls: type, name: str, options: dict[str, Any], *args: Any) -> Any:
    """``cls(*args, **options)``, with an unknown option name a user error that lists the known ones."""
    parameters = inspect.signature(cls).parameters
    known = [p for p, spec in parameters.items() if spec.kind is inspect.Parameter.KEYWORD_ONLY
             or (spec.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and p != "judges")]
    accepts_any = any(spec.kind is inspect.Parameter.VAR_KEYWORD for spec in parameters.values())
    for option in options:
        if option not in known and not accepts_any:
            raise InputError("--judge-option", None, None,
                             f"the {name} judge has no option {option!r}; its options: {', '.join(known) or 'none'}")
    return cls(*args, **options)
