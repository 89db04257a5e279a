"""``argue-eval doctor``: which parts of the kit are ready here, and whether each endpoint given answers."""
from __future__ import annotations

import json

import click

from ._options import verbosity_options
from ._paths import CheckedPath


@click.command(name="doctor")
@verbosity_options
@click.option("--llm-base-url", "base_urls", multiple=True, metavar="URL",
              help="An OpenAI-compatible endpoint to ask (repeatable, or comma-separated): it must listen, list "
                   "--llm-model among its models and answer a one-token chat as that model.")
@click.option("--llm-model", "model", default=None, metavar="NAME", help="The model the endpoints must serve.")
@click.option("--llm-api-key-env", "api_key_env", default="OPENAI_API_KEY", show_default=True, metavar="VAR",
              help="The environment variable holding the endpoints' API key (never printed).")
@click.option("--cache", "cache", default=None, type=CheckedPath(dir_okay=False), metavar="PATH",
              help="A judgment cache to check can be written (its folder is made if missing, as a run would).")
@click.option("--nli-model", default=None, metavar="PATH", help="A local NLI model directory to check (config, weights).")
@click.option("--need", multiple=True, metavar="EXTRA",
              help="An extra that must be installed (repeatable): llm, nli, dense, search, graph, workbench; "
                   "missing, it fails the check (exit 1) instead of being reported.")
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON (a list of {check, status, detail}).")
def command(base_urls: tuple[str, ...], model: str | None, api_key_env: str, cache: str | None, nli_model: str | None,
            need: tuple[str, ...], as_json: bool) -> None:
    """Check the extras, models, Java, Chromium, cache and LLM endpoints.

    What this machine has for argue-eval: the extras, the models, Java for Pyserini, Chromium for the browser
    checks, a writable cache, and each endpoint given answering as the model named.

    One line per check: ok, missing (an optional part not installed, with the command that installs it) or
    failed (something given or needed that does not work). Exit status: 0 when nothing failed, 1 when a check
    failed (an endpoint down or serving another model, a --need extra missing, a cache that cannot be
    written), 2 a usage error. Nothing is downloaded and no model is loaded.

    \b
    What this machine has (optional parts not installed are reported, not failed):
      argue-eval doctor --cache .argue-cache/judgments.sqlite
    \b
    Before an LLM run, a local server (docs/judging.md, Running a local model); needs the endpoint and the llm extra:
      argue-eval doctor --need llm --llm-base-url http://localhost:8000/v1 --llm-model MODEL
    """
    from ..api.doctor import doctor

    urls = [url.strip() for given in base_urls for url in given.split(",") if url.strip()]
    result = doctor(base_urls=urls, model=model, api_key_env=api_key_env, cache=cache, nli_model=nli_model, need=need)
    if as_json:
        click.echo(json.dumps({"checks": [dict(zip(result.columns, row)) for row in result.rows],
                               "counts": result.counts}, indent=2))
    else:
        width = max(len(row[0]) for row in result.rows)
        for check, status, detail in result.rows:
            click.echo(f"{check:<{width}}  {status:<7}  {detail}")
        counts = result.counts
        click.echo(f"{counts['ok']} ok, {counts['missing']} missing, {counts['failed']} failed")
    if result.counts["failed"]:
        raise click.exceptions.Exit(1)
