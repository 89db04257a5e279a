"""The workbench's pages, registered in one table (``pages()``), as datasette registers its views.

Each row is a URL, the view that answers it (``web.View``: ``get``, and ``post`` for a page that changes
something), who may open it and which CSRF token its POST carries (``web`` applies both before the view
runs). ``app.create_app`` turns the table into the app. One page per stage comes from the stage list
(``stages.STAGES``): the authoring page for the stage that writes the bank, the assessment page for each
stage that asks judgments.

Adding a page is a view (a module here) and its row.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..stages import STAGES
from ..web import Access, CsrfRule, View
from .account import LoginPage, LogoutPage, PasswordPage
from .adjudication import AdjudicationPage
from .assessment import AssessmentPage, NoSuchStage
from .authoring import AuthoringPage
from .static import NoFavicon, StaticFiles
from .topics import TopicsPage

__all__ = ["Page", "pages"]


@dataclass(frozen=True)
class Page:
    """One row of the table: a Starlette path, its view, who may open it, its methods and its POST's token."""

    path: str
    view: View
    access: Access
    methods: tuple[str, ...] = ("GET",)
    csrf: CsrfRule = "session"


def pages() -> Sequence[Page]:
    """The table, in matching order (a stage's own row before the row for stages that do not exist). Built
    per app: the static files are read when it is made."""
    return (
        Page("/login", LoginPage(), "public", ("GET", "POST"), csrf="login"),
        Page("/logout", LogoutPage(), "session", ("POST",)),
        Page("/password", PasswordPage(), "session", ("GET", "POST")),
        Page("/", TopicsPage(), "user"),
        *(Page(f"/t/{{topic}}/{stage.name}", AssessmentPage(stage) if stage.asks else AuthoringPage(stage), "topic",
               ("GET", "POST")) for stage in STAGES),
        Page("/t/{topic}/{stage}", NoSuchStage(), "topic", ("GET", "POST"), csrf=None),
        Page("/adjudicate", AdjudicationPage(), "admin", ("GET", "POST")),
        Page("/static/{name}", StaticFiles(), "public", csrf=None),
        Page("/favicon.ico", NoFavicon(), "public", csrf=None),
    )
