"""Judge backends by name, imported only when asked for (a model-backed judge pulls torch or an HTTP client).

``make_judge("lexical")``, ``make_judge("lexical,semantic")`` (a cascade, cheapest first) and
``available_judges()`` are what the CLI, the Python API and the alternate measures use, so a new backend
is one entry in ``BACKENDS`` (an ``argue_eval.registry.Registry``).
"""
from __future__ import annotations

import inspect
import typing
from typing import Any

from ..errors import InputError, OptionError
from ..registry import Registry
from .base import JudgeBackend
from .options import is_number, is_whole, option_error

__all__ = ["BACKENDS", "DEFAULT_JUDGE", "make_judge", "available_judges", "parse_judge_spec", "backend_class",
           "option_defaults", "check_option"]

BACKENDS: Registry[type[JudgeBackend]] = Registry("judge", {
    "lexical": "argue_eval.judges.lexical:LexicalJudge",
    "semantic": "argue_eval.judges.semantic:SemanticJudge",
    "nli": "argue_eval.judges.nli:NLIJudge",
    "llm": "argue_eval.judges.llm:LLMJudge",
}, option="--judge")
"""Backend name -> ``module:class``; the class takes its options as keyword arguments."""

DEFAULT_JUDGE = "lexical"


def available_judges() -> list[str]:
    return sorted(BACKENDS)


def parse_judge_spec(spec: str) -> list[str]:
    """``"lexical,semantic"`` -> ``["lexical", "semantic"]``; unknown names are a located user error."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if not names:
        raise OptionError("--judge", f"expected a judge name ({', '.join(available_judges())}), found {spec!r}")
    for name in names:
        if name not in BACKENDS:
            raise OptionError("--judge", f"unknown judge {name!r}: expected one of {', '.join(available_judges())} "
                             "(or a comma list of them, cheapest first, for a cascade)")
    if len(set(names)) != len(names):
        raise OptionError("--judge", f"a judge appears twice in the cascade {spec!r}")
    return names


def backend_class(name: str) -> type[JudgeBackend]:
    """The class of the backend ``name`` (``cascade`` included), imported now; no model is loaded."""
    if name == "cascade":
        from .cascade import CascadeJudge

        return CascadeJudge
    return BACKENDS.get(name)


def make_judge(spec: str, options: dict[str, dict[str, Any]] | None = None, profile: str | None = None) -> JudgeBackend:
    """The judge named by ``spec``; ``options`` maps a backend name to its keyword options.

    A comma list builds a cascade (``argue_eval.judges.cascade.CascadeJudge``): each judge answers what
    it is confident of and passes the rest on. ``profile``: the id of the judge profile the options come
    from (``judge calibrate``), made part of the judge's identity (``JudgeBackend.use_profile``).
    """
    options = options or {}
    names = parse_judge_spec(spec)
    for backend in options:
        if backend not in names and not (backend == "cascade" and len(names) > 1):
            raise OptionError("--judge-option", f"options for {backend!r}, which is not in --judge {spec!r}")
    judges = [_construct(backend_class(name), name, options.get(name, {})) for name in names]
    if len(judges) == 1:
        built = judges[0]
    else:
        from .cascade import CascadeJudge

        built = _construct(CascadeJudge, "cascade", options.get("cascade", {}), judges)
    if profile is not None:
        built.use_profile(profile)
    return built


def _parameters(cls: type) -> Any:
    try:
        return inspect.signature(cls, eval_str=True).parameters
    except (NameError, TypeError, SyntaxError):  # an annotation that names something only type checkers import
        return inspect.signature(cls).parameters


def _known_options(parameters: Any) -> list[str]:
    return [p for p, spec in parameters.items() if spec.kind is inspect.Parameter.KEYWORD_ONLY
            or (spec.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and p != "judges")]


def option_defaults(name: str) -> dict[str, Any]:
    """The options the backend ``name`` (or ``cascade``) takes, with their defaults (``None`` when it has none):
    what a judge profile may set and what calibration starts from."""
    parameters = _parameters(backend_class(name))
    return {option: (None if parameters[option].default is inspect.Parameter.empty else parameters[option].default)
            for option in _known_options(parameters)}


def check_option(name: str, option: str, value: Any) -> Any:
    """``value`` for the option ``option`` of the backend ``name`` as ``make_judge`` would take it (an int where a
    float is expected becomes a float), or the located user error ``make_judge`` would raise (an unknown option,
    a value of the wrong type). The backend's own range checks run when it is made."""
    parameters = _parameters(backend_class(name))
    known = _known_options(parameters)
    if option not in known:
        raise OptionError("--judge-option", f"the {name} judge has no option {option!r}; its options: "
                          f"{', '.join(known) or 'none'}")
    checked, problem = _typed(name, option, value, parameters[option])
    if problem is not None:
        raise problem
    return checked


def _construct(cls: type, name: str, options: dict[str, Any], *args: Any) -> Any:
    """``cls(*args, **options)``, with an unknown option name a user error that lists the known ones, and a
    value of the wrong type (``abc`` or ``yes`` for a threshold, ``1.5`` for a word count) or one the backend
    rejects (its ``ValueError``) a user error naming the option."""
    parameters = _parameters(cls)
    known = _known_options(parameters)
    accepts_any = any(spec.kind is inspect.Parameter.VAR_KEYWORD for spec in parameters.values())
    checked = dict(options)
    problem: InputError | None = None
    for option, value in options.items():
        if option not in known and not accepts_any:
            raise OptionError("--judge-option", f"the {name} judge has no option {option!r}; its options: {', '.join(known) or 'none'}")
        if option in parameters:
            checked[option], wrong = _typed(name, option, value, parameters[option])
            problem = problem or wrong
    try:  # a backend that checks its options says best what is wrong with one: its InputError passes through
        built = cls(*args, **checked)
    except (TypeError, ValueError) as error:
        if problem is not None:
            raise problem from None
        if isinstance(error, ValueError):
            raise OptionError("--judge-option", f"{name}: {error}") from None
        raise
    if problem is not None:  # a value the backend took without complaint (yes for a threshold is not 1.0)
        built.close()
        raise problem
    return built


def _typed(name: str, option: str, value: Any, parameter: inspect.Parameter) -> tuple[Any, InputError | None]:
    """``value`` checked against the option's type (from its default, else its annotation), and the error
    when it does not fit. An int where a float is expected becomes a float (``=1`` and ``=1.0`` are one
    judge identity for the cache)."""
    default = parameter.default
    if default is not inspect.Parameter.empty and default is not None:
        types: tuple[Any, ...] = (type(default),)
    else:
        annotation = parameter.annotation
        types = typing.get_args(annotation) or (annotation,)
        if value is None and type(None) in types:
            return value, None  # an optional option left to the backend's default (a batch size per device)
    if bool in types or str in types or not ({int, float} & set(types)):
        return value, None  # flags, texts, paths and untyped options are the backend's to check
    if float in types:
        if not is_number(value):
            return value, option_error(name, option, f"expected a number, found {value!r}")
        return float(value), None
    if not is_whole(value) or not -LARGEST_INT <= value <= LARGEST_INT:  # JSON provenance holds 64-bit integers
        return value, option_error(name, option, f"expected a whole number, found {value!r}")
    return int(value), None


LARGEST_INT = 2**63 - 1
"""The largest whole number a backend option may be given: what a judgment's provenance (JSON) can record."""
