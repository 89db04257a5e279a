"""Repair a run file: what ``argue-eval validate --fix -o FIXED`` writes, and every change it made, located.

A participant whose run fails ``validate`` on a length limit or a citation wants the run fixed the way the
track's own tools would fix it (ragnarok's ``--apply-fixes``, the iKAT validator), not a list of 194 errors
to work through by hand. The repairs are the mechanical ones, nothing that needs judgment:

- a report over its length limit (the limit ``validate`` holds it to: ``--limit``, the request's, the
  track's) loses sentences from its end; the first sentence that does not fit is cut at the last sentence end
  that fits, when it has one; a first sentence with no sentence end within the limit is cut at the last word
  (or, in text without spaces, character) that fits;
- a sentence with no text is dropped, with its citations;
- a citation is dropped when it repeats a document the sentence already cites, when it is an index past the
  end of ``references`` (TREC RAG 2024/2025), when it is not a document id at all, when the report's
  ``references`` do not list it, or (with a collection) when the collection has no such document;
- a reference no kept sentence cites is dropped (the RAGTIME rule; TREC RAG references are the retrieved
  context and stay as they are, so citation indexes keep pointing where they did);
- a TREC RAG 2024 ``response_length`` that no longer matches the answer is restated.

Every other field, and every line that needs no change, is written byte for byte as it was; a changed line
keeps its keys in their order. The input is never written: the fixed run goes to the output path given, and
each change is a :class:`Change` (``FILE:LINE: field: fixed: ...``, located in the input). What cannot be fixed
mechanically (a missing topic, a schema error, a citation score out of range) stays, and ``validate`` on the
fixed file reports it. Records layer: reads and writes files, knows run formats, never judges.
"""
from __future__ import annotations

import gzip
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import orjson

from .errors import InputError, OptionError, id_control_character, type_name
from .model import Request
from .validate import ValidateOptions, length_limit, open_store, presence_in, request_map, run_format

if TYPE_CHECKING:
    from .collection.base import DocumentStore
    from .tracks import TrackPreset

__all__ = ["FIXES", "FIXABLE_FORMATS", "Change", "FixedRun", "fix_run"]

FIXES: dict[str, str] = {
    "length": "a report over its limit: sentences dropped from the end (the first that does not fit cut at a sentence end)",
    "empty-sentence": "a sentence with no text dropped, with its citations",
    "duplicate-citation": "a second citation of the same document in one sentence dropped",
    "citation-out-of-range": "a citation index past the end of references dropped (TREC RAG 2024/2025)",
    "not-a-citation": "a citation that is not a document id (or an index) dropped",
    "citation-not-in-references": "a citation of a document the report's references do not list dropped",
    "missing-document": "a citation of a document not in --collection dropped",
    "reference-not-cited": "a reference no sentence cites dropped (RAGTIME rule; not TREC RAG's context)",
    "response-length": "TREC RAG 2024 response_length restated as the answer's word count",
}
"""Fix name -> what it changes, in the order a report is repaired."""

FIXABLE_FORMATS = ("argue", "neuclir24", "ragtime", "rag24", "rag25")
_CONTEXT_REFERENCES = frozenset({"rag24", "rag25"})


@dataclass(frozen=True)
class Change:
    """One change ``--fix`` made, located in the input run: printed as ``FILE:LINE: field: fixed: message``."""

    path: str
    line: int
    field: str
    fix: str
    """A ``FIXES`` name."""
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: fixed: {self.message}"


@dataclass
class FixedRun:
    """What fixing one run file did: the changes (in line order), and how many reports it read and changed."""

    source: str
    output: str
    format: str
    changes: list[Change] = field(default_factory=list)
    reports: int = 0
    changed_reports: int = 0
    sentences_dropped: int = 0
    sentences_cut: int = 0

    def counts(self) -> Counter[str]:
        """Changes per fix (``FIXES`` names)."""
        return Counter(change.fix for change in self.changes)


def fix_run(
    run: str | os.PathLike[str],
    output: str | os.PathLike[str],
    requests: str | os.PathLike[str] | dict[str, Request] | Iterable[Request] | None = None,
    *,
    collection: str | os.PathLike[str] | DocumentStore | None = None,
    options: ValidateOptions | None = None,
    requests_format: str | None = None,
) -> FixedRun:
    """Write ``run`` repaired to ``output`` (atomically; ``.gz`` compresses) and return what was changed.

    The limits are ``validate``'s for the same ``requests`` and ``options`` (``limit``, ``unit``, ``track``,
    ``format``). A file that cannot be read to the end (malformed JSON Lines, a format not recognized, a format
    with no fixes) raises ``InputError`` and writes nothing; ``output`` naming ``run`` itself is refused.
    """
    from .formats import get_format

    options = options or ValidateOptions()
    source, target = Path(run), Path(output)
    if target.exists() and source.exists() and os.path.samefile(source, target):
        raise OptionError("-o", f"{output} is the run itself; --fix never writes its input, give another file")
    track = _track(options)
    if options.format is not None:
        get_format(options.format, "runs")
    spec = run_format(source, options.format, track)
    if spec.name not in FIXABLE_FORMATS:
        raise InputError(run, None, None, f"runs in the {spec.name} format cannot be fixed (--fix writes "
                         f"{', '.join(FIXABLE_FORMATS)} runs); convert it first")
    by_id, _ = request_map(requests, requests_format, [], options)
    store, owned = open_store(collection)
    fixer = _Fixer(str(run), spec.name, spec.sentences_field, by_id, options, track, store)
    lines: list[bytes] = []
    try:
        for lineno, obj, raw in _records(source):
            if fixer.fix(obj, lineno):
                lines.append(orjson.dumps(obj) + b"\n")
            else:
                lines.append(raw if raw is not None and raw.endswith(b"\n") else
                             (raw + b"\n") if raw is not None else orjson.dumps(obj) + b"\n")
    finally:
        if owned and store is not None:
            store.close()
    _write(target, b"".join(lines))
    fixer.result.output = str(output)
    return fixer.result


def _track(options: ValidateOptions) -> TrackPreset | None:
    if options.track is None:
        return None
    from .tracks import get_track

    return get_track(options.track)


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any], bytes | None]]:
    """``(line, object, raw line)`` for every object of a JSON Lines run; the raw bytes let an unchanged line
    be written as it was. A file that is not JSON Lines is handed to ``iter_jsonl``, which names the fault
    (exit 2) or, with ``--lenient``, reads its objects, each then written as one line (raw ``None``)."""
    from .reading import iter_jsonl, iter_lines, open_binary

    failed_at = None
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if not raw.strip():
                continue
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError:
                value = None
            if not isinstance(value, dict):
                failed_at = lineno
                break
            yield lineno, value, raw
    if failed_at is None:
        return
    for lineno, value in iter_jsonl(path):
        if lineno >= failed_at:
            yield lineno, value, None


def _write(target: Path, data: bytes) -> None:
    from .writing import atomic_writer

    if target.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    with atomic_writer(target, "wb") as handle:
        handle.write(data)


class _Fixer:
    """Repairs one run's objects in place, line by line, collecting the changes."""

    def __init__(self, path: str, format_name: str, key: str, requests: dict[str, Request] | None,
                 options: ValidateOptions, track: TrackPreset | None, store: DocumentStore | None):
        self.path = path
        self.format = format_name
        self.key = key
        self.requests = requests
        self.options = options
        self.track = track
        self.store = store
        self._in_collection = presence_in(store)
        self.result = FixedRun(path, "", format_name)
        self.line = 0

    def change(self, fix: str, where: str, message: str) -> None:
        self.result.changes.append(Change(self.path, self.line, where, fix, message))

    def fix(self, obj: dict[str, Any], line: int) -> bool:
        """Repair one run line in place; ``True`` when it changed. A line the run format's parser cannot read
        as a report (no run id, say) is left as it is: ``validate`` on the fixed file still names its fault."""
        from .formats.runs import parse_report

        self.line = line
        self.result.reports += 1
        report = parse_report(obj, self.format, self.path, line, [])
        entries = obj.get(self.key)
        if report is None or not isinstance(entries, list):
            return False
        before = len(self.result.changes)
        raw_refs = obj.get("references")
        references = raw_refs if isinstance(raw_refs, list) and all(type(r) is str for r in raw_refs) else None
        kept: list[tuple[int, Any]] = []
        for index, entry in enumerate(entries):
            if isinstance(entry, dict) and isinstance(entry.get("text"), str) and not entry["text"].strip():
                cites = entry.get("citations")
                extra = f", with its {_plural(len(cites), 'citation')}" if isinstance(cites, (list, dict)) and cites else ""
                self.change("empty-sentence", f"{self.key}[{index}]", f"dropped an empty sentence{extra}")
                self.result.sentences_dropped += 1
                continue
            if isinstance(entry, dict):
                self._fix_citations(entry, index, references)
            kept.append((index, entry))
        request = self.requests.get(report.request_id) if self.requests is not None else None
        kept = self._fit(kept, report, request)
        if len(kept) != len(entries):
            obj[self.key] = [entry for _, entry in kept]
        if references is not None and self.format not in _CONTEXT_REFERENCES:
            self._drop_uncited(obj, references, kept)
        if self.format == "rag24" and type(obj.get("response_length")) is int:
            counted = sum(_measure(e["text"], "words") for _, e in kept if isinstance(e, dict) and isinstance(e.get("text"), str))
            if counted != obj["response_length"]:
                self.change("response-length", "response_length",
                            f"response_length {obj['response_length']} restated as {counted}, the answer's word count")
                obj["response_length"] = counted
        changed = len(self.result.changes) > before
        self.result.changed_reports += changed
        return changed

    # ---------------------------------------------------------------------------------------------- citations
    def _fix_citations(self, entry: dict[str, Any], index: int, references: list[str] | None) -> None:
        raw = entry.get("citations")
        where = f"{self.key}[{index}].citations"
        if isinstance(raw, dict):  # RAGTIME {doc_id: score}: keys are unique, so no repeats
            drop = [doc for doc in raw
                    if self._refuse(doc, self._doc_id(doc, references, where), where, references, set()) is None]
            for doc in drop:
                del raw[doc]
            return
        if not isinstance(raw, list):
            return
        scores = entry.get("citation_scores")
        parallel = scores if isinstance(scores, list) and len(scores) == len(raw) else None
        seen: set[str] = set()
        keep: list[int] = []
        for position, item in enumerate(raw):
            doc = self._refuse(item, self._doc_id(item, references, f"{where}[{position}]"), f"{where}[{position}]",
                               references, seen)
            if doc is None:
                continue
            seen.add(doc)
            keep.append(position)
        if len(keep) != len(raw):
            entry["citations"] = [raw[i] for i in keep]
            if parallel is not None:
                entry["citation_scores"] = [parallel[i] for i in keep]

    def _doc_id(self, item: Any, references: list[str] | None, where: str) -> str | None:
        """The document a citation names (an index resolved in TREC RAG runs), or ``None`` after saying why not."""
        if self.format in _CONTEXT_REFERENCES and type(item) is int:
            size = len(references or ())
            if 0 <= item < size:
                return references[item]  # type: ignore[index]
            self.change("citation-out-of-range", where, f"dropped citation index {item}: references has {size} "
                        f"{'entry' if size == 1 else 'entries'}")
            return None
        if type(item) is str and item.strip() and id_control_character(item) is None and self.format != "rag24":
            return item
        what = "an index into references" if self.format == "rag24" else "a document id"
        self.change("not-a-citation", where, f"dropped {type_name(item)}, which is not {what}")
        return None

    def _refuse(self, item: Any, doc: str | None, where: str, references: list[str] | None,
                seen: set[str]) -> str | None:
        """``doc`` when the citation stays; else ``None``, the change said (``doc`` ``None``: already said)."""
        if doc is None:
            return None
        if doc in seen:
            self.change("duplicate-citation", where, f"dropped the repeated citation of {doc!r}")
            return None
        if references is not None and doc not in references:
            self.change("citation-not-in-references", where, f"dropped the citation of {doc!r}, which the report's "
                        "references do not list")
            return None
        if self.store is not None and not self._in_collection(doc):
            self.change("missing-document", where, f"dropped the citation of {doc!r}, which is not in the collection "
                        f"({self.store.description})")
            return None
        return doc

    def _drop_uncited(self, obj: dict[str, Any], references: list[str], kept: list[tuple[int, Any]]) -> None:
        cited: set[str] = set()
        for _, entry in kept:
            cites = entry.get("citations") if isinstance(entry, dict) else None
            if isinstance(cites, (list, dict)):
                cited.update(doc for doc in cites if type(doc) is str)
        remaining = []
        for position, doc in enumerate(references):
            if doc in cited:
                remaining.append(doc)
            else:
                self.change("reference-not-cited", f"references[{position}]",
                            f"dropped the reference {doc!r}, which no sentence cites")
        if len(remaining) != len(references):
            obj["references"] = remaining

    # ------------------------------------------------------------------------------------------------- length
    def _fit(self, kept: list[tuple[int, Any]], report: Any, request: Request | None) -> list[tuple[int, Any]]:
        """The sentences that fit the report's limit (see the module docstring), the change said."""
        bound = length_limit(report, request, self.options, self.track)
        if bound is None:
            return kept
        limit, unit, source = bound
        texts = [entry["text"] if isinstance(entry, dict) and isinstance(entry.get("text"), str) else ""
                 for _, entry in kept]
        sizes = [_measure(text, unit) for text in texts]
        total = sum(sizes)
        if total <= limit:
            return kept
        noun = "characters" if unit == "chars" else "words"
        used, stop = 0, len(kept)
        for position, size in enumerate(sizes):
            if used + size > limit:
                stop = position
                break
            used += size
        out = kept[:stop]
        notes = []
        if stop < len(kept):
            cut, how = _cut(texts[stop], limit - used, unit, at_sentence_end=bool(out))
            if cut is not None:
                index, entry = kept[stop]
                entry["text"] = cut
                out.append((index, entry))
                used += _measure(cut, unit)
                notes.append(f"cut {self.key}[{index}] {how}")
                self.result.sentences_cut += 1
        dropped = [index for index, _ in kept[len(out):]]
        if dropped:
            span = f"{self.key}[{dropped[0]}]" if len(dropped) == 1 else f"{self.key}[{dropped[0]}..{dropped[-1]}]"
            notes.insert(0, f"dropped {span} ({_plural(len(dropped), 'sentence')})")
            self.result.sentences_dropped += len(dropped)
        self.change("length", self.key, f"report was {total} {noun}, over the limit of {limit} {noun} ({source}): "
                    f"{' and '.join(notes)}; now {used} {noun}")
        return out


def _measure(text: str, unit: Literal["chars", "words"]) -> int:
    """A sentence's length as ``validate`` counts it (``report_length``): NFKC code points or words."""
    normalized = unicodedata.normalize("NFKC", text)
    return len(normalized.split()) if unit == "words" else len(normalized)


_CJK_END = re.compile(r"[。！？][”」』）)\"']*")
_WORD_END = re.compile(r"\S+")


def _cut(text: str, budget: int, unit: Literal["chars", "words"], at_sentence_end: bool) -> tuple[str | None, str]:
    """The longest start of ``text`` within ``budget`` that ends a sentence (pysbd's sentences, and Chinese or
    Japanese sentence-final marks); with ``at_sentence_end`` false (nothing else of the report is kept) a start
    that ends a word, or in text without spaces a character, when no sentence end fits. ``(None, "")``: nothing
    fits."""
    ends = _sentence_ends(text)
    fitting = [end for end in ends if _measure(text[:end], unit) <= budget]
    if fitting:
        return text[:fitting[-1]].rstrip(), "at a sentence end"
    if at_sentence_end or budget <= 0:
        return None, ""
    words = [match.end() for match in _WORD_END.finditer(text)]
    fitting = [end for end in words if _measure(text[:end], unit) <= budget]
    if unit == "chars" and (len(words) <= 1 or not fitting):  # text without spaces: the characters that fit
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            if _measure(text[:middle], unit) <= budget:
                low = middle
            else:
                high = middle - 1
        fitting = [low] if low else []
    if not fitting:
        return None, ""
    return text[:fitting[-1]].rstrip(), "inside a sentence (no sentence end within the limit)"


def _sentence_ends(text: str) -> list[int]:
    """Offsets in ``text`` just after a sentence ends (its closing quotes included, trailing spaces not)."""
    from .formats.runs import segment_sentences

    ends: set[int] = set()
    position = 0
    for piece in segment_sentences(text):
        start = text.find(piece, position)
        if start < 0:
            break
        position = start + len(piece)
        ends.add(len(text[:position].rstrip()))
    ends.update(match.end() for match in _CJK_END.finditer(text))
    return sorted(end for end in ends if 0 < end < len(text.rstrip()))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def write_changes(changes: Iterable[Change], path: str | os.PathLike[str]) -> int:
    """The changes as a TSV table (``file line field fix message``, one row per change; cells from the run
    guarded against spreadsheet formulas, tabs and line breaks written as spaces), atomically; the row count."""
    from .csvsafe import guard
    from .writing import atomic_writer

    def cell(text: object) -> str:
        return guard(" ".join(str(text).split()))

    count = 0
    with atomic_writer(path) as handle:
        handle.write("file\tline\tfield\tfix\tmessage\n")
        for change in changes:
            handle.write("\t".join(map(cell, (change.path, change.line, change.field, change.fix, change.message))) + "\n")
            count += 1
    return count
