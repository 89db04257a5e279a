"""Report (run) formats: our canonical runs, NeuCLIR 2024, RAGTIME / generic TREC RAG, TREC RAG 2024 and 2025.

Every reader yields ``Report`` records. One careful parser per format, ``parse_report``, checks every
field and either raises the first ``InputError`` (ordinary reading) or collects every ``Problem`` of the
line (``validate``). Ordinary reading of the NeuCLIR / canonical shape first tries a lean path that only
accepts a perfectly clean line (every type exactly right, no optional extras) and falls back to the
careful parser for anything else, so clean 1 GB runs read at close to JSON-parsing speed while every
broken line still gets the careful, located message. Both paths build identical records.

Cross-record checks (duplicate topics, missing topics, length limits, references vs citations, documents
absent from the collection) belong to ``argue_eval.validate``; this module only judges one line at a time.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import Problem, id_control_character
from ..model import Location, Report, Sentence
from ..reading import iter_jsonl
from ..writing import write_jsonl
from ._fields import Fields, is_number, type_name, unknown, warn_lossy
from .base import FormatSpec, Probe, jsonl_format, parse_named

__all__ = ["FORMATS", "parse_report", "report_to_argue", "report_to_neuclir24", "report_to_ragtime"]


_SENTENCES_TOP = frozenset({"run_id", "request_id", "collection_ids", "sentences", "references", "metadata"})
_SENTENCE_KEYS = frozenset({"text", "citations", "citation_scores"})
_RAGTIME_TOP = frozenset({"metadata", "responses", "references"})
_RAGTIME_META = frozenset({"run_id", "topic_id", "collection_ids"})
_RAG24_TOP = frozenset({"run_id", "topic_id", "references", "answer"})
_RAG25_TOP = frozenset({"metadata", "references", "answer"})
_RAG25_META = frozenset({"run_id", "narrative_id"})
_ANSWER_KEYS = frozenset({"text", "citations"})


# --------------------------------------------------------------------------------------------------
# careful parsing (one line, every problem located)
# --------------------------------------------------------------------------------------------------
def parse_report(
    obj: dict[str, Any], format_name: str, path: str, line: int | None, problems: list[Problem] | None = None
) -> Report | None:
    """Parse one run line in ``format_name`` (``argue``, ``neuclir24``, ``ragtime``, ``rag24``, ``rag25``).

    With ``problems=None`` the first schema error raises ``InputError``; with a list every problem of the
    line is appended (errors and warnings) and the ``Report`` is returned when it is still usable (it has
    a run id, a request id and a sentence list; bad citations are dropped), else ``None``.
    """
    return parse_named(FORMATS, "run", format_name, obj, path, line, problems)


def _parse_sentences_family(obj: dict[str, Any], f: Fields) -> Report | None:
    """Canonical and NeuCLIR 2024 runs: ``{run_id, request_id, collection_ids, sentences[, references, metadata]}``."""
    run_id = f.ident(obj, "run_id")
    request_id = f.ident(obj, "request_id")
    collection_ids = f.collection_list(obj.get("collection_ids"), "collection_ids")
    sentences = _parse_sentence_list(obj, "sentences", f, _citations_list)
    references = _parse_references(obj, f)
    metadata: dict[str, Any] = {}
    raw_meta = obj.get("metadata")
    if raw_meta is not None:
        meta = f.mapping(raw_meta, "metadata")
        if meta:
            metadata.update(meta)
    for key, value in unknown(obj, _SENTENCES_TOP).items():
        metadata.setdefault(key, value)
    if run_id is None or request_id is None or sentences is None:
        return None
    return Report(run_id, request_id, sentences, references, collection_ids, metadata, Location(f.path, f.line))


def _parse_ragtime(obj: dict[str, Any], f: Fields) -> Report | None:
    """RAGTIME / generic: ``{metadata: {run_id, topic_id, ...}, responses: [...], references: [...]}``."""
    meta = f.required_mapping(obj, "metadata", "an object with run_id and topic_id")
    run_id = request_id = None
    collection_ids: tuple[str, ...] = ()
    metadata: dict[str, Any] = {}
    if meta is not None:
        run_id = f.ident(meta, "run_id", "metadata.")
        request_id = f.ident(meta, "topic_id", "metadata.")
        collection_ids = f.collection_list(meta.get("collection_ids"), "metadata.collection_ids")
        metadata.update(unknown(meta, _RAGTIME_META))
    sentences = _parse_sentence_list(obj, "responses", f, _citations_list_or_dict)
    references = _parse_references(obj, f)
    for key, value in unknown(obj, _RAGTIME_TOP).items():
        metadata.setdefault(key, value)
    if run_id is None or request_id is None or sentences is None:
        return None
    return Report(run_id, request_id, sentences, references, collection_ids, metadata, Location(f.path, f.line))


def _parse_rag24(obj: dict[str, Any], f: Fields) -> Report | None:
    """TREC RAG 2024: ``{run_id, topic_id, topic, references, response_length, answer: [{text, citations: [index]}]}``."""
    run_id = f.ident(obj, "run_id")
    request_id = f.ident(obj, "topic_id")
    references = _parse_references(obj, f)
    resolve = _index_resolver(references or (), allow_ids=False)
    sentences = _parse_sentence_list(obj, "answer", f, resolve)
    metadata = unknown(obj, _RAG24_TOP)
    if run_id is None or request_id is None or sentences is None:
        return None
    return Report(run_id, request_id, sentences, references, (), metadata, Location(f.path, f.line))


def _parse_rag25(obj: dict[str, Any], f: Fields) -> Report | None:
    """TREC RAG 2025: ``{metadata: {run_id, narrative_id, ...}, references, answer: [{text, citations: [index | id]}]}``."""
    run_id = request_id = None
    metadata: dict[str, Any] = {}
    meta = f.required_mapping(obj, "metadata", "an object with run_id and narrative_id")
    if meta is not None:
        run_id = f.ident(meta, "run_id", "metadata.")
        request_id = f.ident(meta, "narrative_id", "metadata.")
        metadata.update(unknown(meta, _RAG25_META))
    references = _parse_references(obj, f)
    resolve = _index_resolver(references or (), allow_ids=True)
    sentences = _parse_sentence_list(obj, "answer", f, resolve)
    for key, value in unknown(obj, _RAG25_TOP).items():
        metadata.setdefault(key, value)
    if run_id is None or request_id is None or sentences is None:
        return None
    return Report(run_id, request_id, sentences, references, (), metadata, Location(f.path, f.line))


def _parse_neuclir24_gold(obj: dict[str, Any], f: Fields) -> Report | None:
    """The NeuCLIR 2024 evaluation data's gold report, ``{request_id, collection_ids, report: [[sentence,
    [doc_id...]]...], questions}``, read as a run (run id ``run_id`` if present, else ``gold``) so organizers
    can score their own reference reports. The questions are the nugget bank's (``--kind nuggets``)."""
    request_id = f.ident(obj, "request_id")
    run_id = f.ident(obj, "run_id") if "run_id" in obj else "gold"
    collection_ids = f.collection_list(obj.get("collection_ids"), "collection_ids")
    sentences: list[Sentence] = []
    items = f.required_array(obj, "report", "an array of [sentence, [doc_id, ...]] pairs") or ()
    for index, item in enumerate(items):
        where = f"report[{index}]"
        if type(item) is not list or len(item) != 2:
            f.error(where, f"expected a [sentence, [doc_id, ...]] pair, found {type_name(item)}")
            continue
        text, docs = item
        if type(text) is not str:
            f.error(f"{where}[0]", f"expected the sentence text, found {type_name(text)}")
            continue
        citations = f.id_list(docs, f"{where}[1]") if docs is not None else ()
        sentences.append(Sentence(text, tuple(citations or ())))
    metadata = unknown(obj, frozenset({"request_id", "run_id", "collection_ids", "report", "questions"}))
    if request_id is None or run_id is None:
        return None
    return Report(run_id, request_id, sentences, None, collection_ids, metadata, Location(f.path, f.line))


_ANSWER_IDS = ("request_id", "topic_id", "query_id", "qid", "id")
_MARKERS = re.compile(r"\s*\[(\d+(?:\s*,\s*\d+)*)\]")


def _parse_answer_text(obj: dict[str, Any], f: Fields) -> Report | None:
    """A single answer string with the documents it drew on, ``{id, answer, context_doc_ids[, run_id]}``:
    split into sentences by pysbd (a rule-based segmenter that knows abbreviations, numbers and quotes),
    each ``[n]`` / ``[n, m]`` marker citing ``context_doc_ids[n-1]`` (1-based) and removed from the text.
    The context documents are the report's references. Run id: ``run_id``, else the file name."""
    key = next((k for k in _ANSWER_IDS if k in obj), "request_id")
    request_id = f.ident(obj, key)
    run_id = f.ident(obj, "run_id") if "run_id" in obj else Path(f.path).name.split(".")[0]
    text = f.text(obj, "answer", required=True)
    context = f.id_list(obj.get("context_doc_ids"), "context_doc_ids") or ()
    sentences: list[Sentence] = []
    for piece in segment_sentences(text):
        cited: list[str] = []
        for match in _MARKERS.finditer(piece):
            for number in match.group(1).split(","):
                n = int(number)
                if 1 <= n <= len(context):
                    cited.append(context[n - 1])
                else:
                    f.error("answer", f"citation marker [{n}] is out of range: context_doc_ids has {len(context)} "
                            f"entries (markers count from 1)")
        clean = " ".join(_MARKERS.sub("", piece).split())
        clean = re.sub(r"\s+([.,;:!?])", r"\1", clean)
        if clean:
            sentences.append(Sentence(clean, tuple(cited)))
    metadata = unknown(obj, frozenset({key, "run_id", "answer", "context_doc_ids"}))
    if request_id is None or run_id is None:
        return None
    return Report(run_id, request_id, sentences, tuple(context), (), metadata, Location(f.path, f.line))


def segment_sentences(text: str) -> list[str]:
    """Sentences of an English text by pysbd (``clean=False``: the text is kept as written)."""
    import pysbd

    return [piece for piece in _segmenter(pysbd).segment(text) if piece.strip()]


_SEGMENTER: Any = None


def _segmenter(pysbd: Any) -> Any:
    global _SEGMENTER
    if _SEGMENTER is None:
        _SEGMENTER = pysbd.Segmenter(language="en", clean=False)
    return _SEGMENTER


# A citations parser turns one sentence's raw ``citations`` value into (doc ids, scores or None).
CitationParser = Callable[[Any, str, Fields], "tuple[tuple[str, ...], tuple[float, ...] | None]"]


def _parse_references(obj: dict[str, Any], f: Fields) -> tuple[str, ...] | None:
    if obj.get("references") is None:
        return None
    return f.id_list(obj["references"], "references", "document ids")


def _parse_sentence_list(obj: dict[str, Any], key: str, f: Fields, citations: CitationParser) -> list[Sentence] | None:
    raw = f.required_array(obj, key, "an array of sentence objects {text, citations}")
    if raw is None:
        return None
    known = _SENTENCE_KEYS if citations is _citations_list else _ANSWER_KEYS
    out: list[Sentence] = []
    for index, item in enumerate(raw):
        field = f"{key}[{index}]"
        if type(item) is not dict:
            f.error(field, f"expected a sentence object {{text, citations}}, found {type_name(item)}")
            continue
        text = f.text(item, "text", field + ".", required=True)
        doc_ids, scores = citations(item.get("citations"), field + ".citations", f)
        if "citation_scores" in item and citations is _citations_list:
            scores = _parse_scores(item["citation_scores"], len(doc_ids), item.get("citations"), field, f)
        extra = unknown(item, known) or None
        out.append(Sentence(text, doc_ids, scores, extra))
    return out


def _citations_list(value: Any, field: str, f: Fields) -> tuple[tuple[str, ...], None]:
    """A list of document ids (canonical / NeuCLIR 2024); a missing or null list means no citations."""
    if value is None:
        return (), None
    if type(value) is dict:
        f.error(field, "expected a list of document ids, found an object (RAGTIME-style {doc_id: score}); "
                "use citation_scores for scores in this format")
        return (), None
    return _doc_id_list(value, field, f), None


def _doc_id_list(value: Any, field: str, f: Fields) -> tuple[str, ...]:
    if type(value) is not list:
        f.error(field, f"expected a list of document ids, found {type_name(value)}")
        return ()
    out: list[str] = []
    for index, item in enumerate(value):
        bad = id_control_character(item) if type(item) is str else None
        if type(item) is str and item and bad is None:
            out.append(item)
        elif bad is not None:
            f.error(f"{field}[{index}]", f"id contains the control character {bad}; ids must be printable text")
        elif type(item) is str:
            f.error(f"{field}[{index}]", "expected a document id, found an empty string")
        else:
            f.error(f"{field}[{index}]", f"expected a document id string, found {type_name(item)}")
    return tuple(out)


def _citations_list_or_dict(value: Any, field: str, f: Fields) -> tuple[tuple[str, ...], tuple[float, ...] | None]:
    """RAGTIME citations: a list of ids, or ``{doc_id: score}`` (order kept, scores parallel)."""
    if value is None:
        return (), None
    if type(value) is not dict:
        return _doc_id_list(value, field, f), None
    doc_ids: list[str] = []
    scores: list[float] = []
    usable = True
    for doc_id, score in value.items():
        if not doc_id:
            f.error(field, "expected a document id as key, found an empty string")
            continue
        bad = id_control_character(doc_id)
        if bad is not None:
            f.error(f"{field}[{len(doc_ids)}]", f"id contains the control character {bad}; ids must be printable text")
            continue
        if not is_number(score):
            f.error(f"{field}.{doc_id}", f"expected a numeric citation score, found {type_name(score)}")
            usable = False
        doc_ids.append(doc_id)
        scores.append(score)
    return tuple(doc_ids), (tuple(scores) if usable else None)


def _parse_scores(value: Any, count: int, raw_citations: Any, field: str, f: Fields) -> tuple[float, ...] | None:
    """Canonical ``citation_scores``: numbers parallel to ``citations`` (same length)."""
    if value is None:
        return None
    sfield = field + ".citation_scores"
    if type(value) is not list:
        f.error(sfield, f"expected a list of numbers parallel to citations, found {type_name(value)}")
        return None
    bad = False
    for index, item in enumerate(value):
        if not is_number(item):
            f.error(f"{sfield}[{index}]", f"expected a number, found {type_name(item)}")
            bad = True
    expected = len(raw_citations) if type(raw_citations) is list else count
    if len(value) != expected:
        f.error(sfield, f"has {len(value)} scores but citations has {expected} entries; they must be parallel")
        return None
    if bad or len(value) != count:  # a bad citation was dropped: the scores no longer line up
        return None
    return tuple(value)


def _index_resolver(references: tuple[str, ...], allow_ids: bool) -> CitationParser:
    """Citations that index ``references`` (TREC RAG 24; RAG 25 also allows ids) resolved to document ids."""
    size = len(references)
    expected = "an index into references or a document id" if allow_ids else "an index into references (an integer)"

    def resolve(value: Any, field: str, f: Fields) -> tuple[tuple[str, ...], None]:
        if value is None:
            return (), None
        if type(value) is not list:
            f.error(field, f"expected a list of citations ({expected}), found {type_name(value)}")
            return (), None
        out: list[str] = []
        for index, item in enumerate(value):
            where = f"{field}[{index}]"
            if type(item) is int:
                if 0 <= item < size:
                    out.append(references[item])
                elif size == 0:
                    f.error(where, f"citation index {item} cannot be resolved: the report has no references")
                else:
                    f.error(where, (
                        f"citation index {item} is out of range: references has {size} "
                        f"{'entry' if size == 1 else 'entries'} (valid indexes 0-{size - 1})"
                    ))
            elif type(item) is str and allow_ids and item:
                out.append(item)
            else:
                f.error(where, f"expected {expected}, found {type_name(item)}")
        return tuple(out), None

    return resolve


# --------------------------------------------------------------------------------------------------
# streaming readers
# --------------------------------------------------------------------------------------------------
def _fast_sentences(obj: dict[str, Any], path: str, line: int) -> Report | None:
    """The lean path for clean canonical / NeuCLIR lines; ``None`` sends the line to the careful parser.

    Only exact types are accepted, so anything it returns equals what ``parse_report`` would build.
    ``"".join(ids)`` checks in C that every id is a string (it raises ``TypeError`` otherwise); ``"" in
    ids`` rejects empty ids. Sentences with optional fields (scores, extras) take the careful path.
    """
    try:
        if not obj.keys() <= _SENTENCES_TOP:
            return None
        run_id = obj["run_id"]
        request_id = obj["request_id"]
        if run_id.__class__ is not str or request_id.__class__ is not str or not run_id.strip() or not request_id.strip():
            return None
        collection_ids = obj.get("collection_ids")
        if collection_ids is None:
            collection_ids = ()
        elif collection_ids.__class__ is list:
            "".join(collection_ids)
            if not all(map(str.strip, collection_ids)):  # an empty or blank id: the careful parser names it
                return None
            collection_ids = tuple(collection_ids)
        else:
            return None
        references = obj.get("references")
        if references is not None:
            if references.__class__ is not list:
                return None
            "".join(references)
            if not all(map(str.strip, references)):  # an empty or blank id: the careful parser names it
                return None
            references = tuple(references)
        metadata = obj.get("metadata")
        if metadata is None:
            metadata = {}
        elif metadata.__class__ is dict:
            metadata = dict(metadata)
        else:
            return None
        raw = obj["sentences"]
        if raw.__class__ is not list:
            return None
        sentences: list[Sentence] = []
        append = sentences.append
        for item in raw:
            if item.__class__ is not dict or len(item) != 2:
                return None
            text = item["text"]
            citations = item["citations"]
            if text.__class__ is not str or citations.__class__ is not list:
                return None
            if citations:
                "".join(citations)
                if "" in citations:
                    return None
            append(Sentence(text, tuple(citations)))
        ids = "".join((run_id, request_id, *collection_ids, *(references or ()),
                       *(doc_id for sentence in sentences for doc_id in sentence.citations)))
        if id_control_character(ids) is not None:  # the careful parser names the id
            return None
    except (KeyError, TypeError, AttributeError):
        return None
    return Report(run_id, request_id, sentences, references, collection_ids, metadata, Location(path, line))


def _read_sentences_family(path: Path) -> Iterator[Report]:
    """Stream canonical / NeuCLIR 2024 runs: the lean path for clean lines, the careful parser for the rest."""
    name = str(path)
    for lineno, obj in iter_jsonl(path):
        report = _fast_sentences(obj, name, lineno)
        yield report if report is not None else _parse_sentences_family(obj, Fields(name, lineno))  # type: ignore[misc]


# --------------------------------------------------------------------------------------------------
# writers
# --------------------------------------------------------------------------------------------------
def report_to_argue(report: Report) -> dict[str, Any]:
    """Our canonical run line: the NeuCLIR shape plus references, metadata and per-sentence scores."""
    out: dict[str, Any] = {
        "run_id": report.run_id,
        "request_id": report.request_id,
        "collection_ids": list(report.collection_ids),
        "sentences": [_sentence_dict(s, with_scores=True) for s in report.sentences],
    }
    if report.references is not None:
        out["references"] = list(report.references)
    out["metadata"] = dict(report.metadata)
    return out


def _sentence_dict(sentence: Sentence, with_scores: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"text": sentence.text, "citations": list(sentence.citations)}
    if with_scores and sentence.citation_scores is not None:
        out["citation_scores"] = list(sentence.citation_scores)
    if sentence.extra:
        for key, value in sentence.extra.items():
            out.setdefault(key, value)
    return out


class _Losses:
    """Counts what a writer had to drop, reported once at the end (not once per line).

    Each message is a template with ``{n}``, filled with how often it happened.
    """

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def add(self, template: str, count: int = 1) -> None:
        self.counts[template] = self.counts.get(template, 0) + count

    def report(self, target: str) -> None:
        for template, count in self.counts.items():
            warn_lossy(f"{target}: " + template.format(n=count))


def report_to_neuclir24(report: Report, losses: _Losses | None = None) -> dict[str, Any]:
    """A NeuCLIR 2024 run line. Metadata fields become top-level fields (NeuCLIR has no metadata object)."""
    out: dict[str, Any] = {
        "request_id": report.request_id,
        "run_id": report.run_id,
        "collection_ids": list(report.collection_ids),
        "sentences": [],
    }
    dropped_scores = 0
    for sentence in report.sentences:
        if sentence.citation_scores is not None:
            dropped_scores += 1
        out["sentences"].append(_sentence_dict(sentence, with_scores=False))
    if report.references is not None:
        out["references"] = list(report.references)
    for key, value in report.metadata.items():
        if key in out or key == "metadata":
            if losses is not None:
                name = repr(key).replace("{", "{{").replace("}", "}}")
                losses.add(f"dropped metadata field {name} of {{n}} report(s): it clashes with a NeuCLIR field")
            continue
        out[key] = value
    if dropped_scores and losses is not None:
        losses.add("dropped the citation scores of {n} sentence(s): NeuCLIR 2024 runs cannot hold scores", dropped_scores)
    return out


def report_to_ragtime(report: Report, losses: _Losses | None = None) -> dict[str, Any]:
    """A RAGTIME run line: scored sentences as ``{doc_id: score}``, unscored ones as a list of ids."""
    metadata: dict[str, Any] = {}
    if "team_id" in report.metadata:
        metadata["team_id"] = report.metadata["team_id"]
    metadata["run_id"] = report.run_id
    metadata["topic_id"] = report.request_id
    if report.collection_ids:
        metadata["collection_ids"] = list(report.collection_ids)
    for key, value in report.metadata.items():
        metadata.setdefault(key, value)
    responses = []
    for sentence in report.sentences:
        if sentence.citation_scores is None:
            citations: Any = list(sentence.citations)
        else:
            citations = {}
            for doc_id, score in zip(sentence.citations, sentence.citation_scores):
                if doc_id in citations:
                    if losses is not None:
                        losses.add("kept {n} repeated scored citation(s) once: a {{doc_id: score}} object cannot repeat a document")
                    continue
                citations[doc_id] = score
        item: dict[str, Any] = {"text": sentence.text, "citations": citations}
        if sentence.extra:
            for key, value in sentence.extra.items():
                item.setdefault(key, value)
        responses.append(item)
    references = report.references
    if references is None:
        references = tuple(dict.fromkeys(doc for s in report.sentences for doc in s.citations))
        if losses is not None:
            losses.add("{n} report(s) had no references list; wrote their cited documents, in order of first citation")
    return {"metadata": metadata, "responses": responses, "references": list(references)}


def _writer(to_dict: Callable[..., dict[str, Any]], target: str, lossy: bool) -> Callable[[Iterable[Report], Path], int]:
    def write(reports: Iterable[Report], path: Path) -> int:
        losses = _Losses()
        count = write_jsonl(path, (to_dict(report, losses) if lossy else to_dict(report) for report in reports))
        losses.report(target)
        return count

    write.__name__ = f"write_{target}"
    return write


# --------------------------------------------------------------------------------------------------
# detection
# --------------------------------------------------------------------------------------------------
def _first(probe: Probe) -> dict[str, Any]:
    return probe.first_object or {}


# Sniffers look for the keys that name a run shape, not for well-typed values: a first line with a missing
# or mistyped field is still recognized as the run it is meant to be, so its parser can name the field
# (a located schema error) instead of detection giving up with "cannot recognize the file".
def _is_sentences_family(obj: dict[str, Any]) -> bool:
    return "sentences" in obj and ("request_id" in obj or "run_id" in obj)


def _is_canonical(obj: dict[str, Any]) -> bool:
    """Ours when it says so: a ``metadata`` object or per-sentence ``citation_scores`` (our writer always adds metadata)."""
    if "metadata" in obj:
        return True
    sentences = obj["sentences"]
    return type(sentences) is list and any(type(s) is dict and "citation_scores" in s for s in sentences)


def _sniff_argue(probe: Probe) -> bool:
    obj = _first(probe)
    return _is_sentences_family(obj) and _is_canonical(obj)


def _sniff_neuclir24(probe: Probe) -> bool:
    obj = _first(probe)
    return _is_sentences_family(obj) and not _is_canonical(obj)


def _sniff_ragtime(probe: Probe) -> bool:
    obj = _first(probe)
    return "responses" in obj and "judgments" not in obj and "report" not in obj


def _sniff_rag24(probe: Probe) -> bool:
    obj = _first(probe)
    return type(obj.get("answer")) is list and "topic_id" in obj and type(obj.get("metadata")) is not dict


def _sniff_neuclir24_gold(probe: Probe) -> bool:
    obj = _first(probe)
    report = obj.get("report")
    return "request_id" in obj and type(report) is list and (not report or type(report[0]) is list) and "sentences" not in obj


def _sniff_answer_text(probe: Probe) -> bool:
    obj = _first(probe)
    return type(obj.get("answer")) is str and type(obj.get("context_doc_ids")) is list


def _sniff_rag25(probe: Probe) -> bool:
    obj = _first(probe)
    return type(obj.get("answer")) is list and type(obj.get("metadata")) is dict


FORMATS: list[FormatSpec] = [
    jsonl_format(
        "neuclir24-gold", "runs",
        "NeuCLIR 2024 evaluation data's gold report {request_id, report: [[sentence, [doc_id]]]} read as a run",
        _sniff_neuclir24_gold, _parse_neuclir24_gold, None, priority=1,
    ),
    jsonl_format(
        "answer-text", "runs",
        "one answer string per topic {id, answer, context_doc_ids}: sentences split by pysbd, [n] markers cite",
        _sniff_answer_text, _parse_answer_text, None, priority=5,
    ),
    # canonical and NeuCLIR 2024 runs: a lean reader for clean lines, the careful parser for the rest
    FormatSpec(
        "argue", "runs",
        "argue-eval canonical runs: NeuCLIR 2024 shape plus references, metadata and citation_scores (JSONL)",
        _sniff_argue, _read_sentences_family, _writer(report_to_argue, "argue", lossy=False), priority=10,
        aliases=("canonical",), parse=_parse_sentences_family,
    ),
    FormatSpec(
        "neuclir24", "runs",
        "NeuCLIR 2024 runs {request_id, run_id, collection_ids, sentences: [{text, citations}]} (JSONL)",
        _sniff_neuclir24, _read_sentences_family, _writer(report_to_neuclir24, "neuclir24", lossy=True), priority=10,
        aliases=("neuclir",), parse=_parse_sentences_family,
    ),
    jsonl_format(
        "ragtime", "runs",
        "RAGTIME / generic TREC RAG runs {metadata, responses: [{text, citations: [ids] | {id: score}}], references}",
        _sniff_ragtime, _parse_ragtime, _writer(report_to_ragtime, "ragtime", lossy=True), priority=10,
        request_id_field="metadata.topic_id", run_id_field="metadata.run_id", sentences_field="responses",
    ),
    jsonl_format(
        "rag24", "runs",
        "TREC RAG 2024 runs {run_id, topic_id, references, answer: [{text, citations: [index]}]}",
        _sniff_rag24, _parse_rag24, None, priority=10,
        request_id_field="topic_id", sentences_field="answer",
    ),
    jsonl_format(
        "rag25", "runs",
        "TREC RAG 2025 runs {metadata: {run_id, narrative_id}, references, answer: [{text, citations: [index | id]}]}",
        _sniff_rag25, _parse_rag25, None, priority=10,
        request_id_field="metadata.narrative_id", run_id_field="metadata.run_id", sentences_field="answer",
    ),
]
