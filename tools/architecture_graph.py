"""Redraw docs/architecture.md's layer picture from the code's imports.

The picture (every top-level module and package of ``argue_eval/`` at its level, with its role and every name of
ours it imports) is drawn by ``layer_picture`` in tests/test_architecture.py, from the same import scan the
border test reads; ``test_the_architecture_picture_is_drawn_from_the_imports`` fails while the doc's picture is
not the code's. Run after an import changes:

    .venv/bin/python tools/architecture_graph.py            # rewrite the picture in docs/architecture.md
    .venv/bin/python tools/architecture_graph.py --check    # exit 1 (and say so) when it is not the code's
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_architecture as architecture  # noqa: E402  (tests/ is not a package)


def main(argv: list[str]) -> int:
    doc = architecture.ARCHITECTURE_DOC
    text = doc.read_text(encoding="utf-8")
    new = architecture.redrawn(text, architecture.layer_picture())
    if "--check" in argv:
        if new != text:
            print(f"{doc}: the layer picture is not the code's; run tools/architecture_graph.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        doc.write_text(new, encoding="utf-8")
        print(f"redrew the layer picture in {doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
