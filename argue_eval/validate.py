"""Check runs against the requests (and a collection) and return every problem, located.

A participant runs this before submitting, an organizer before judging; both need *all* the problems of
a file at once, each as ``FILE:LINE: field: message``, so that a run can be fixed in one pass. One line
at a time the schema is checked by the run format's own parser (``FormatSpec.parse_record``,
which also resolves citation indexes and reports those out of range); this module adds the checks that
need more than one line or more than the run: topics missing, repeated or unknown, length limits, the
RAGTIME references rule, empty sentences, citation counts and score ranges, documents absent from the
collection, and several run ids in one file.

Each check has a name (``CHECKS``) and a default severity; callers may turn an error into a warning or a
warning into an error (``severity={"missing-topic": "warning"}``, CLI ``--warn missing-topic``). Schema
problems and unreadable files keep their severity. Reading streams: a 1 GB run file is never held in
memory, only the per-file sets of (run, request) pairs seen and a membership cache of cited documents.
"""
from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from .errors import InputError, OptionError, Problem, Severity
from .model import LENGTH_UNITS, Report, Request
from .progress import progress

if TYPE_CHECKING:
    from .collection.base import DocumentStore
    from .formats.base import FormatSpec
    from .tracks import TrackPreset

CHECKS: dict[str, tuple[Severity, str]] = {
    "missing-topic": ("error", "a request in the requests file has no report in the run"),
    "duplicate-topic": ("error", "the same run reports twice on one request"),
    "unknown-request": ("error", "a report's request id is not in the requests file"),
    "length": ("error", "a report is longer than its request's limit (or --limit)"),
    "citation-not-in-references": ("error", "a sentence cites a document missing from the report's references"),
    "reference-not-cited": ("error", "a reference is never cited (RAGTIME rule; not for TREC RAG 2024/2025 runs)"),
    "empty-sentence": ("error", "a sentence has no text"),
    "empty-report": ("warning", "a report has no sentences"),
    "too-many-citations": ("error", "a sentence cites more documents than --max-citations-per-sentence"),
    "citation-score-range": ("error", "a citation score is outside --citation-score-range"),
    "missing-document": ("error", "a cited document is not in the collection (--collection)"),
    "several-run-ids": ("warning", "one file holds reports of more than one run id"),
    "duplicate-request": ("error", "the requests file repeats a request id (an error everywhere the kit reads requests; the first is checked against)"),
    "duplicate-run-id": ("error", "two run files use the same run id (each run must have its own)"),
    "official-schema": ("error", "a RAGTIME/TREC RAG field the track's own validator requires is missing or not a string"),
    "track-format": ("error", "with --track: the run file is not in the format the track accepts"),
    "too-many-references": ("error", "with --track: more references than the track allows (TREC RAG 2024: 20, 2025: 100)"),
    "response-length": ("warning", "with --track rag24: response_length differs from the answer's counted words"),
    "collection-not-requested": ("error", "with --track: a report names a collection (collection_ids) its request does not list"),
    "not-json-lines": ("error", "with --lenient: the file is not JSON Lines (read anyway; the tracks refuse it)"),
    "report-language": ("error", "a report not in the language its track requires (RAGTIME, NeuCLIR: English) or --language names"),
}
"""Check name -> (default severity, what it catches). Schema problems come from the format parser."""

# In TREC RAG 2024/2025 runs ``references`` lists the retrieved context the citations index into, so
# references that no sentence cites are expected there; the RAGTIME rule applies to the other formats.
_CONTEXT_REFERENCES = frozenset({"rag24", "rag25"})


def report_length(report: Report, unit: Literal["chars", "words"] = "chars") -> int:
    """The length a limit is checked against: summed over sentences, each NFKC-normalized first.

    ``chars``: the number of Unicode code points of each sentence's text after NFKC normalization (so a
    full-width letter or a ligature counts as what it stands for), summed over sentences with nothing
    added between them, which is ARGUE's ``character_count`` after NFKC. ``words``: the number of
    whitespace-separated tokens of each NFKC-normalized sentence, summed (text without spaces between
    words, e.g. Chinese, counts as one word per run of characters).
    """
    if unit == "words":
        return sum(len(unicodedata.normalize("NFKC", sentence.text).split()) for sentence in report.sentences)
    return sum(len(unicodedata.normalize("NFKC", sentence.text)) for sentence in report.sentences)


@dataclass
class ValidateOptions:
    """What to check beyond the schema, and how severely.

    ``limit``/``unit`` override the requests' length limit and its unit (either alone: a ``unit`` alone
    reinterprets the requests' limits). ``citation_score_range`` is inclusive; ``None`` checks nothing,
    because the RAGTIME run schema only requires scores to be numbers. ``severity`` maps check names
    (``CHECKS``) to ``"error"`` or ``"warning"``.
    """

    limit: int | None = None
    unit: Literal["chars", "words"] | None = None
    max_citations_per_sentence: int | None = None
    citation_score_range: tuple[float, float] | None = None
    severity: dict[str, Severity] = field(default_factory=dict)
    format: str | None = None
    """The run format (``--format``), if detection should not guess."""
    track: str | None = None
    """A track preset (``argue_eval.tracks``: ``rag24``, ``ragtime26``, ...): its format, limits and required fields."""
    language: str | None = None
    """The language (ISO 639-1) every report must be in; ``None``: the track's, if it sets one; ``"any"``: none."""
    language_threshold: float = 0.5
    """The least share of a report's identified characters that must be in ``language``."""

    def __post_init__(self) -> None:
        if self.track is not None:
            from .tracks import get_track

            self.track = get_track(self.track).name
        unknown = sorted(set(self.severity) - set(CHECKS))
        if unknown:
            raise OptionError("--warn/--error", f"unknown check(s) {', '.join(unknown)}; known: {', '.join(CHECKS)}")
        if self.unit is not None and self.unit not in LENGTH_UNITS:
            raise ValueError(f"unit must be one of {', '.join(LENGTH_UNITS)}, not {self.unit!r}")
        if self.citation_score_range is not None:
            low, high = self.citation_score_range
            if not low <= high:
                raise ValueError(f"citation score range is empty: {low} > {high}")
        if not 0.0 < self.language_threshold <= 1.0:
            raise OptionError("--language-threshold", f"must be in (0, 1], not {self.language_threshold:g}")
        if self.language is not None and self.language != "any" and not (
                self.language.isascii() and self.language.isalpha() and 2 <= len(self.language) <= 3):
            raise OptionError("--language", f"expected an ISO 639-1 code such as en (or 'any'), not {self.language!r}")

    def required_language(self) -> str | None:
        """The language reports are checked for: ``--language``, else the track's; ``None`` when unchecked."""
        if self.language is not None:
            return None if self.language == "any" else self.language.lower()
        if self.track is None:
            return None
        from .tracks import get_track

        return get_track(self.track).language


def length_limit(
    report: Report, request: Request | None, options: ValidateOptions, track: TrackPreset | None,
) -> tuple[int, Literal["chars", "words"], str] | None:
    """The limit a report is held to, its unit and where it comes from (``--limit``, ``--track NAME`` or
    ``request 'ID'``), or ``None`` when nothing bounds it: ``--limit`` first, then the request's own limit, then
    the track's (in the track's unit: ``--unit`` without ``--limit`` cannot re-read it). ``validate`` checks
    against it and ``validate --fix`` trims to it, so both hold a report to the same figure."""
    limit = options.limit if options.limit is not None else (request.limit if request else None)
    by_track = limit is None and track is not None and track.limit is not None
    if by_track:
        assert track is not None and track.limit is not None
        limit = track.limit
    if limit is None:
        return None
    unit: Literal["chars", "words"]
    if by_track:
        assert track is not None
        unit = track.unit
    elif options.unit:
        unit = options.unit
    elif request is None and track is not None:
        unit = track.unit
    else:
        unit = request.limit_unit if request else "chars"
    source = ("--limit" if options.limit is not None else f"--track {track.name}" if by_track and track
              else f"request {report.request_id!r}")
    return limit, unit, source


@dataclass
class Validation:
    """Every problem found (sorted by file, then line) and what was checked."""

    problems: list[Problem]
    reports: int
    files: int
    unreadable: list[str] = field(default_factory=list)
    """Run files that could not be read to the end (malformed JSON Lines, unknown format)."""

    @property
    def errors(self) -> int:
        return sum(problem.severity == "error" for problem in self.problems)

    @property
    def warnings(self) -> int:
        return sum(problem.severity == "warning" for problem in self.problems)

    @property
    def exit_code(self) -> int:
        """0 valid (warnings allowed), 1 errors found, 2 a run file could not be read."""
        return 2 if self.unreadable else 1 if self.errors else 0

    def summary(self) -> str:
        """One line: counts of errors, warnings, reports and files."""
        parts = [
            _plural(self.errors, "error"),
            _plural(self.warnings, "warning"),
            f"{_plural(self.reports, 'report')} checked in {_plural(self.files, 'run file')}",
        ]
        text = ", ".join(parts)
        if self.unreadable:
            text += f"; {_plural(len(self.unreadable), 'file')} could not be read to the end"
        return text


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _read_requests(
    path: str | os.PathLike[str], format: str | None, problems: list[Problem] | None,
    severity: dict[str, Severity] | None,
) -> tuple[dict[str, Request], str]:
    """Requests by id, in file order, and the name of the file's request-id field (which located messages need);
    a repeated id keeps the first and adds a ``duplicate-request`` problem."""
    from .formats import read

    spec, requests = read(path, "requests", format)
    id_field = spec.request_id_field
    by_id: dict[str, Request] = {}
    level = (severity or {}).get("duplicate-request", CHECKS["duplicate-request"][0])
    for request in requests:
        first = by_id.get(request.request_id)
        if first is None:
            by_id[request.request_id] = request
        elif problems is not None:
            where = request.source.line if request.source else None
            first_line = first.source.line if first.source else None
            problems.append(Problem(
                str(path), where, id_field,
                f"request id {request.request_id!r} is used again (first on line {first_line}); the runs are checked "
                "against the first",
                level,
            ))
    return by_id, id_field


def validate_run(
    run: str | os.PathLike[str],
    requests: str | os.PathLike[str] | dict[str, Request] | Iterable[Request] | None = None,
    *,
    collection: str | os.PathLike[str] | DocumentStore | None = None,
    options: ValidateOptions | None = None,
    requests_format: str | None = None,
) -> list[Problem]:
    """The problems of one run file, errors and warnings (see :func:`validate_runs` for the arguments)."""
    return validate_runs(
        [run], requests, collection=collection, options=options, requests_format=requests_format
    ).problems


def validate_runs(
    runs: Iterable[str | os.PathLike[str]],
    requests: str | os.PathLike[str] | dict[str, Request] | Iterable[Request] | None = None,
    *,
    collection: str | os.PathLike[str] | DocumentStore | None = None,
    options: ValidateOptions | None = None,
    requests_format: str | None = None,
) -> Validation:
    """Check each run file; return the problems and counts.

    Order: the requests file's own problems, then each run file's (files by name), by line, followed by
    that run's missing topics (located at the run file, naming the requests' lines, in the requests file's
    order); a run id used in two files is an error at the second file.

    ``requests`` is a requests file (any request format), a mapping or an iterable of ``Request``; without
    it the topic checks are skipped and only ``options.limit`` bounds lengths. ``collection`` is anything
    ``open_collection`` accepts, or an open store. An unreadable requests file or collection raises
    ``InputError`` (the CLI exits 2); an unreadable run file is reported as a problem and listed in
    ``Validation.unreadable`` so that the other files are still checked.
    """
    options = options or ValidateOptions()
    if options.format is not None:
        from .formats import get_format

        get_format(options.format, "runs")  # an unknown --format is a usage error, not a per-file problem
    problems: list[Problem] = []
    by_id, request_field = request_map(requests, requests_format, problems, options)
    store, owned = open_store(collection)
    checker = _Checker(options, by_id, request_field, store)
    try:
        by_file = [(str(run), checker.check_file(Path(run), str(run))) for run in runs]
    finally:
        if owned and store is not None:
            store.close()
    first_file: dict[str, str] = {}
    for shown, file_problems in sorted(by_file, key=lambda item: item[0]):  # stable: same-named files keep their order
        for run_id, line in checker.run_ids_by_file.get(shown, {}).items():  # at the run id's first line: first
            if run_id in first_file and first_file[run_id] != shown:
                severity = checker.options.severity.get("duplicate-run-id", CHECKS["duplicate-run-id"][0])
                problems.append(Problem(shown, line, None, f"run id {run_id!r} is also the run id of {first_file[run_id]}; "
                                        "give each run its own id", severity))
            first_file.setdefault(run_id, shown)
        problems.extend(file_problems)
    return Validation(problems, checker.reports, len(by_file), checker.unreadable)


def request_map(
    requests: str | os.PathLike[str] | dict[str, Request] | Iterable[Request] | None,
    requests_format: str | None,
    problems: list[Problem],
    options: ValidateOptions,
) -> tuple[dict[str, Request] | None, str]:
    """Requests by id (``None`` without requests) and the request-id field name of their file."""
    if requests is None:
        return None, "request_id"
    if isinstance(requests, (str, os.PathLike)):
        return _read_requests(requests, requests_format, problems, options.severity)
    if isinstance(requests, dict):
        return requests, "request_id"
    by_id: dict[str, Request] = {}
    for request in requests:
        by_id.setdefault(request.request_id, request)  # the first of a repeated id wins, as in files
    return by_id, "request_id"


def open_store(collection: str | os.PathLike[str] | DocumentStore | None) -> tuple[DocumentStore | None, bool]:
    if collection is None:
        return None, False
    if isinstance(collection, (str, os.PathLike)):
        from .collection import open_collection

        return open_collection(collection), True
    return collection, False


def presence_in(store: DocumentStore | None) -> Callable[[str], bool]:
    """Whether a document id is in ``store``, asked of the store once per id: a run cites the same documents
    again and again, and a Lucene index or an irds collection answers slowly."""
    present: dict[str, bool] = {}

    def in_store(doc_id: str) -> bool:
        found = present.get(doc_id)
        if found is None:
            assert store is not None
            found = present[doc_id] = doc_id in store
        return found

    return in_store


def run_format(path: Path, format: str | None, track: TrackPreset | None) -> FormatSpec:
    """The run file's format: ``format`` if named, else detected; ``InputError`` when neither works.

    With a track, a run too broken to be recognized (its ``topic_id`` stripped, say) is read as the track's
    format, so that every missing field is reported rather than "format not recognized"; an empty file, bad
    JSON or a file of another kind (requests, say) keeps its own error."""
    from .formats import get_format, resolve

    try:
        return resolve(path, "runs", format)
    except InputError as error:
        unrecognized = (error.problem.message.startswith("cannot recognize the file as")
                        and "it looks like a" not in error.problem.message)
        if track is None or format is not None or not path.is_file() or not unrecognized:
            raise
        return get_format(track.run_formats[0], "runs")


class _Checker:
    """Runs the cross-line checks over the reports of one file after another."""

    def __init__(
        self, options: ValidateOptions, requests: dict[str, Request] | None, request_field: str,
        store: DocumentStore | None,
    ):
        self.options = options
        self.requests = requests
        self.request_field = request_field
        self.store = store
        self.problems: list[Problem] = []
        """The problems of the file being checked, in line order (each line is read once, in order)."""
        self.reports = 0
        self.unreadable: list[str] = []
        self._in_collection = presence_in(store)
        self.run_ids_by_file: dict[str, dict[str, int]] = {}  # file -> its run ids and their first lines
        self.track: TrackPreset | None = None
        if options.track is not None:
            from .tracks import get_track

            self.track = get_track(options.track)
        self.language = options.required_language()

    def add(self, check: str, path: str, line: int | None, field_name: str | None, message: str) -> None:
        severity = self.options.severity.get(check, CHECKS[check][0])
        self.problems.append(Problem(path, line, field_name, message, severity))

    def check_file(self, path: Path, shown: str) -> list[Problem]:
        """Every problem of one run file: its lines' in line order, then its missing topics."""

        self.problems = []
        try:
            spec = run_format(path, self.options.format, self.track)
        except InputError as error:
            self.problems.append(_relocated(error, shown))
            self.unreadable.append(shown)
            return self.problems
        # where the format keeps the run id, the request id and the sentence list (for located messages)
        fields = (spec.run_id_field, spec.request_id_field, spec.sentences_field)
        if self.track is not None and spec.name not in self.track.run_formats:
            self.add("track-format", shown, None, None,
                     f"{self.track.title} runs are in the {' or '.join(self.track.run_formats)} format; this file "
                     f"reads as {spec.name} (--format names the format if detection guessed wrong)")
            self.run_ids_by_file[shown] = {}
            return self.problems
        seen: dict[tuple[str, str], int] = {}  # (run id, request id) -> first line
        run_ids: dict[str, int] = {}  # run id -> first line
        complete = True
        for lineno, obj in progress(_lines(path, shown, self), desc=f"validate {path.name}", unit=" lines"):
            if lineno is None:
                complete = False
                break
            self.reports += 1
            start = len(self.problems)
            if self.track is not None:
                self._track_schema(obj, shown, lineno)
            elif spec.name == "ragtime":
                self._official_ragtime_schema(obj, shown, lineno)
            end = len(self.problems)
            report = spec.parse_record(obj, shown, lineno, self.problems)
            if self.track is not None:
                # a field the parser already calls wrong (missing, wrong kind) is reported once, in the parser's words
                parsed = {p.field for p in self.problems[end:] if p.severity == "error"}
                self.problems[start:end] = [p for p in self.problems[start:end] if p.field not in parsed]
            if report is None:
                continue
            self._check_report(report, spec.name, fields, shown, lineno, seen, run_ids)
        self.run_ids_by_file[shown] = run_ids
        if complete and self.requests is not None:
            self._missing_topics(shown, seen, run_ids)
        return self.problems

    def _check_report(
        self, report: Report, format_name: str, fields: tuple[str, str, str], path: str, line: int,
        seen: dict[tuple[str, str], int], run_ids: dict[str, int],
    ) -> None:
        run_field, request_field, sentences_field = fields
        if report.run_id not in run_ids:
            if run_ids:
                first_id, first_line = next(iter(run_ids.items()))
                self.add("several-run-ids", path, line, run_field,
                         f"run id {report.run_id!r} differs from {first_id!r} (line {first_line}); "
                         "a run file normally holds one run")
            run_ids[report.run_id] = line
        key = (report.run_id, report.request_id)
        if key in seen:
            self.add("duplicate-topic", path, line, request_field,
                     f"second report for request {report.request_id!r} in run {report.run_id!r} "
                     f"(first on line {seen[key]})")
        else:
            seen[key] = line
        request = None
        if self.requests is not None:
            request = self.requests.get(report.request_id)
            if request is None:
                self.add("unknown-request", path, line, request_field,
                         f"request id {report.request_id!r} is not in the requests file")
        if request is not None and self.track is not None:
            self._check_collections(report, request, format_name, path, line)
        self._check_length(report, request, path, line, sentences_field)
        if self.language is not None and report.sentences:
            self._check_language(report, path, line, sentences_field)
        if not report.sentences:
            self.add("empty-report", path, line, sentences_field, "the report has no sentences")
        self._check_sentences(report, format_name, path, line, sentences_field)

    def _check_collections(self, report: Report, request: Request, format_name: str, path: str, line: int) -> None:
        """With ``--track``: a report drawn from a collection its request does not list cites documents outside
        the assessed collection (every such citation would be judged non-relevant), and the tracks ask for the
        request's collection. Checked where both name collections; a spelling of the same collection that
        differs (``zho`` for ``neuclir/1/zh``) is reported too, since the track's own tools compare the ids."""
        if not request.collection_ids or not report.collection_ids:
            return
        outside = [name for name in report.collection_ids if name not in request.collection_ids]
        if outside:
            where = "metadata.collection_ids" if format_name == "ragtime" else "collection_ids"
            self.add("collection-not-requested", path, line, where,
                     f"names collection {', '.join(map(repr, outside))}, which request {report.request_id!r} does not "
                     f"list ({', '.join(request.collection_ids)}); its citations would point outside the assessed collection")

    def _check_length(self, report: Report, request: Request | None, path: str, line: int, field_name: str) -> None:
        bound = length_limit(report, request, self.options, self.track)
        if bound is None:
            return
        limit, unit, source = bound
        length = report_length(report, unit)
        if length > limit:
            noun = "characters" if unit == "chars" else "words"
            self.add("length", path, line, field_name,
                     f"report is {length} {noun} long, over the limit of {limit} {noun} ({source}; counted as "
                     f"the sum of the NFKC-normalized sentences' {'lengths' if unit == 'chars' else 'word counts'})")

    def _check_language(self, report: Report, path: str, line: int, key: str) -> None:
        """A report whose identified text is mostly not in the required language (``language.report_language``);
        a report with too few letters to tell is not judged."""
        from .language import language_name, report_language

        assert self.language is not None
        found = report_language([sentence.text for sentence in report.sentences], self.language)
        share = found.share(self.language)
        if not found.judged or share >= self.options.language_threshold:
            return
        wanted = language_name(self.language)
        total = sum(found.characters.values())
        others = [f"{round(100 * count / total)}% in {language_name(code)}"
                  for code, count in found.characters.most_common() if code != self.language][:3]
        stray = [f"{key}[{i}]" for i, code in enumerate(found.sentences) if code is not None and code != self.language]
        where = ", ".join(stray[:5]) + (f" and {len(stray) - 5} more" if len(stray) > 5 else "")
        required = (f"{self.track.title} requires {wanted} reports" if self.track and self.track.language == self.language
                    else f"--language {self.language}")
        self.add("report-language", path, line, key,
                 f"report is not in {wanted}: {', '.join(others)} ({where}), {round(100 * share)}% in {wanted}; "
                 f"{required} (--language-threshold {self.options.language_threshold:g} of the text)")

    def _check_sentences(self, report: Report, format_name: str, path: str, line: int, key: str) -> None:
        references = set(report.references) if report.references is not None else None
        cited: set[str] = set()
        max_citations = self.options.max_citations_per_sentence
        score_range = self.options.citation_score_range
        for index, sentence in enumerate(report.sentences):
            where = f"{key}[{index}]"
            if not sentence.text.strip():
                self.add("empty-sentence", path, line, f"{where}.text", "empty sentence (no text)")
            if max_citations is not None and len(sentence.citations) > max_citations:
                self.add("too-many-citations", path, line, f"{where}.citations",
                         f"{_plural(len(sentence.citations), 'citation')}, more than the maximum of {max_citations} per sentence")
            if score_range is not None and sentence.citation_scores is not None:
                low, high = score_range
                for doc_id, score in zip(sentence.citations, sentence.citation_scores):
                    if not low <= score <= high:
                        self.add("citation-score-range", path, line, f"{where}.citations",
                                 f"citation score {score!r} for {doc_id!r} is outside the expected range "
                                 f"[{low:g}, {high:g}]")
            for doc_id in sentence.citations:
                cited.add(doc_id)
                if references is not None and doc_id not in references:
                    self.add("citation-not-in-references", path, line, f"{where}.citations",
                             f"cites {doc_id!r}, which is not in the report's references")
                if self.store is not None and not self._in_collection(doc_id):
                    self.add("missing-document", path, line, f"{where}.citations",
                             f"cited document {doc_id!r} is not in the collection ({self.store.description})")
        if report.references is not None and format_name not in _CONTEXT_REFERENCES:
            for index, doc_id in enumerate(report.references):
                if doc_id not in cited:
                    self.add("reference-not-cited", path, line, f"references[{index}]",
                             f"reference {doc_id!r} is never cited by a sentence")

    def _official_ragtime_schema(self, obj: dict, path: str, line: int) -> None:
        """What the RAGTIME / TREC RAG validators require beyond what we need to read the run: string
        ``metadata.team_id``, ``metadata.run_id`` and ``metadata.topic_id``, a ``references`` list, and every
        response with a ``citations`` field (our reader tolerates their absence; a missing ``text`` is already
        a schema error of the reader)."""
        meta = obj.get("metadata")
        if isinstance(meta, dict):
            for key in ("team_id", "run_id", "topic_id"):
                if key not in meta:
                    self.add("official-schema", path, line, f"metadata.{key}", f"missing required field {key!r} (a string)")
                elif type(meta[key]) is not str:
                    self.add("official-schema", path, line, f"metadata.{key}",
                             f"expected a string, found {type(meta[key]).__name__} (the track's validator requires strings)")
        if "references" not in obj:
            self.add("official-schema", path, line, "references", "missing required field 'references' (a list of document ids)")
        responses = obj.get("responses")
        if isinstance(responses, list):
            for index, response in enumerate(responses):
                if not isinstance(response, dict):
                    continue
                if "citations" not in response:
                    self.add("official-schema", path, line, f"responses[{index}].citations",
                             "missing required field 'citations' (a list, possibly empty)")

    def _track_schema(self, obj: dict, path: str, line: int) -> None:
        """The preset's required fields and kinds, the response entries' fields, the references cap and (TREC RAG
        2024) the stated ``response_length``: what the track's own validator would refuse."""
        assert self.track is not None
        kinds = {"str": (str,), "list": (list,), "int": (int,)}
        for dotted, kind in self.track.required:
            value: object = obj
            for part in dotted.split("."):
                value = value.get(part, _ABSENT) if isinstance(value, dict) else _ABSENT
            if value is _ABSENT:
                self.add("official-schema", path, line, dotted, f"missing required field {dotted.rsplit('.', 1)[-1]!r} "
                         f"(a {_KIND_NAMES[kind]}; {self.track.title})")
            elif type(value) not in kinds[kind]:
                self.add("official-schema", path, line, dotted,
                         f"expected a {_KIND_NAMES[kind]}, found {type(value).__name__} ({self.track.title}'s validator)")
        key = "responses" if "ragtime" in self.track.name else "sentences" if self.track.name == "neuclir24" else "answer"
        entries = obj.get(key)
        if isinstance(entries, list):
            for index, entry in enumerate(entries):
                if isinstance(entry, dict):
                    for name in self.track.response_required:
                        if name not in entry:
                            self.add("official-schema", path, line, f"{key}[{index}].{name}",
                                     f"missing required field {name!r} ({self.track.title})")
        references = obj.get("references")
        cap = self.track.max_references
        if cap is not None and isinstance(references, list) and len(references) > cap:
            self.add("too-many-references", path, line, "references",
                     f"{len(references)} references, more than the {cap} {self.track.title} allows")
        stated = obj.get("response_length")
        if self.track.check_response_length and type(stated) is int and isinstance(entries, list):
            counted = sum(len(unicodedata.normalize("NFKC", e["text"]).split()) for e in entries
                          if isinstance(e, dict) and isinstance(e.get("text"), str))
            if stated != counted:
                self.add("response-length", path, line, "response_length",
                         f"states {stated} words, but the answer's texts have {counted} (whitespace-separated)")

    def _missing_topics(self, path: str, seen: dict[tuple[str, str], int], run_ids: dict[str, int]) -> None:
        """A report absent from the run is the run's fault, so the problem is located at the run file (it has no
        line there) and names the request's own line in the requests file, where there is one."""
        assert self.requests is not None
        if not run_ids:
            return  # no usable report: every line already has its schema error
        for run_id in run_ids:
            covered = {request_id for seen_run, request_id in seen if seen_run == run_id}
            for request_id, request in self.requests.items():
                if request_id in covered:
                    continue
                source = request.source
                where = f" ({source.path}:{source.line})" if source is not None and source.line is not None else ""
                self.add("missing-topic", path, None, None, f"run {run_id!r} has no report for request {request_id!r}{where}")


_ABSENT = object()
_KIND_NAMES = {"str": "string", "list": "list", "int": "whole number"}


def _lines(path: Path, shown: str, checker: _Checker) -> Iterator[tuple[int | None, dict]]:
    """``(line, object)`` pairs; on malformed JSON Lines, record the located problem and yield ``(None, {})``."""
    from .reading import iter_jsonl

    def repaired(repair: str) -> None:
        checker.add("not-json-lines", shown, None, None, f"not JSON Lines ({repair}); read with --lenient, but the "
                    "tracks' validators refuse it: write one JSON object per line")

    try:
        yield from iter_jsonl(path, on_repair=repaired)
    except InputError as error:
        checker.problems.append(_relocated(error, shown))
        checker.unreadable.append(shown)
        yield None, {}


def _relocated(error: InputError, shown: str) -> Problem:
    """The error's problem, naming the file as the user wrote it (readers may have normalized the path)."""
    problem = error.problem
    return Problem(shown, problem.line, problem.field, problem.message, "error")
