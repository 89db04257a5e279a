"""One module per CLI subcommand; each exposes a click command named ``command``."""
