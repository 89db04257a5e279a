"""One module per CLI subcommand; each exposes a click command named ``command``.

``add_path_check`` (``_paths.py``) is what ``cli.LazyGroup`` gives every command it loads: an output that is one
of the inputs, or two outputs on one file, is refused before the command runs.
"""
from ._paths import add_path_check

__all__ = ["add_path_check"]
