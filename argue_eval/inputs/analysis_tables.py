"""The tables the analyses write and other commands read back: circularity flags (``analyze circularity
--format tsv``) and the leave-one-team-out table (``analyze reusability --format tsv``), each with its header
checked and every line located in its errors."""
from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING

from ..errors import InputError
from ..reading import text_lines

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_flags", "read_reusability", "FLAG_HEADER", "REUSABILITY_HEADER"]

FLAG_HEADER = ("run_id", "flag", "field", "evidence")
REUSABILITY_HEADER = ("team", "run_id", "metric", "score", "score_left_out", "change", "rank", "rank_left_out",
                      "rank_change")


def _rows(path: str | PathLike[str], header: tuple[str, ...], command: str) -> list[tuple[int, list[str]]]:
    rows = []
    for lineno, line in enumerate(text_lines(path), 1):
        text = line.rstrip("\r\n")
        if lineno == 1:
            if tuple(text.split("\t")) != header:
                raise InputError(path, 1, None, f"expected the header {chr(9).join(header)!r} of `{command}`")
            continue
        if not text.strip() or text.startswith("# "):
            continue
        parts = text.split("\t")
        if len(parts) != len(header) or not parts[0]:
            raise InputError(path, lineno, None, f"expected {len(header)} tab-separated fields ({' '.join(header)}), "
                             f"found {len(parts)}")
        rows.append((lineno, parts))
    return rows


def read_flags(path: str | PathLike[str]) -> dict[str, list[tuple[str, str, str]]]:
    """Circularity flags as ``analyze circularity --format tsv`` writes them (header ``run_id flag field
    evidence``): per run its ``(flag, field, evidence)``, in file order."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for _, parts in _rows(path, FLAG_HEADER, "analyze circularity --format tsv"):
        out.setdefault(parts[0], []).append((parts[1], parts[2], parts[3]))
    return out


def read_reusability(path: str | PathLike[str]) -> pd.DataFrame:
    """The leave-one-team-out table as a DataFrame (``REUSABILITY_HEADER``; numbers parsed, ``n/a`` as NaN)."""
    import pandas as pd

    numeric = {"score", "score_left_out", "change"}
    whole = {"rank", "rank_left_out", "rank_change"}
    records = []
    for lineno, parts in _rows(path, REUSABILITY_HEADER, "analyze reusability --format tsv"):
        record: dict[str, object] = {}
        for name, text in zip(REUSABILITY_HEADER, parts):
            try:
                record[name] = (float("nan") if text == "n/a" else float(text)) if name in numeric else \
                    int(text) if name in whole else text
            except ValueError:
                raise InputError(path, lineno, name, f"expected a number, found {text!r}") from None
        records.append(record)
    return pd.DataFrame(records, columns=list(REUSABILITY_HEADER))
