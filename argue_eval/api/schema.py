"""``schema``: the JSON Schema of a canonical file, for tools that check files without argue-eval."""
from __future__ import annotations

from typing import Any

__all__ = ["schema", "schema_kinds"]


def schema_kinds() -> dict[str, str]:
    """Every kind with a schema, and what its files hold."""
    from ..formats.schemas import SCHEMAS

    return {kind: what for kind, (what, _, _) in SCHEMAS.items()}


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of a canonical ``kind`` file (``formats.schemas``)."""
    from ..formats.schemas import schema as make

    return make(kind)
