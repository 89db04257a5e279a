"""TREC 6-column ranked runs (``qid Q0 docno rank score tag``), format ``trec-run``.

Ranked runs feed pooling and the retrieval measures. Like trec_eval we split on any whitespace, ignore the
second column, and keep the rank column only as given: the order that counts is score descending, then
docno descending (trec_eval's tie order), which ``trec_order`` makes explicit. This module also holds the
line handling shared with the qrels reader (``formats/qrels.py``), since both are the same kind of file.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ArgueError, InputError, control_character
from ..model import RankedRow
from ..reading import BOM, iter_lines, open_binary, read_capped
from ..writing import atomic_writer
from .base import FormatSpec, Probe

if TYPE_CHECKING:
    import numpy as np

RANKED_LAYOUT = "qid Q0 docno rank score tag"


# --- line handling shared with formats/qrels.py --------------------------------------------------------


def iter_fields(path: str | PathLike[str], columns: int, layout: str) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for every non-blank line; each line must have exactly ``columns`` fields.

    ``layout`` (e.g. ``"qid Q0 docno rank score tag"``) is quoted in the error so the user sees the
    expected shape next to what was found.
    """
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if lineno == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(path, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line") from None
            fields = line.split()
            if not fields:
                continue
            bad = control_character(line)
            if bad is not None:
                raise InputError(path, lineno, None, f"control character {bad} in the line; ids must be printable text")
            if len(fields) != columns:
                raise column_error(path, lineno, line, len(fields), columns, layout)
            yield lineno, fields


def column_error(path: str | PathLike[str], lineno: int, line: str, found: int, columns: int, layout: str) -> InputError:
    """The error for a line with the wrong number of columns (with a hint when the file is JSON)."""
    hint = " (the file looks like JSON, not a TREC file)" if line.lstrip().startswith(("{", "[")) else ""
    return InputError(
        path, lineno, None, f"expected {columns} whitespace-separated columns `{layout}`, found {found}{hint}"
    )


def parse_int(path: str | PathLike[str], lineno: int, field: str, text: str) -> int:
    """An integer column, with a located error naming the column and the text found."""
    try:
        return int(text)
    except ValueError:
        raise InputError(path, lineno, field, f"expected an integer, found {text!r}") from None


def parse_score(path: str | PathLike[str], lineno: int, field: str, text: str) -> float:
    """A finite float column (trec_eval reads scores with ``atof``; NaN would leave the ranking undefined)."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(path, lineno, field, f"expected a number, found {text!r}") from None
    if not math.isfinite(value):
        raise InputError(path, lineno, field, f"expected a finite number, found {text!r}")
    return value


_WHITESPACE = re.compile(r"\s")


def check_token(value: str, what: str, path: str | PathLike[str]) -> str:
    """Refuse to write an id that would split into two columns (TREC files are whitespace-separated)."""
    if not isinstance(value, str) or not value or _WHITESPACE.search(value):
        raise ArgueError(f"{path}: cannot write {what} {value!r}: TREC files need non-empty ids without whitespace")
    return value


def sniff_columns(first_line: str | None, columns: int) -> list[str] | None:
    """The first line's fields when it has ``columns`` of them and does not look like JSON, else ``None``."""
    if first_line is None or first_line.lstrip().startswith(("{", "[")):
        return None
    fields = first_line.split()
    return fields if len(fields) == columns else None


def is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def is_float(text: str) -> bool:
    """Whether ``text`` parses as a float, NaN and infinity included: detection should recognize a run
    whose first score is ``nan`` so that the reader can say what is wrong with it."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def format_score(value: float) -> str:
    """Shortest round-trip text of a score, so a written run rereads to exactly the same floats."""
    value = float(value)
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


# --- ranked runs -----------------------------------------------------------------------------------------


def read_trec_run(path: Path) -> Iterator[RankedRow]:
    """Stream the rows of a ranked run in file order (no sorting: see ``trec_order``)."""
    for lineno, (qid, _q0, docno, rank, score, tag) in iter_fields(path, 6, RANKED_LAYOUT):
        yield RankedRow(
            qid, docno, parse_int(path, lineno, "rank", rank), parse_score(path, lineno, "score", score), tag
        )


def write_trec_run(rows: Iterable[RankedRow], path: Path) -> int:
    """Write rows as given (callers order them); ``Q0`` in the second column, scores in full precision."""
    lines = [
        f"{row.request_id} Q0 {row.doc_id} {int(row.rank)} {format_score(row.score)} {row.run_id}\n" for row in rows
    ]
    text = check_lines(lines, 6, path, ("query id", "Q0", "document id", None, None, "run tag"))
    with atomic_writer(path) as handle:
        handle.write(text)
    return len(lines)


def check_lines(lines: list[str], columns: int, path: str | PathLike[str], what: tuple[str | None, ...]) -> str:
    """Make sure lines about to be written read back as ``columns`` fields (no id empty or with whitespace)
    and return them joined.

    The lines are built as ``columns`` fields joined by single spaces plus ``\\n``, so the template alone
    gives every line ``columns - 1`` spaces and one newline: the whole text passes when its totals match
    that and it has no other whitespace and no empty field. That is a handful of C-level scans; the slow
    search for the culprit runs only on failure."""
    text = "".join(lines)
    n = len(lines)
    if (
        text.count(" ") == (columns - 1) * n
        and text.count("\n") == n
        and "\t" not in text
        and "\r" not in text
        and not has_other_whitespace(text)
        and "  " not in text
        and " \n" not in text
        and "\n " not in text
        and not text.startswith(" ")
    ):
        return text
    for line in lines:
        if len(line.split()) == columns and line.count(" ") == columns - 1 and line.count("\n") == 1 and "\r" not in line:
            continue
        parts = line[:-1].split(" ")
        if len(parts) == columns:
            for part, label in zip(parts, what):
                if label is not None:
                    check_token(part, label, path)
        raise ArgueError(f"{path}: cannot write {line.rstrip()!r}: TREC files need non-empty ids without whitespace")
    raise ArgueError(f"{path}: cannot write these lines: TREC files need non-empty ids without whitespace")


def _sniff_trec_run(probe: Probe) -> bool:
    fields = sniff_columns(probe.first_line, 6)
    return fields is not None and is_int(fields[3]) and is_float(fields[4])


@dataclass(frozen=True)
class RankedColumns:
    """A ranked run as columns (numpy arrays, file order): what vectorized code (pooling) wants."""

    request_id: Any
    doc_id: Any
    score: Any
    run_id: Any
    """The tag column: the run's name."""

    def __len__(self) -> int:
        return len(self.request_id)


_COLUMN_NAMES = ["qid", "q0", "docno", "rank", "score", "tag"]
_TEXT_COLUMNS = {"qid": object, "q0": object, "docno": object, "tag": object}

_ASCII_OTHER_WHITESPACE = "\x0b\x0c\x1c\x1d\x1e\x1f"
OTHER_WHITESPACE = (
    _ASCII_OTHER_WHITESPACE + "\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
"""Every character ``str.split()`` splits on besides space, tab, CR and LF (a test checks the list).

pandas' whitespace separator knows only spaces and tabs, and a lone CR ends a line for it; our line reader
splits lines on LF and fields with ``str.split()``. A file holding any of these characters is left to
the line reader, so both readers always agree on where fields and lines end."""


_ASCII_ALLOWED = bytes(b for b in range(128) if b >= 0x20 and b != 0x7F) + b"\t\n\r"
"""The ASCII bytes a well-formed run may hold; ``data.translate(None, _ASCII_ALLOWED)`` keeps only the others."""


def has_other_whitespace(text: str) -> bool:
    """True when ``text`` holds whitespace other than space, tab and LF, or a CR that does not end a line."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return True
    return any(char in text for char in (_ASCII_OTHER_WHITESPACE if text.isascii() else OTHER_WHITESPACE))


def _exact_float_option() -> dict[str, str]:
    """The ``read_csv`` option that makes pandas parse a float exactly as Python's ``float()`` does.

    Before pandas 3.1 the C parser's default converter may differ from ``float()`` in the last bit for
    long inputs, and ``float_precision="round_trip"`` calls Python's own conversion; from 3.1 on, every
    mode uses one correctly rounded converter (so it equals ``float()``) and the option is deprecated."""
    import pandas as pd

    version = tuple(int(part) for part in re.findall(r"\d+", pd.__version__)[:2])
    return {} if version >= (3, 1) else {"float_precision": "round_trip"}


def read_ranked_columns(path: str | PathLike[str]) -> RankedColumns:
    """Read a ranked run into columns, in one vectorized pass with pandas' C parser.

    Ids stay strings; ranks and scores are parsed in C (exactly as ``int()`` and ``float()`` parse them,
    see ``_exact_float_option``), with no Python object per number. Anything the line reader would read
    differently or refuse (a missing or extra column, a bad or non-finite number, a rank that is not an
    integer, unusual whitespace, invalid UTF-8, an empty file) is handed to ``read_trec_run``, which
    raises the located error, so the result always equals what ``read_trec_run`` reads.
    """
    import numpy as np

    columns = _parse_columns(path)
    if columns is not None:
        return columns
    rows = list(read_trec_run(Path(path)))
    return RankedColumns(
        np.array([row.request_id for row in rows], dtype=object),
        np.array([row.doc_id for row in rows], dtype=object),
        np.array([row.score for row in rows], dtype=np.float64),
        np.array([row.run_id for row in rows], dtype=object),
    )


def _parse_columns(path: str | PathLike[str]) -> RankedColumns | None:
    """The columns of a well-formed run via pandas, or ``None`` when the careful reader must decide."""
    import csv
    import io

    import numpy as np
    import pandas as pd

    with open_binary(path) as handle:
        data = read_capped(handle, path)
    try:
        if data.isascii():  # the usual run: the byte checks below, in C, instead of a regex over the text
            if data.translate(None, _ASCII_ALLOWED):  # a control byte (tab, CR, LF excepted) or DEL
                return None
            if b"\r" in data and data.count(b"\r") != data.count(b"\r\n") or b"\x0b" in data or b"\x0c" in data:
                return None
        else:
            text = data.decode("utf-8-sig")
            if has_other_whitespace(text) or control_character(text) is not None:
                return None
        # One space between columns, no tab, no space at a line's ends (what every run writer writes): a
        # single-character separator, which pandas' C tokenizer splits about twice as fast as whitespace runs.
        single = not (b"\t" in data or b"  " in data or b" \n" in data or b"\n " in data or data.startswith(b" ")
                      or b" \r" in data)
        frame = pd.read_csv(
            io.BytesIO(data), sep=" " if single else r"\s+", header=None, names=_COLUMN_NAMES, dtype=_TEXT_COLUMNS,
            na_filter=False, quoting=csv.QUOTE_NONE, engine="c", encoding="utf-8-sig", low_memory=False,
            **_exact_float_option(),
        )
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return None
    # Extra columns on every line become an index; a short line leaves the tag empty; a rank or score
    # pandas could not read as a number leaves its column non-numeric (bool would be "True").
    if not isinstance(frame.index, pd.RangeIndex) or not len(frame):
        return None
    if frame["rank"].dtype.kind not in "iu" or frame["score"].dtype.kind not in "if":
        return None
    scores = frame["score"].to_numpy(dtype=np.float64)
    tag = frame["tag"].to_numpy()
    if not np.isfinite(scores).all() or (tag == "").any():
        return None
    return RankedColumns(frame["qid"].to_numpy(), frame["docno"].to_numpy(), scores, tag)


def trec_order(ranking: Iterable[tuple[str, float]]) -> list[tuple[str, float]]:
    """Sort ``(docno, score)`` pairs the way trec_eval ranks them: score descending, then docno descending.

    trec_eval ignores the rank column; its tie order is lexicographic descending docno. Making that order
    explicit before anything else sees the run (ranx, pooling) keeps every tool agreeing on the ranking.
    """
    return sorted(ranking, key=lambda pair: (pair[1], pair[0]), reverse=True)


FORMATS: list[FormatSpec] = [
    FormatSpec(
        name="trec-run",
        kind="ranked",
        description="TREC ranked run: `qid Q0 docno rank score tag`, whitespace-separated",
        sniff=_sniff_trec_run,
        read=read_trec_run,
        write=write_trec_run,
        aliases=("trec-ranked",),
    )
]


# --- whole runs: each run's documents per topic, for pooling and the retrieval measures -----------------

Repeats = Literal["first", "error"]
"""What a document listed twice for a topic of a ranked run means: keep its first place, or an error."""


@dataclass
class Rankings:
    """One run's ranked documents per topic (no repeats), and where the run came from."""

    name: str
    topics: dict[str, list[str]]
    source: str = ""

    def top(self, topic: str, depth: int | None) -> list[str]:
        docs = self.topics.get(topic, [])
        return docs if depth is None else docs[:depth]


def rankings_from_ranked(path: str | PathLike[str], repeats: Repeats = "first") -> list[Rankings]:
    """One :class:`Rankings` per run tag in a TREC ranked run, in trec_eval order (see ``order_ranked_files``).

    A document listed twice for a topic keeps its better place with ``repeats="first"`` (trec_eval would
    refuse the file; a pool only needs to know the document was retrieved) and is an error with
    ``repeats="error"`` (what retrieval measures need).
    """
    if _small_plain_file(path):
        return _rankings_line_by_line(path, repeats)
    return order_ranked_files([path], repeats=repeats).rankings()


SMALL_RUN_BYTES = 1 << 20
"""Below this size a ranked run is read line by line in Python: importing pandas (for the vectorized reader)
costs more than the whole file, and a one-file ``retrieval`` call should start as fast as trec_eval's."""


def _small_plain_file(path: str | PathLike[str]) -> bool:
    import os

    try:
        return not str(path).endswith(".gz") and os.path.getsize(path) < SMALL_RUN_BYTES
    except OSError:
        return False  # the regular reader names the problem


def _rankings_line_by_line(path: str | PathLike[str], repeats: Repeats) -> list[Rankings]:
    """What ``order_ranked_files([path], repeats=repeats).rankings()`` returns, without numpy or pandas:
    runs by tag (sorted), topics in code-point order, documents in trec_eval order."""
    grouped: dict[str, dict[str, list[tuple[str, float]]]] = {}
    for row in read_trec_run(Path(path)):
        grouped.setdefault(row.run_id, {}).setdefault(row.request_id, []).append((row.doc_id, row.score))
    result = []
    for tag in sorted(grouped):
        topics: dict[str, list[str]] = {}
        for topic in sorted(grouped[tag]):
            docs = [doc for doc, _ in trec_order(grouped[tag][topic])]
            unique = list(dict.fromkeys(docs))
            if len(unique) != len(docs):
                if repeats == "error":
                    twice = _first_repeat(docs)
                    raise InputError(
                        path, None, None,
                        f"run {tag!r}, topic {topic!r}: document {twice!r} is ranked twice (trec_eval refuses duplicate "
                        "documents; keep one line per document)",
                    )
                docs = unique
            topics[topic] = docs
        result.append(Rankings(tag, topics, str(path)))
    return result


def rankings_from_reports(path: str | PathLike[str], format: str | None = None) -> list[Rankings]:
    """One :class:`Rankings` per run id in a report run: each report's cited documents in order of first citation."""
    from . import read_reports

    runs: dict[str, dict[str, list[str]]] = {}
    for report in read_reports(path, format):
        cited = _unique(doc_id for sentence in report.sentences for doc_id in sentence.citations)
        topics = runs.setdefault(report.run_id, {})
        if report.request_id in topics:
            line = report.source.line if report.source is not None else None
            raise InputError(
                path, line, "request_id", f"run {report.run_id!r} has a second report for request {report.request_id!r}"
            )
        topics[report.request_id] = cited
    return [Rankings(name, topics, str(path)) for name, topics in runs.items()]


def load_rankings(
    paths: Sequence[str | PathLike[str]], format: str | None = None, repeats: Repeats = "first"
) -> list[Rankings]:
    """Read ranked runs and/or report runs (detected per file), sorted by run name.

    Two files that use the same run name are told apart by their file names (``name@file``), because
    every output has one row per run, and run ids often disagree with file names. ``repeats``: what a
    document listed twice for a topic of a ranked run means (see ``rankings_from_ranked``).
    """
    from . import resolve

    loaded: list[Rankings] = []
    for path in paths:
        spec = resolve(path, None, format)
        if spec.kind == "ranked":
            loaded.extend(rankings_from_ranked(path, repeats))
        elif spec.kind == "runs":
            loaded.extend(rankings_from_reports(path, spec.name))
        else:
            raise InputError(path, None, None, f"expected a ranked run or a report run, found {spec.kind} ({spec.name})")
    counts: dict[str, int] = {}
    for run in loaded:
        counts[run.name] = counts.get(run.name, 0) + 1
    for run in loaded:
        if counts[run.name] > 1:
            run.name = f"{run.name}@{Path(run.source).name}"
    names = [run.name for run in loaded]
    if len(set(names)) != len(names):
        raise _duplicate_runs(names, [str(run.source) for run in loaded])
    return sorted(loaded, key=lambda run: run.name)


def _duplicate_runs(names: Sequence[str], sources: Sequence[str]) -> ArgueError:
    """The error for run names that collide: one file given twice, or two files of one name and tag."""
    repeated = sorted({name for name in names if names.count(name) > 1})
    files = sorted({str(Path(source).resolve()) for name, source in zip(names, sources) if name in repeated})
    if len(files) > 1:
        return ArgueError(f"runs {', '.join(repeated)} come from different files with the same name and run tag "
                          f"({', '.join(files)}): rename a file or give its run another tag")
    return ArgueError(f"the same run appears twice ({', '.join(repeated)}); give each run file once")


def _unique(doc_ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(doc_ids))


def _first_repeat(doc_ids: Iterable[str]) -> str | None:
    """The first document listed a second time, or None."""
    seen: set[str] = set()
    for doc_id in doc_ids:
        if doc_id in seen:
            return doc_id
        seen.add(doc_id)
    return None


@dataclass
class OrderedRuns:
    """Ranked runs as parallel arrays in trec_eval order, repeats dropped, cut to ``depth``.

    ``run``, ``q`` and ``d`` index ``names`` (sorted), ``request_ids`` and ``doc_ids`` (both sorted, so the
    integer order is the string order); ``rank`` is 0-based within (run, topic).
    """

    names: list[str]
    sources: list[str]
    request_ids: np.ndarray
    doc_ids: np.ndarray
    run: np.ndarray
    q: np.ndarray
    d: np.ndarray
    rank: np.ndarray

    def rankings(self) -> list[Rankings]:
        """The same runs as :class:`Rankings` (lists), for the strategies that walk rankings one by one."""
        import numpy as np

        result = [Rankings(name, {}, source) for name, source in zip(self.names, self.sources)]
        if len(self.run) == 0:
            return result
        docs = self.doc_ids[self.d].tolist()
        topics = self.request_ids.tolist()
        group = self.run * len(self.request_ids) + self.q
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        ends = np.r_[starts[1:], len(group)]
        for start, end in zip(starts.tolist(), ends.tolist()):
            result[int(self.run[start])].topics[topics[int(self.q[start])]] = docs[start:end]
        return result


def order_ranked_files(
    paths: Sequence[str | PathLike[str]], depth: int | None = None, repeats: Repeats = "first"
) -> OrderedRuns:
    """Read TREC ranked runs and order them as trec_eval does (score desc, docno desc), with numpy.

    A document listed twice for a topic keeps its first place in that order (``repeats="first"``) or is
    an error naming run, topic and document (``repeats="error"``, as trec_eval's "duplicate docs").
    """
    import numpy as np
    import pandas as pd

    columns = [read_ranked_columns(path) for path in paths]
    # Run names: the tag, or tag@file when the same tag appears in several files (as in load_rankings).
    keys: list[tuple[int, str]] = []
    row_runs = []
    for index, cols in enumerate(columns):
        if len(cols) and (cols.run_id == cols.run_id[0]).all():  # the usual case: one run per file
            codes, tags = np.zeros(len(cols), dtype=np.int64), [cols.run_id[0]]
        else:
            codes, tags = pd.factorize(cols.run_id)
        base = len(keys)
        keys.extend((index, str(tag)) for tag in tags)
        row_runs.append(codes.astype(np.int64) + base)
    files_per_tag: dict[str, int] = Counter(tag for _, tag in keys)
    labels = [tag if files_per_tag[tag] == 1 else f"{tag}@{Path(paths[index]).name}" for index, tag in keys]
    if len(set(labels)) != len(labels):
        raise _duplicate_runs(labels, [str(paths[index]) for index, _ in keys])
    by_name = sorted(range(len(labels)), key=labels.__getitem__)
    position = np.empty(max(len(labels), 1), dtype=np.int64)
    position[by_name] = np.arange(len(by_name))
    names = [labels[i] for i in by_name]
    sources = [str(paths[keys[i][0]]) for i in by_name]
    empty = np.empty(0, dtype=np.int64)
    if not columns or sum(len(cols) for cols in columns) == 0:
        return OrderedRuns(names, sources, np.empty(0, dtype=object), np.empty(0, dtype=object), empty, empty, empty, empty)
    run = position[np.concatenate(row_runs)]
    q, request_ids = _factorize_strings(np.concatenate([cols.request_id for cols in columns]))
    d, doc_ids = _factorize_strings(np.concatenate([cols.doc_id for cols in columns]))
    score_values, s = np.unique(np.concatenate([cols.score for cols in columns]), return_inverse=True)
    q, d, s = q.astype(np.int64), d.astype(np.int64), s.astype(np.int64)
    nq, nd, ns = len(request_ids), len(doc_ids), len(score_values)
    group = run * nq + q
    if len(names) * nq * ns * nd < 2**62:
        order = np.argsort((group * ns + (ns - 1 - s)) * nd + (nd - 1 - d), kind="stable")
    else:  # the single key would overflow: sort by the four keys instead
        order = np.lexsort((nd - 1 - d, ns - 1 - s, q, run))
    run, q, d, group = run[order], q[order], d[order], group[order]
    keep = ~pd.Series(group * nd + d).duplicated(keep="first").to_numpy()
    if repeats == "error" and not keep.all():
        at = int(np.argmin(keep))
        raise InputError(
            sources[int(run[at])], None, None,
            f"run {names[int(run[at])]!r}, topic {str(request_ids[q[at]])!r}: document {str(doc_ids[d[at]])!r} is ranked "
            "twice (trec_eval refuses duplicate documents; keep one line per document)",
        )
    run, q, d, group = run[keep], q[keep], d[keep], group[keep]
    row = np.arange(len(group))
    starts = np.r_[True, group[1:] != group[:-1]]
    rank = row - np.maximum.accumulate(np.where(starts, row, 0))
    if depth is not None:
        cut = rank < depth
        run, q, d, rank = run[cut], q[cut], d[cut], rank[cut]
    return OrderedRuns(names, sources, np.asarray(request_ids, dtype=object), np.asarray(doc_ids, dtype=object), run, q, d, rank)


def _factorize_strings(values):
    """Integer codes whose order is the strings' order (Python's code-point order), and the sorted strings.

    Hashing first and sorting only the distinct strings as a fixed-width numpy array (compared in C) is
    several times faster than sorting Python strings."""
    import numpy as np
    import pandas as pd

    codes, uniques = pd.factorize(values)
    uniques = np.asarray(uniques, dtype=object)
    order = np.argsort(uniques.astype(str), kind="stable")
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return position[codes], uniques[order]
