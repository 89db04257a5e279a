"""The workbench's own script and style sheet (the only ones its pages load, under its CSP), and no favicon."""
from __future__ import annotations

from pathlib import Path

from starlette.responses import Response

from ..web import View, Visit

__all__ = ["StaticFiles", "NoFavicon"]

STATIC = Path(__file__).resolve().parent.parent / "static"


class StaticFiles(View):
    """``/static/wb.js`` and ``/static/wb.css``, read once at start-up (never half a file being replaced)."""

    FILES = {"wb.js": "text/javascript", "wb.css": "text/css"}
    blocking = False

    def __init__(self) -> None:
        self.contents = {name: (STATIC / name).read_bytes() for name in self.FILES}

    def get(self, visit: Visit) -> Response:
        name = visit.request.path_params["name"]
        if name not in self.contents:
            return Response("not found", status_code=404)
        return Response(self.contents[name], media_type=self.FILES[name], headers={"Cache-Control": "no-cache"})


class NoFavicon(View):
    blocking = False

    def get(self, visit: Visit) -> Response:
        return Response(status_code=204)
