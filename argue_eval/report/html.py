"""One self-contained HTML file: inline CSS, JS and data, a Content-Security-Policy that forbids any fetch.

The data goes into ``<script type="application/json">`` blocks. Report text is untrusted, so the JSON is
made safe for that context: ``<``, ``>`` and ``&`` are written as ``\\u003c``, ``\\u003e``, ``\\u0026`` (so
neither ``</script>`` nor ``<!--`` can end or change the block), and U+2028/U+2029 are escaped too. The
page renders every string with ``textContent``; nothing from the input becomes markup.
"""
from __future__ import annotations

import html
from importlib import resources
from typing import Any

import orjson

from .data import ReportData

_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
        "base-uri 'none'; form-action 'none'")
_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def script_json(value: Any) -> str:
    """Compact JSON that can sit inside a ``<script>`` element whatever strings it holds."""
    return orjson.dumps(value).decode("utf-8").translate(_ESCAPES)


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets").joinpath(name).read_text(encoding="utf-8")


def render_html(data: ReportData) -> str:
    """The whole page as text; the same data gives the same bytes."""
    title = html.escape(str(data.main.get("title", "")))
    people = "people" in data.main  # the "judges against people" view, when human judgments were given
    figures = "figures" in data.main  # the figures view, with report --figures
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_CSP}\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<meta name=\"generator\" content=\"argue-eval report\">\n",
        f"<title>{title}</title>\n<style>\n{_asset('report.css')}</style>\n</head>\n<body>\n",
        f"<header><h1 id=\"report-title\">{title}</h1>\n<nav>",
        "<a href=\"#leaderboard\" data-view=\"leaderboard\">Leaderboard</a>",
        "<a href=\"#topics\" data-view=\"topics\">Topics</a>",
        "<a href=\"#report\" data-view=\"report\">Report</a>",
        "<a href=\"#nuggets\" data-view=\"nuggets\">Nuggets</a>",
        *(["<a href=\"#people\" data-view=\"people\">Judges vs people</a>"] if people else []),
        *(["<a href=\"#figures\" data-view=\"figures\">Figures</a>"] if figures else []),
        "<a href=\"#about\" data-view=\"about\">Legend &amp; notes</a></nav></header>\n<main>\n",
        "<noscript><p>This report needs JavaScript to draw its tables (it runs only the script inside this file "
        "and fetches nothing).</p></noscript>\n",
    ]
    for view in ("leaderboard", "topics", "report", "nuggets", *(["people"] if people else []),
                 *(["figures"] if figures else []), "about"):
        parts.append(f"<section class=\"view\" id=\"view-{view}\" hidden></section>\n")
    parts.append("</main>\n<footer>Made by argue-eval report: one file, no network. "
                 "Scores from the score table; statistics from argue_eval.stats.</footer>\n")
    parts.append(f"<script type=\"application/json\" id=\"report-data\">{script_json(data.main)}</script>\n")
    for k, block in enumerate(data.topics):
        parts.append(f"<script type=\"application/json\" id=\"topic-{k}\">{script_json(block)}</script>\n")
    parts.append(f"<script>\n{_asset('report.js')}</script>\n</body>\n</html>\n")
    return "".join(parts)
