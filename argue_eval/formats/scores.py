"""Per-topic score tables: our long TSV (``run_id request_id metric value``), the common currency between
``score``/``retrieval`` (which write it) and ``compare``/``agree`` (which read it).

One row per run x topic x measure plus ``all`` rows for aggregates, trec_eval style, so any downstream
script can ``cut``/``awk``/pandas it. Values are printed in full precision (Python's shortest round-trip
``repr``) so that a reread table equals the computed one exactly and reruns are byte-identical.

``read_scores`` reads that TSV and the two other per-topic shapes in common use (trec_eval ``-q`` output and
``run topic measure value`` tables), detected from the content, so ``compare``/``agree`` take any of them.

A score table has two layouts (``SCORE_TABLE_LAYOUTS``, ``score --table-format``): ours, and Auto-ARGUE's
``*.scores.tsv`` (``autoargue_rows``), whose rows are that file format's, spelled out here as it writes them.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from os import PathLike
from pathlib import Path

from ..errors import ArgueError, InputError, OptionError, control_character
from ..model import ALL_TOPICS, ScoreRecord
from ..reading import iter_lines, open_binary
from ..writing import atomic_writer

SCORE_COLUMNS = ("run_id", "request_id", "metric", "value")

SCORE_TABLE_LAYOUTS: tuple[str, ...] = ("argue", "autoargue")
"""``argue``: our table (every measure, ``*_undefined`` flags, ``all`` rows last, counts as integers).
``autoargue``: exactly the rows and layout of an Auto-ARGUE ``*.scores.tsv`` (see ``autoargue_rows``)."""

AUTOARGUE_TOPIC_MEASURES: tuple[str, ...] = (
    "sentences",
    "character_count",
    "sentences_with_citations_or_requiring_citations",
    "correctly_cited_sentences",
    "nuggets",
    "nuggets_weighted",
    "correct_nuggets",
    "correct_nuggets_weighted",
    "citations",
    "relevant_citations",
    "supporting_citations",
    "citation_relevance",
    "citation_support",
    "sentence_support",
    "nugget_coverage",
    "nugget_coverage_weighted",
    "f1",
    "f1_weighted",
)
"""The per-topic rows of an Auto-ARGUE score file, in its order."""

AUTOARGUE_ALL_MEASURES: tuple[str, ...] = (
    "sentences",
    "sentences_with_citations_or_requiring_citations",
    "correctly_cited_sentences",
    "nuggets",
    "nuggets_weighted",
    "correct_nuggets",
    "correct_nuggets_weighted",
    "citations",
    "relevant_citations",
    "supporting_citations",
    "character_count_median",
    "character_count_max",
    "citation_relevance_micro",
    "citation_relevance_macro",
    "citation_support_micro",
    "citation_support_macro",
    "sentence_support_micro",
    "sentence_support_macro",
    "nugget_coverage_micro",
    "nugget_coverage_macro",
    "nugget_coverage_weighted_micro",
    "nugget_coverage_weighted_macro",
    "f1_micro",
    "f1_macro",
    "f1_weighted_micro",
    "f1_weighted_macro",
)
"""The ``all`` rows of an Auto-ARGUE score file, in its order."""


def format_value(value: float | int) -> str:
    """Full-precision text for a score: integers as integers, floats by shortest round-trip repr."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        raise ValueError("NaN in a score table; record undefined values explicitly instead")
    if value.is_integer() and abs(value) < 2**53:
        return repr(value)
    return repr(float(value))


def _cell(name: str, text: str) -> str:
    """An id as a TSV cell. Run and topic ids come from participants' files: a tab or line break in one would
    shift columns or forge rows of the table, so it is refused rather than written."""
    if "\t" in text or "\n" in text or "\r" in text:
        raise ArgueError(f"{name} {text!r} contains a tab or line break, which a TSV score table cannot hold; "
                         "fix the id in the input file")
    return text


def score_lines(rows: Iterable[tuple[str, str, str, float | int]]) -> Iterator[str]:
    """The lines of a score table: the standard header, then one line per ``(run_id, request_id, metric, value)``."""
    yield "\t".join(SCORE_COLUMNS) + "\n"
    for run_id, request_id, metric, value in rows:
        yield f"{_cell('run id', run_id)}\t{_cell('topic id', request_id)}\t{_cell('metric', metric)}\t{format_value(value)}\n"


def write_scores_tsv(rows: Iterable[tuple[str, str, str, float | int]], path: str | PathLike[str]) -> int:
    """Atomically write ``(run_id, request_id, metric, value)`` rows under the standard header, in the order given;
    return the number of rows."""
    count = -1  # the header is not a row
    with atomic_writer(path) as handle:
        for line in score_lines(rows):
            handle.write(line)
            count += 1
    return count


# ---------------------------------------------------------------------------------------------------------
# Reading score tables. Three shapes are common in IR evaluation, and a participant may hold any of them:
#   argue       our long TSV above (tab separated, header ``run_id request_id metric value``);
#   trec_eval   ``trec_eval -q`` output, ``measure<ws>topic<ws>value``, one run per file, the run named by its
#               ``runid`` line (or, without one, by the file name);
#   ir_measures ``run topic measure value``, whitespace separated, with or without a header line (what
#               ir_measures-style scripts and many papers' per-topic dumps look like).
# The readers only parse; ``argue_eval.stats.matrix`` turns records into a systems x topics matrix.

SCORE_FORMATS: tuple[str, ...] = ("argue", "trec_eval", "ir_measures")
_SCORE_FORMAT_ALIASES = {
    "argue": "argue", "tsv": "argue", "long": "argue",
    "trec_eval": "trec_eval", "trec-eval": "trec_eval", "treceval": "trec_eval",
    "ir_measures": "ir_measures", "ir-measures": "ir_measures", "run-topic-measure": "ir_measures",
}
_RUN_HEADERS = {"run_id", "run", "runid", "system", "system_id", "tag"}
_TOPIC_HEADERS = {"request_id", "topic", "topic_id", "query_id", "qid", "query", "q_id"}
_MEASURE_HEADERS = {"metric", "measure", "measure_name"}
_VALUE_HEADERS = {"value", "score"}
# trec_eval prints a few summary lines whose value is not a number.
_TREC_EVAL_TEXT_MEASURES = {"runid", "relstring"}


def normalize_score_format(name: str) -> str:
    """The canonical name of a score-table format (``argue``, ``trec_eval``, ``ir_measures``) or an ``InputError``."""
    key = name.strip().lower()
    if key not in _SCORE_FORMAT_ALIASES:
        raise OptionError("--scores-format", f"unknown score format {name!r}; known: {', '.join(SCORE_FORMATS)}")
    return _SCORE_FORMAT_ALIASES[key]


def _content_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` for non-blank, non-comment lines; BOM dropped; bad UTF-8 is a located error."""
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(path, lineno, None, f"not valid UTF-8 (byte {error.start})") from None
            text = text.rstrip("\r\n")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            bad = control_character(text)
            if bad is not None:
                raise InputError(path, lineno, None, f"control character {bad} in the line; run ids, topics and "
                                 "measure names must be printable text")
            yield lineno, text


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _is_header(tokens: list[str]) -> bool:
    """True for a 4-column header line such as ``run_id request_id metric value`` or ``run topic measure score``."""
    lowered = [token.lower() for token in tokens]
    return (
        len(lowered) == 4
        and lowered[0] in _RUN_HEADERS
        and lowered[1] in _TOPIC_HEADERS
        and lowered[2] in _MEASURE_HEADERS
        and lowered[3] in _VALUE_HEADERS
    )


def detect_score_format(path: str | PathLike[str]) -> str:
    """Recognize a score table from its first line: our TSV header, 4 columns (ir_measures) or 3 (trec_eval).

    Detection reads the content, never the file name, so a renamed file is still read correctly.
    """
    path = Path(path)
    for lineno, text in _content_lines(path):
        if text.split("\t") == list(SCORE_COLUMNS):
            return "argue"
        tokens = text.split()
        if len(tokens) == 4 and (_is_header(tokens) or _is_number(tokens[3])):
            return "ir_measures"
        if len(tokens) == 3 and (tokens[0] in _TREC_EVAL_TEXT_MEASURES or _is_number(tokens[2])):
            return "trec_eval"
        raise InputError(
            path, lineno, None,
            f"cannot recognize a score table from this line ({len(tokens)} columns): expected our TSV header "
            f"'{chr(9).join(SCORE_COLUMNS)}', 'run topic measure value' (4 columns) or trec_eval -q "
            "'measure topic value' (3 columns); name the format with --scores-format",
        )
    raise InputError(path, None, None, "file is empty; expected a score table")


def _parse_value(path: Path, lineno: int, field: str, token: str) -> float:
    """A score as float; ``nan`` is kept (the matrix builder reports it as missing), other non-numbers are errors."""
    try:
        value = float(token)
    except ValueError:
        raise InputError(path, lineno, field, f"expected a number, got {token!r}") from None
    if math.isinf(value):
        raise InputError(path, lineno, field, f"expected a finite number, got {token!r}")
    return value


def _read_argue(path: Path) -> Iterator[ScoreRecord]:
    lines = _content_lines(path)
    for lineno, text in lines:
        if text.split("\t") != list(SCORE_COLUMNS):
            raise InputError(path, lineno, None, f"expected the header '{chr(9).join(SCORE_COLUMNS)}' (tab separated)")
        break
    for lineno, text in lines:
        cells = text.split("\t")
        if len(cells) != 4:
            raise InputError(path, lineno, None, f"expected 4 tab-separated columns ({', '.join(SCORE_COLUMNS)}), got {len(cells)}")
        run_id, request_id, metric, value = cells
        for name, cell in zip(SCORE_COLUMNS[:3], (run_id, request_id, metric)):
            if not cell.strip():
                raise InputError(path, lineno, name, "empty")
        yield ScoreRecord(run_id, request_id, metric, _parse_value(path, lineno, "value", value), str(path), lineno)


def _read_ir_measures(path: Path) -> Iterator[ScoreRecord]:
    first = True
    for lineno, text in _content_lines(path):
        tokens = text.split()
        if first and _is_header(tokens):
            first = False
            continue
        first = False
        if len(tokens) != 4:
            raise InputError(path, lineno, None, f"expected 4 whitespace-separated columns (run topic measure value), got {len(tokens)}")
        run_id, request_id, metric, value = tokens
        yield ScoreRecord(run_id, request_id, metric, _parse_value(path, lineno, "value", value), str(path), lineno)


def _read_trec_eval(path: Path) -> Iterator[ScoreRecord]:
    """trec_eval -q output. The ``runid`` line comes after the per-topic lines, so the file is read in full first."""
    rows: list[tuple[int, str, str, float]] = []
    run_id: str | None = None
    run_line = 0
    for lineno, text in _content_lines(path):
        tokens = text.split()
        if len(tokens) != 3:
            raise InputError(path, lineno, None, f"expected 3 whitespace-separated columns (measure topic value), got {len(tokens)}")
        measure, topic, value = tokens
        if measure == "runid":
            if run_id is not None and value != run_id:
                raise InputError(path, lineno, "runid", f"a second run {value!r} (first {run_id!r} at line {run_line}); "
                                 "give each run's trec_eval output its own file")
            run_id, run_line = value, lineno
            continue
        if measure in _TREC_EVAL_TEXT_MEASURES:
            continue
        rows.append((lineno, measure, topic, _parse_value(path, lineno, "value", value)))
    name = run_id if run_id is not None else _run_name_from_path(path)
    for lineno, measure, topic, number in rows:
        yield ScoreRecord(name, topic, measure, number, str(path), lineno)


def _run_name_from_path(path: Path) -> str:
    """A run name for trec_eval output without a ``runid`` line: the file name without score-ish suffixes."""
    name = path.name
    for suffix in (".gz", ".txt", ".tsv", ".eval", ".trec_eval", ".scores", ".q"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return name


_READERS = {"argue": _read_argue, "trec_eval": _read_trec_eval, "ir_measures": _read_ir_measures}


def read_scores(path: str | PathLike[str], format: str | None = None) -> Iterator[ScoreRecord]:
    """Records of one score table, its format detected from its content unless ``format`` names it."""
    path = Path(path)
    name = normalize_score_format(format) if format else detect_score_format(path)
    return _READERS[name](path)


def autoargue_rows(
    rows: Sequence[tuple[str, str, str, float]], all_id: str = ALL_TOPICS
) -> list[tuple[str, str, str, float]]:
    """Our ``(run_id, request_id, metric, value)`` rows of ARGUE re-laid out as Auto-ARGUE writes its score files.

    Per run: the ``all`` rows first (``AUTOARGUE_ALL_MEASURES``), then each topic in the order given with
    ``AUTOARGUE_TOPIC_MEASURES``; every value a float (printed ``263.0``). Our additions (``argue_precision``,
    ``first_instance_sentences_missing_citation``, ``outcome_*``, ``*_undefined``, ``topics``,
    ``missing_topics``, ``missing_judgments``, ``skipped_reports``) are left out. The values are unchanged.
    """
    by_run: dict[str, dict[str, dict[str, float]]] = {}
    for run_id, request_id, metric, value in rows:
        by_run.setdefault(run_id, {}).setdefault(request_id, {})[metric] = value
    out: list[tuple[str, str, str, float]] = []
    for run_id, topics in by_run.items():
        aggregate = topics.get(all_id, {})
        out.extend((run_id, all_id, name, float(aggregate[name]))
                   for name in AUTOARGUE_ALL_MEASURES if name in aggregate)
        for request_id, values in topics.items():
            if request_id == all_id:
                continue
            out.extend((run_id, request_id, name, float(values[name])) for name in AUTOARGUE_TOPIC_MEASURES)
    return out
