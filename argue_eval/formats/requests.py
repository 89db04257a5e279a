"""Report request (topic) formats: ours, NeuCLIR 2024 / RAGTIME 2025, RAGTIME 2026, TREC RAG 2024 and 2025.

Every reader yields ``Request`` records; ``parse_request`` checks one JSON object and, like
``runs.parse_report``, either raises the first ``InputError`` or collects every ``Problem``. Fields a
format has but the model does not hold go to ``Request.extra`` so a round trip through our canonical
format keeps them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import InputError, Problem
from ..model import LENGTH_UNITS, LengthUnit, Location, Request
from ..reading import BOM, iter_lines, open_binary, read_capped
from ..writing import write_jsonl
from ._fields import Fields, type_name, unknown
from .base import FormatSpec, Probe, jsonl_format, parse_named

__all__ = ["FORMATS", "LINE_FORMATS", "parse_request", "request_to_argue"]


_ARGUE_KEYS = frozenset(
    {"request_id", "title", "background", "problem_statement", "limit", "limit_unit", "collection_ids", "language", "aspects"}
)
_RAGTIME26_KEYS = (_ARGUE_KEYS - {"request_id"}) | {"topic_id", "collection_id"}
_RAG25_KEYS = frozenset({"id", "title"})
_CANONICAL_MARKERS = ("limit_unit", "language", "aspects")


def parse_request(
    obj: dict[str, Any], format_name: str, path: str, line: int | None, problems: list[Problem] | None = None
) -> Request | None:
    """Parse one request object in ``format_name`` (``argue``, ``neuclir24``, ``ragtime26``, ``rag25``).

    Strict (raises ``InputError``) with ``problems=None``; otherwise appends every problem and returns
    the ``Request`` when it has an id, else ``None``. (``rag24`` is a TSV format: see ``read_rag24``.)
    """
    return parse_named(FORMATS, "JSON request", format_name, obj, path, line, problems)


def _common(obj: dict[str, Any], f: Fields, request_id: str | None, collection_ids: tuple[str, ...], known: frozenset[str]) -> Request | None:
    title = f.text(obj, "title")
    background = f.text(obj, "background")
    problem_statement = f.text(obj, "problem_statement")
    limit = obj.get("limit")
    if limit is not None and (type(limit) is not int or limit <= 0):
        f.error("limit", f"expected a positive whole number (the length limit), found {type_name(limit)}")
        limit = None
    given_unit = obj.get("limit_unit")
    unit: LengthUnit = "chars" if given_unit is None else f.choice(given_unit, "limit_unit", LENGTH_UNITS, "chars")
    aspects = f.str_list(obj.get("aspects"), "aspects", "aspect strings")
    language = f.optional_text(obj, "language")
    extra = unknown(obj, known)
    if request_id is None:
        return None
    return Request(
        request_id, title, background, problem_statement, limit, unit, collection_ids, aspects, language, extra,
        Location(f.path, f.line),
    )


def _parse_argue(obj: dict[str, Any], f: Fields) -> Request | None:
    """Ours and NeuCLIR 2024 / RAGTIME 2025 (the subset without limit_unit, language, aspects)."""
    request_id = f.ident(obj, "request_id")
    collection_ids = f.collection_list(obj.get("collection_ids"), "collection_ids")
    return _common(obj, f, request_id, collection_ids, _ARGUE_KEYS)


def _parse_ragtime26(obj: dict[str, Any], f: Fields) -> Request | None:
    """RAGTIME 2026: ``topic_id`` and a single ``collection_id``."""
    request_id = f.ident(obj, "topic_id")
    collection_ids: tuple[str, ...] = ()
    if obj.get("collection_id") is not None:
        single = f.ident_value(obj["collection_id"], "collection_id")
        collection_ids = (single,) if single else ()
    if obj.get("collection_ids") is not None:
        collection_ids += f.collection_list(obj["collection_ids"], "collection_ids")
    return _common(obj, f, request_id, collection_ids, _RAGTIME26_KEYS | {"collection_ids"})


def _parse_rag25(obj: dict[str, Any], f: Fields) -> Request | None:
    """TREC RAG 2025 narratives ``{id, title}``: the title *is* the narrative, so it is also the problem statement."""
    request_id = f.ident(obj, "id")
    narrative = f.text(obj, "title", required=True)
    extra = unknown(obj, _RAG25_KEYS)
    if request_id is None:
        return None
    return Request(request_id, title=narrative, problem_statement=narrative, extra=extra, source=Location(f.path, f.line))


def _plain_request(id_key: str) -> Callable[[dict[str, Any], Fields], Request | None]:
    """report_gen_eval's ``{request_id, request}`` (the id a JSON number) and CRUX's ``{id, request}``: the
    request text is the whole request, so it is the problem statement (and there is no title)."""

    def parse(obj: dict[str, Any], f: Fields) -> Request | None:
        value = obj.get(id_key)
        if type(value) is int:  # report_gen_eval writes ids as numbers; ids are strings here
            request_id: str | None = str(value)
        else:
            request_id = f.ident(obj, id_key)
        text = f.text(obj, "request", required=True)
        extra = unknown(obj, frozenset({id_key, "request"}))
        if request_id is None:
            return None
        return Request(request_id, problem_statement=text, extra=extra, source=Location(f.path, f.line))

    return parse


_TSV_HEADERS = {("qid", "query"), ("qid", "text"), ("topic_id", "text"), ("topic_id", "query"), ("id", "query"), ("id", "text")}


def read_rag24(path: Path) -> Iterator[Request]:
    """TREC RAG 2024 topics: ``topic_id<TAB>text`` per line. The query is both title and problem statement.

    An optional header line (``qid<TAB>query`` and similar) is skipped; a UTF-8 BOM is tolerated.
    """
    name = str(path)
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if lineno == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as err:
                raise InputError(name, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line") from None
            if not text.strip():
                continue
            if "\t" not in text:
                raise InputError(name, lineno, None, "expected 'topic_id<TAB>query text' (no tab found on this line)")
            topic_id, query = text.split("\t", 1)
            topic_id, query = topic_id.strip(), query.strip()
            if lineno == 1 and (topic_id.lower(), query.lower()) in _TSV_HEADERS:
                continue
            if not topic_id:
                raise InputError(name, lineno, "topic_id", "expected a topic id before the tab, found nothing")
            yield Request(topic_id, title=query, problem_statement=query, source=Location(name, lineno))


def read_web_xml(path: Path) -> Iterator[Request]:
    """TREC Web Track topics (2009-2014): ``<topic number type><query/><description/><subtopic number type/>...``.

    The query is the title, the description the problem statement, and each subtopic's text an aspect (ICAT
    scores coverage of aspects); topic and subtopic types are kept in ``extra``. The standard library's
    expat parser resolves no external entities and refuses entity expansion bombs.
    """
    import xml.etree.ElementTree as ET

    name = str(path)
    with open_binary(path) as handle:
        data = read_capped(handle, path)
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        line = error.position[0] if error.position else None
        raise InputError(name, line, None, f"invalid XML: {error}") from None
    topics = [root] if root.tag == "topic" else root.iter("topic")
    for index, topic in enumerate(topics):
        number = (topic.get("number") or "").strip()
        if not number:
            raise InputError(name, None, f"topic[{index}]", "missing the number attribute (the topic id)")
        query = " ".join((topic.findtext("query") or "").split())
        description = " ".join((topic.findtext("description") or "").split())
        subtopics = [(sub.get("number") or "", sub.get("type") or "", " ".join((sub.text or "").split()))
                     for sub in topic.findall("subtopic")]
        extra: dict[str, Any] = {}
        if topic.get("type"):
            extra["type"] = topic.get("type")
        if subtopics:
            extra["subtopics"] = [{"number": n, "type": t} for n, t, _ in subtopics]
        yield Request(number, title=query, problem_statement=description or query,
                      aspects=tuple(text for _, _, text in subtopics), extra=extra, source=Location(name, None))


# --------------------------------------------------------------------------------------------------
# writer
# --------------------------------------------------------------------------------------------------
def request_to_argue(request: Request) -> dict[str, Any]:
    """Our canonical request line (every modelled field, then the unmodelled ones from ``extra``)."""
    out: dict[str, Any] = {
        "request_id": request.request_id,
        "title": request.title,
        "background": request.background,
        "problem_statement": request.problem_statement,
        "limit": request.limit,
        "limit_unit": request.limit_unit,
        "collection_ids": list(request.collection_ids),
        "language": request.language,
        "aspects": list(request.aspects),
    }
    for key, value in request.extra.items():
        out.setdefault(key, value)
    return out


def write_argue(requests: Iterable[Request], path: Path) -> int:
    return write_jsonl(path, map(request_to_argue, requests))


# --------------------------------------------------------------------------------------------------
# detection
# --------------------------------------------------------------------------------------------------
_NOT_REQUESTS = ("sentences", "responses", "answer", "nuggets", "questions", "items", "nugget_bank", "kind", "judgments")


def _request_like(obj: dict[str, Any], id_key: str) -> bool:
    return (
        id_key in obj
        and any(key in obj for key in ("problem_statement", "background"))
        and not any(key in obj for key in _NOT_REQUESTS)
    )


def _sniff_argue(probe: Probe) -> bool:
    obj = probe.first_object or {}
    return _request_like(obj, "request_id") and any(key in obj for key in _CANONICAL_MARKERS)


def _sniff_neuclir24(probe: Probe) -> bool:
    obj = probe.first_object or {}
    return _request_like(obj, "request_id") and not any(key in obj for key in _CANONICAL_MARKERS)


def _sniff_ragtime26(probe: Probe) -> bool:
    obj = probe.first_object or {}
    return _request_like(obj, "topic_id") and "request_id" not in obj


def _sniff_rag25(probe: Probe) -> bool:
    obj = probe.first_object or {}
    return (
        "id" in obj and type(obj.get("title")) is str
        and not any(key in obj for key in ("text", "contents", "body", "doc_id", "docid") + _NOT_REQUESTS)
    )


def _sniff_plain_request(id_key: str) -> Callable[[Probe], bool]:
    def sniff(probe: Probe) -> bool:
        obj = probe.first_object or {}
        return id_key in obj and type(obj.get("request")) is str and not any(key in obj for key in _NOT_REQUESTS)

    return sniff


def _sniff_web_xml(probe: Probe) -> bool:
    line = (probe.first_line or "").lstrip()
    if not line.startswith("<"):
        return False
    with open_binary(probe.path) as handle:
        head = handle.read(4096)
    return b"<topic" in head and b"<query" in head or line.startswith(("<webtrack", "<topic"))


def _sniff_rag24(probe: Probe) -> bool:
    line = probe.first_line
    if line is None or line.lstrip().startswith(("{", "[")):
        return False
    parts = line.split("\t")
    return len(parts) == 2 and bool(parts[0].strip()) and " " not in parts[0].strip() and bool(parts[1].strip())


FORMATS: list[FormatSpec] = [
    jsonl_format(
        "argue", "requests",
        "argue-eval canonical requests {request_id, title, background, problem_statement, limit, limit_unit, "
        "collection_ids, language, aspects} (JSONL)",
        _sniff_argue, _parse_argue, write_argue, priority=10, aliases=("canonical",),
    ),
    jsonl_format(
        "neuclir24", "requests",
        "NeuCLIR 2024 / RAGTIME 2025 requests {request_id, collection_ids, title, background, problem_statement, limit}",
        _sniff_neuclir24, _parse_argue, None, priority=10, aliases=("neuclir", "ragtime25"),
    ),
    jsonl_format(
        "ragtime26", "requests",
        "RAGTIME 2026 topics {topic_id, collection_id, title, background, problem_statement, limit}",
        _sniff_ragtime26, _parse_ragtime26, None, priority=10,
        request_id_field="topic_id",
    ),
    FormatSpec("rag24", "requests", "TREC RAG 2024 topics, TSV 'topic_id<TAB>query'", _sniff_rag24, read_rag24, None, priority=0,
               request_id_field="topic_id"),
    jsonl_format(
        "report-gen-eval", "requests", "report_gen_eval requests {request_id (a number), request} (the request text)",
        _sniff_plain_request("request_id"), _plain_request("request_id"), None, priority=8,
    ),
    FormatSpec(
        "web-xml", "requests", "TREC Web Track XML topics <topic number><query><description><subtopic> (subtopics -> aspects)",
        _sniff_web_xml, read_web_xml, None, priority=3,
    ),
    jsonl_format(
        "crux", "requests", "CRUX requests {id, request} (e.g. CRUX-MDS DUC'04)",
        _sniff_plain_request("id"), _plain_request("id"), None, priority=8,
    ),
    jsonl_format(
        "rag25", "requests", "TREC RAG 2025 narratives {id, title} (the title is the narrative)",
        _sniff_rag25, _parse_rag25, None, priority=5,
        request_id_field="id",
    ),
]

LINE_FORMATS: frozenset[str] = frozenset(spec.name for spec in FORMATS if spec.parse is not None)
"""The JSON Lines request formats (``parse_request`` reads one line of each); the others are read whole."""
