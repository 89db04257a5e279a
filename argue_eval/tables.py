"""Render result tables as aligned text, TSV, Markdown, LaTeX (booktabs) or JSON, byte-identically on rerun.

Commands build ``Table`` objects (header, rows of already formatted cells, alignment, notes) and pick a
format; nothing here computes. Undefined values are ``None`` cells, shown as ``n/a`` (``--`` in LaTeX), and a
table that has any must carry a note saying why, so no reader meets an unexplained gap.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import unknown_name

RENDER_FORMATS: tuple[str, ...] = ("text", "tsv", "markdown", "latex", "json")
Cell = str | None


@dataclass
class Table:
    """A titled table of string cells; ``align`` has one of ``l``/``r`` per column."""

    columns: list[str]
    rows: list[list[Cell]]
    align: str = ""
    title: str | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.align:
            self.align = "l" * len(self.columns)
        if len(self.align) != len(self.columns):
            raise ValueError("align needs one letter per column")


def count_noun(number: int, noun: str) -> str:
    """``1 system``, ``2 systems``: table titles read as sentences."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def fmt_number(value: float | None, digits: int = 4) -> Cell:
    """Fixed-point text, or ``None`` for a missing/undefined (NaN, inf) value.

    A value that rounds to zero prints as ``0.0000``, never ``-0.0000``: a rounding residue such as -1e-17 (the
    mean of differences that cancel) must not read as a negative effect.
    """
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def fmt_p(value: float | None, digits: int = 4) -> Cell:
    """A p-value with ``digits`` decimals, below 10^-digits shown as ``<0.0001`` (the JSON keeps the value)."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    floor = 10.0**-digits
    if 0 < value < floor:
        return f"<{floor:.{digits}f}"
    return f"{value:.{digits}f}"


def _shown(cell: Cell, missing: str) -> str:
    return missing if cell is None else cell


def render_text(table: Table) -> str:
    cells = [[_shown(cell, "n/a") for cell in row] for row in table.rows]
    widths = [max([len(name)] + [len(row[k]) for row in cells]) for k, name in enumerate(table.columns)]

    def line(values: Sequence[str]) -> str:
        parts = [value.rjust(width) if align == "r" else value.ljust(width) for value, width, align in zip(values, widths, table.align)]
        return "  ".join(parts).rstrip()

    out = []
    if table.title:
        out.append(table.title)
    out.append(line(table.columns))
    out.append("  ".join("-" * width for width in widths))
    out.extend(line(row) for row in cells)
    out.extend(f"note: {note}" for note in table.notes)
    return "\n".join(out) + "\n"


def _tsv_cell(value: str) -> str:
    return value.replace("\t", " ").replace("\n", " ")


def render_tsv(table: Table) -> str:
    """Header and rows only (``n/a`` for undefined cells); notes follow as ``# note:`` lines for people and comment-aware readers."""
    out = ["\t".join(table.columns)]
    out.extend("\t".join(_tsv_cell(_shown(cell, "n/a")) for cell in row) for row in table.rows)
    out.extend(f"# note: {note}" for note in table.notes)
    return "\n".join(out) + "\n"


def _md_cell(value: str) -> str:
    return value.replace("|", "\\|").replace("\n", " ")


def render_markdown(table: Table) -> str:
    out = []
    if table.title:
        out.extend([f"**{_md_cell(table.title)}**", ""])
    out.append("| " + " | ".join(_md_cell(name) for name in table.columns) + " |")
    out.append("|" + "|".join("---:" if align == "r" else ":---" for align in table.align) + "|")
    out.extend("| " + " | ".join(_md_cell(_shown(cell, "n/a")) for cell in row) + " |" for row in table.rows)
    if table.notes:
        out.append("")
        out.extend(f"- Note: {_md_cell(note)}" for note in table.notes)
    return "\n".join(out) + "\n"


_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(char, char) for char in text)


def render_latex(table: Table) -> str:
    """A booktabs ``tabular``; the title and notes as LaTeX comments above and below it."""
    out = []
    if table.title:
        out.append(f"% {table.title}")
    out.append(r"\begin{tabular}{" + table.align + "}")
    out.append(r"\toprule")
    out.append(" & ".join(latex_escape(name) for name in table.columns) + r" \\")
    out.append(r"\midrule")
    out.extend(" & ".join("--" if cell is None else latex_escape(cell) for cell in row) + r" \\" for row in table.rows)
    out.append(r"\bottomrule")
    out.append(r"\end{tabular}")
    out.extend(f"% note: {note}" for note in table.notes)
    return "\n".join(out) + "\n"


RENDERERS = {"text": render_text, "tsv": render_tsv, "markdown": render_markdown, "latex": render_latex}


def render_tables(tables: Sequence[Table], fmt: str) -> str:
    """Several tables in one document, separated by a blank line."""
    if fmt not in RENDERERS:
        raise unknown_name("--format", "table format", fmt, RENDERERS)
    return "\n".join(RENDERERS[fmt](table) for table in tables)


def table_document(table: Table) -> dict[str, Any]:
    """A table as ``--json`` prints it: its title, columns, rows of cells as the text shows them (``null`` for an
    undefined cell, shown ``n/a``) and notes."""
    return {"title": table.title, "columns": list(table.columns), "rows": [list(row) for row in table.rows],
            "notes": list(table.notes)}


def dumps_json(document: Any) -> str:
    """Pretty, stable JSON (key order as built, no NaN allowed: undefined values must already be ``null``)."""
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
