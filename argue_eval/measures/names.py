"""Measure names, in the spirit of ir_measures: one grammar for the measures of every family, one parser.

::

    MEASURE := FAMILY [ "." NAME ] [ "(" KEY "=" VALUE { "," KEY "=" VALUE } ")" ] [ "@" VALUE ]

``FAMILY`` is a family of the registry (``measures.FAMILIES``: ``argue``, ``icat``, ``longrecall``,
``comprehensiveness``, ``nuggetizer``, ``retrieval``); ``NAME`` one of its measures: each count and ratio of its
table by its own name (``argue.f1``, ``argue.sentence_support``, ``icat.icat_fact``), the family's aliases
(``icat.fact``, ``icat.coverage``, ``icat.f``, ``longrecall.recall``) and, for retrieval, every trec_eval
measure its parser knows (``retrieval.ndcg@20``, ``retrieval.P_10``, ``retrieval.P(rel=2)@10``). A family alone
(``icat``) is every measure of that family: its whole table, as its command writes it.

``(KEY=VALUE, ...)`` are the family's parameters (``icat.f(k=20, retriever=dense)``, ``argue.f1(nugget_scope=all)``,
``longrecall.recall(jaccard_threshold=0.4)``), checked and typed by the API that computes the family
(``api.calc``); ``agg=micro`` asks a ratio's micro average over topics instead of its macro one (the mean of the
per-topic values, the default). ``@VALUE`` is a measure's own parameter where it takes one: a retrieval cutoff
(``retrieval.ndcg@20``), ICAT's beta (``icat.f@2``), the one importance ARGUE's nugget measures then count
(``argue.nugget_coverage@vital``: vital nuggets found / vital nuggets).

``parse_measure`` reads one name and checks its family and measure against the registry (an unknown one is an
error naming the known ones); ``parse_measures`` reads several. Pure: nothing is computed or read here.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..errors import OptionError, unknown_name

__all__ = ["MeasureName", "parse_measure", "parse_measures", "AGGREGATES", "GRAMMAR"]

GRAMMAR = 'FAMILY[.MEASURE][(NAME=VALUE, ...)][@VALUE], e.g. argue.f1, icat.f@2, retrieval.ndcg@20'
AGGREGATES = ("macro", "micro")
"""How a ratio's ``all`` value is taken over topics: the mean of the per-topic values, or from the summed counts."""

_MEASURE = re.compile(r"(?P<family>[A-Za-z_][A-Za-z0-9_]*)(?:\.(?P<name>[A-Za-z][A-Za-z0-9_.\-]*?))?"
                      r"(?:\((?P<params>[^()]*)\))?(?:@(?P<at>[A-Za-z0-9_.\-]+))?")
_PARAM = re.compile(r"\s*(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<value>[A-Za-z0-9_.+\-]+)\s*")


class MeasureName(NamedTuple):
    """A parsed measure name: its family, its measure (``None``: every measure of the family), the family's
    table metric it reads, the family's parameters it is computed with (what the parentheses and ``@`` set,
    as text; the API types them), and for a ratio how its ``all`` value is aggregated (``None``: the default)."""

    text: str
    family: str
    name: str | None
    metric: str | None
    params: tuple[tuple[str, str], ...] = ()
    agg: str | None = None

    def __str__(self) -> str:
        return self.text


def parse_measure(text: str | MeasureName) -> MeasureName:
    """The measure ``text`` names (see the module's grammar); a ``MeasureName`` is returned as is.

    Errors (``OptionError``, a ``ValueError``): a name outside the grammar, an unknown family (the known ones
    listed), an unknown measure of a known family (its measures listed), ``@`` on a measure that takes none."""
    from . import FAMILIES, get_family

    if isinstance(text, MeasureName):
        return text
    stripped = text.strip()
    match = _MEASURE.fullmatch(stripped)
    if match is None:
        raise OptionError("measure", f"{text!r} is not a measure name: expected {GRAMMAR}")
    family_name, name, at = match.group("family"), match.group("name"), match.group("at")
    given = _params(match.group("params"), stripped)
    if family_name not in FAMILIES:
        raise _unknown_family(stripped, family_name, FAMILIES)
    canonical = (family_name + (f".{name}" if name else "")
                 + (f"({','.join(f'{key}={value}' for key, value in given.items())})" if given else "")
                 + (f"@{at}" if at else ""))
    agg = given.pop("agg", None)
    if name is None:
        if at is not None:
            raise OptionError("measure", f"{stripped}: @{at} needs a measure (e.g. {family_name}.NAME@{at})")
        if agg is not None:
            raise OptionError("measure", f"{stripped}: agg= needs a ratio measure (e.g. {family_name}.NAME(agg={agg}))")
        return MeasureName(canonical, family_name, None, None, tuple(sorted(given.items())))
    family = get_family(family_name)
    metric, params = family.measure(name, at, given)
    if agg is not None:
        if agg not in AGGREGATES:
            raise unknown_name("measure", f"aggregate of {stripped}", agg, AGGREGATES)
        if metric not in family.ratio_names:
            raise OptionError("measure", f"{stripped}: agg= applies to a ratio over topics; {family_name}.{name} "
                                         "is a count (its `all` value is the sum)"
                              if family.resolve is None else
                              f"{stripped}: agg= applies to a ratio over topics; {family_name} measures are averaged")
    return MeasureName(canonical, family_name, name, metric, tuple(sorted((k, str(v)) for k, v in params.items())),
                       agg)


def parse_measures(spec: str | MeasureName | Iterable[str | MeasureName]) -> list[MeasureName]:
    """Several measures: one string of names separated by spaces or commas (commas inside parentheses belong
    to the parameters), or a sequence of names (each of which may hold several). Repeats are dropped; the
    order is kept. No name at all is an error."""
    items: Sequence[str | MeasureName] = [spec] if isinstance(spec, (str, MeasureName)) else list(spec)
    texts: list[str | MeasureName] = []
    for item in items:
        texts.extend(_split(item) if isinstance(item, str) else [item])
    if not texts:
        raise OptionError("measure", f"no measure given (expected {GRAMMAR})")
    parsed = [parse_measure(text) for text in texts]
    return list(dict.fromkeys(parsed))


def _split(text: str) -> list[str]:
    """``"argue.f1 icat.f(k=20,beta=2)"`` -> its names: spaces and commas separate, except inside parentheses."""
    names: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth == 0 and (char.isspace() or char == ","):
            if current:
                names.append("".join(current))
            current = []
        else:
            current.append(char)
    if current:
        names.append("".join(current))
    return names


def _params(text: str | None, measure: str) -> dict[str, str]:
    """``"k=20, beta=2"`` -> ``{"k": "20", "beta": "2"}`` (a key given twice, or no ``=``, is an error)."""
    if text is None:
        return {}
    params: dict[str, str] = {}
    for part in text.split(","):
        match = _PARAM.fullmatch(part)
        if match is None:
            raise OptionError("measure", f"{measure}: {part.strip()!r} is not a parameter: expected NAME=VALUE")
        if match.group("key") in params:
            raise OptionError("measure", f"{measure}: parameter {match.group('key')} given twice")
        params[match.group("key")] = match.group("value")
    return params


def _unknown_family(text: str, family: str, known: Iterable[str]) -> OptionError:
    """Unknown family, with a hint when the name would be a retrieval measure (``ndcg@20`` for ``retrieval.ndcg@20``)."""
    error = unknown_name("measure", "measure family", family, known)
    if "." not in text:
        try:
            parse_measure(f"retrieval.{text}")
        except OptionError:
            return error
        return OptionError("measure", f"{error.problem.message}; retrieval measures are named retrieval.NAME "
                                      f"(retrieval.{text})")
    return error
