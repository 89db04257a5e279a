"""``argue-eval assess``: the human assessment loop: the CSV/JSONL pool (``export``, ``import``) and the
assessment workbench (``init``, ``users``, ``assign``, ``serve``, ``status``, ``export-db``)."""
from __future__ import annotations

import re
import sys

import click

from ._options import input_options, policy_options, run_options, verbosity_options
from ._output import emit, json_mode, summary_line
from ._paths import InputPath, OutputPath, UpdatedPath


class _PoolExport(click.Command):
    """``assess export``, which takes no workbench database: ``--db`` is refused, naming the command that
    exports a workbench, before any other option is parsed (an earlier version took ``export --db`` for it)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if any(arg == "--db" or arg.startswith("--db=") for arg in args):
            raise click.UsageError(
                "--db: `assess export` writes a pool file of the judgments runs still lack (to leave out what a "
                "workbench's assessors answered, give its database as --judgments W.sqlite); the workbench's own "
                "export (its nugget bank and judgments) is `argue-eval assess export-db --db W.sqlite --nuggets-out "
                "N.jsonl --judgments-out J.jsonl`", ctx)
        return super().parse_args(ctx, args)


@click.group("assess")
def command() -> None:
    """Human assessment: a pool file for spreadsheets, or the assessment workbench (a local web app).

    \b
    The workbench, on the shipped sample track (the workbench extra):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl
      argue-eval assess users add alice --db round.sqlite     # prints a one-time password
      argue-eval assess assign --db round.sqlite --topics s01,s02 --to alice
      argue-eval assess serve --db round.sqlite               # serves http://127.0.0.1:8080 until stopped
      # open http://127.0.0.1:8080 and log in with the one-time password of `assess users add`
      argue-eval assess status --db round.sqlite
      argue-eval score --nuggets round.sqlite --judgments round.sqlite --missing-judgments skip -o so-far.tsv
      argue-eval assess export-db --db round.sqlite --nuggets-out nuggets.jsonl --judgments-out human.jsonl

    \b
    The pool file loop, on the shipped sample track:
      argue-eval assess export --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o pool.csv
      # assessors fill the judgment column of pool.csv with yes or no (a spreadsheet will do)
      argue-eval assess import pool.csv --assessor alice -o judgments.human.jsonl
      argue-eval score --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.human.jsonl -o scores.tsv
    """


@command.command("export", cls=_PoolExport)
@verbosity_options
@input_options
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="Document collection (JSONL, irds:ID or Lucene index) to include cited document texts.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="POOL", help="Pool to write: JSONL, or CSV for a .csv name.")
@click.option("--csv", "as_csv", is_flag=True, default=None, help="Write CSV whatever the output's name.")
@policy_options
def export_command(runs, nuggets, judgments, requests, qrels, collection, output, as_csv, policies) -> None:
    """Write the judgments scoring still lacks, one item per unique judgment.

    The same flowchart as `score` runs over every report; every question it needs that the given
    --judgments do not answer becomes one item, deduplicated across runs (a sentence citing the same
    document in ten runs is one item). Where an unanswered question decides the path (e.g. "relevant?"
    with --relevance judgments, or "negative assertion?"), the questions of both branches are exported
    and marked with `needed_if`, so one round of assessment is enough to score; assessors may leave
    those blank when the condition does not hold.

    Each item has the request text, the sentence with its neighbours, the cited document id (and its
    text with --collection), the nugget question and answers, a stable item_id and an integrity hash.
    Fill the `judgment` field with yes or no and run `argue-eval assess import`.

    A workbench database given as --judgments W.sqlite counts as judgments: what its assessors
    answered is left out. The workbench's own export (its bank and judgments) is `assess export-db`.

    \b
    Example:
      argue-eval assess export --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o pool.jsonl
    """
    from ..api.assessment import export_assessment_pool, write_assessment_pool

    result = export_assessment_pool(runs, nuggets, judgments=judgments, requests=requests, qrels=qrels,
                                    collection=collection, **policies)
    items = result.rows
    for note in result.notes:
        click.echo(f"note: {note.text}", err=True)
    count = write_assessment_pool(items, output, as_csv)
    by_kind, conditional = result.counts["kinds"], result.counts["conditional"]
    summary = ", ".join(f"{kind} {n}" for kind, n in by_kind.items())
    summary_line(f"wrote {count} item(s) to {output}" + (f": {summary}" if summary else "")
                 + (f" ({conditional} conditional)" if conditional else ""),
                 counts={"items": count, "conditional": conditional, "kinds": by_kind},
                 output=output, notes=[f"note: {note.text}" for note in result.notes])


@command.command("import")
@verbosity_options
@click.argument("filled", type=InputPath(), metavar="FILLED")
@click.option("--assessor", required=True, metavar="NAME", help="Who assessed: judgments get judge = human:NAME.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.jsonl", help="Canonical judgments JSONL to write.")
def import_command(filled: str, assessor: str, output: str) -> None:
    """Turn a filled assessment pool (JSONL or CSV) into canonical judgments.

    Every answered item becomes one judgment with judge = human:NAME. Items left blank are skipped and
    counted. An item whose question fields were edited (they no longer match its hash), or answered
    with anything but yes/no, stops the import with FILE:LINE: field: message.

    \b
    Example on the sample track (people's answers override a judge's where both answered):
      argue-eval assess export --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o pool.csv
      # assessors fill the judgment column of pool.csv with yes or no (a spreadsheet will do)
      argue-eval assess import pool.csv --assessor alice -o judgments.human.jsonl
      argue-eval judge --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o judgments.auto.jsonl
      argue-eval score --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.auto.jsonl --judgments judgments.human.jsonl -o scores.tsv
    """
    from ..api.assessment import import_assessment_pool, write_human_judgments

    summary = import_assessment_pool(filled, assessor)
    if not summary.judgments and not summary.unanswered:
        warning = f"{filled}: no assessment items in the file (only a header?); nothing imported, {output} not written"
        click.echo(f"warning: {warning}", err=True)
        if json_mode():
            emit(counts={"judgments": 0, "unanswered": 0}, notes=[f"warning: {warning}"])
        click.get_current_context().exit(1)
    count = write_human_judgments(summary.judgments, output)
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(summary.answered.items()))
    summary_line(f"imported {count} judgment(s) by human:{assessor.strip()} -> {output}"
                 + (f" ({kinds})" if kinds else "")
                 + (f"; {summary.unanswered} item(s) left blank" if summary.unanswered else ""),
                 counts={"judgments": count, "unanswered": summary.unanswered,
                         "kinds": dict(sorted(summary.answered.items()))},
                 assessor=f"human:{assessor.strip()}", output=output)


# --------------------------------------------------------------------------------------------------
# the assessment workbench
# --------------------------------------------------------------------------------------------------
_DB = click.option("--db", required=True, type=UpdatedPath(), metavar="W.sqlite", help="The workbench database (one SQLite file).")


@command.command("init")
@verbosity_options
@_DB
@click.option("--requests", required=True, type=InputPath(), metavar="R", help="The requests (topics) of the round.")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="The collection (JSONL, irds:ID or Lucene index): texts of pooled and cited documents, and search.")
@run_options("A run whose reports are assessed (repeatable; or several after it).")
@click.option("--pool", default=None, type=InputPath(), metavar="P",
              help="The `pool` command's output (documents per topic, in pool order); default: the runs' citations.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N", help="A nugget bank to start from (any nugget format).")
@click.option("--judgments", multiple=True, type=InputPath(), metavar="J",
              help="Judgments already made (canonical or Auto-ARGUE): those questions are not asked (repeatable).")
@click.option("--suggest", multiple=True, type=InputPath(), metavar="J",
              help="A judge's judgments shown as suggestions the assessor confirms or changes (repeatable).")
@click.option("--disagreements", multiple=True, type=InputPath(), metavar="D",
              help="`agree-judgments --disagreements` output: items for the admin to adjudicate (repeatable).")
@click.option("--relevance", type=click.Choice(["nuggets", "judgments"]), default=None,
              help="Cited document relevant by the nugget bank (the default; never asked) or as assessors judge it "
                   "(asked in the citation stage). Fixed at the first init.")
def init_command(db, requests, collection, runs, pool, nuggets, judgments, suggest, disagreements, relevance) -> None:
    """Create a workbench database, or add runs, documents, nuggets and judgments to one.

    Nothing already in the database is replaced or lost: a report or nugget already stored keeps its
    first version, and every answer stays. The pool is --pool when given, else the documents the runs
    cite; their texts are copied from --collection, so `serve` needs no collection (except to search).

    \b
    Example:
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl \\
          --run runs/sample/hallucinating.jsonl --nuggets nuggets/sample/nuggets.jsonl
    """
    from ..workbench.loading import init_store

    summary = init_store(db, requests, collection, runs, pool, nuggets, judgments, suggest, disagreements, relevance)
    for note in summary.notes:
        click.echo(f"note: {note}", err=True)
    summary_line(f"{db}: {summary.requests} topic(s); reports: {summary.reports_added} added, {summary.reports_kept} "
               f"already there; pooled documents: {summary.pooled_added} added; documents: {summary.documents_added} "
               f"copied; nuggets: {summary.nuggets_added} added, {summary.nuggets_kept} already there; prior "
               f"judgments: {summary.prior}; suggestions: {summary.suggestions}; disagreements: "
               f"{summary.disagreements}", db=db, notes=[f"note: {note}" for note in summary.notes],
                 counts={name: getattr(summary, name) for name in (
                     "requests", "reports_added", "reports_kept", "pooled_added", "documents_added", "nuggets_added",
                     "nuggets_kept", "prior", "suggestions", "disagreements")})


@command.group("users")
def users_command() -> None:
    """Add, list and reset the workbench's users.

    \b
    Example (a workbench database made from the sample track first):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess users add alice --db round.sqlite
      argue-eval assess users add carol --admin --db round.sqlite
      argue-eval assess users list --db round.sqlite
    """


@users_command.command("add")
@verbosity_options
@click.argument("name")
@_DB
@click.option("--admin", is_flag=True, help="An admin sees every topic and adjudicates.")
def users_add(name: str, db: str, admin: bool) -> None:
    """Add a user and print their one-time password (they choose their own at first login).

    \b
    Example (a workbench database made from the sample track first):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess users add alice --db round.sqlite
    """
    from ..workbench.security import add_user
    from ..workbench.store import Store

    store = Store.open(db)
    try:
        password = add_user(store, name, admin)
    finally:
        store.close()
    summary_line(f"user {name.strip()}{' (admin)' if admin else ''}: one-time password {password}", err=False,
                 user=name.strip(), admin=admin, password=password)


@users_command.command("reset")
@verbosity_options
@click.argument("name")
@_DB
def users_reset(name: str, db: str) -> None:
    """Give a user a new one-time password (their sessions end).

    \b
    Example (a workbench database made from the sample track first, with one user):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess users add alice --db round.sqlite
      argue-eval assess users reset alice --db round.sqlite
    """
    from ..workbench.security import reset_user
    from ..workbench.store import Store

    store = Store.open(db)
    try:
        password = reset_user(store, name)
    finally:
        store.close()
    summary_line(f"user {name}: one-time password {password}", err=False, user=name, password=password)


@users_command.command("list")
@verbosity_options
@_DB
def users_list(db: str) -> None:
    """List the users, their role and their topics.

    \b
    Example (a workbench database made from the sample track first, with one user):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess users add alice --db round.sqlite
      argue-eval assess users list --db round.sqlite
    """
    from ..workbench.store import Store

    store = Store.open(db)
    try:
        if json_mode():
            emit(users=[{"name": name, "role": "admin" if admin else "assessor",
                         "state": "one-time password" if must_change else "active", "topics": store.assigned(name)}
                        for name, admin, must_change in store.users()])
            return
        for name, admin, must_change in store.users():
            topics = store.assigned(name)
            click.echo(f"{name}\t{'admin' if admin else 'assessor'}\t{'one-time password' if must_change else 'active'}"
                       f"\t{','.join(topics) if topics else '-'}")
    finally:
        store.close()


@command.command("assign")
@verbosity_options
@_DB
@click.option("--topics", required=True, metavar="T", help="Topic ids, comma-separated; numeric ranges: 301-305.")
@click.option("--to", "user", required=True, metavar="NAME", help="The assessor.")
@click.option("--double", is_flag=True,
              help="Add NAME as a second assessor on topics that have one (double assessment, for agreement); "
                   "without it, a topic already assigned to someone else is refused.")
def assign_command(db: str, topics: str, user: str, double: bool) -> None:
    """Assign topics to an assessor.

    \b
    Example (a workbench database made from the sample track first, with two assessors):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess users add alice --db round.sqlite
      argue-eval assess users add bob --db round.sqlite
      argue-eval assess assign --db round.sqlite --topics s01,s02 --to alice
      argue-eval assess assign --db round.sqlite --topics s01 --to bob --double
    """
    from ..workbench.admin import assign_topics
    from ..workbench.store import Store

    store = Store.open(db)
    try:
        wanted = assign_topics(store, topics, user, double)
    finally:
        store.close()
    summary_line(f"assigned {len(wanted)} topic(s) to {user}: {', '.join(wanted)}", user=user, topics=list(wanted))


_HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]")
"""What ``--host-name`` takes: a DNS name or an IPv4 address, or an IPv6 address in brackets, as a Host header
writes them (no control character, space or port)."""


@command.command("serve")
@verbosity_options
@_DB
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True)
@click.option("--allow-remote", is_flag=True,
              help="Needed for a --host other than loopback: the workbench speaks plain HTTP, so put it behind TLS.")
@click.option("--search", "search_mode", type=click.Choice(["auto", "lucene", "memory"]), default="auto",
              show_default=True, help="Collection search: Lucene (the search extra), in-memory BM25, or auto.")
@click.option("--host-name", "host_names", multiple=True, metavar="NAME",
              help="Another name the server answers to in the Host header (the name a TLS proxy forwards, the "
                   "machine's name); repeatable. Loopback names and --host are always answered; others refused.")
def serve_command(db: str, host: str, port: int, allow_remote: bool, search_mode: str,
                  host_names: tuple[str, ...]) -> None:
    """Serve the workbench (nugget authoring, citation and sentence assessment, adjudication).

    \b
    Example (the workbench extra; a workbench database made from the sample track first, with one assessor):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess users add alice --db round.sqlite     # prints a one-time password
      argue-eval assess serve --db round.sqlite --port 8080   # serves http://127.0.0.1:8080 until stopped
      # open http://127.0.0.1:8080 and log in with the one-time password of `assess users add`
    """
    import ipaddress
    import json
    import logging

    from ..errors import MissingDependencyError, OptionError
    from ..workbench.store import Store

    try:
        import uvicorn

        from ..workbench.app import create_app
    except ImportError as error:
        raise MissingDependencyError("assess serve", "workbench", str(error)) from None
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    for name in host_names:
        if not _HOST_NAME.fullmatch(name):
            raise OptionError("--host-name", f"expected a host name (letters, digits, dots and hyphens) or a "
                                             f"bracketed IPv6 address, found {name!r}")
    if not loopback and not allow_remote:
        raise OptionError("--host", f"{host} is not a loopback address; the workbench speaks plain HTTP: give "
                          "--allow-remote to listen there anyway (behind a TLS proxy)")
    if not loopback:
        click.echo(f"warning: listening on {host}: anyone who can reach it can try to log in; the traffic is not "
                   "encrypted unless a TLS proxy stands in front", err=True)
    store = Store.open(db)
    collection = store.meta("collection")
    app = create_app(store, json.loads(collection) if collection else None, search_mode, hosts=(host, *host_names))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if json_mode():  # a script learns where the workbench listens: one object, printed before it serves
        emit(db=db, url=f"http://{host}:{port}")
        sys.stdout.flush()
    else:
        click.echo(f"serving {db} on http://{host}:{port} (Ctrl-C stops)", err=True)
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning", server_header=False)


@command.command("status")
@verbosity_options
@_DB
@click.option("--format", "output_format", type=click.Choice(["text", "tsv", "markdown"]), default="text",
              show_default=True)
def status_command(db: str, output_format: str) -> None:
    """Progress per topic, stage and assessor; document reads per judgment, per assessor; agreement where topics
    are double-assessed, and of the judge's suggestions with the assessors' answers.

    \b
    Example (a workbench database made from the sample track first):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl
      argue-eval assess status --db round.sqlite
    """
    from ..tables import Table, render_tables
    from ..workbench.exporting import adjudication_queue, agreement_rows, reading_rows, status_rows, suggestion_rows
    from ..workbench.store import Store

    store = Store.open(db)
    try:
        rows = status_rows(store)
        agreement = agreement_rows(store)
        suggested = suggestion_rows(store)
        queue = adjudication_queue(store)
        reading = reading_rows(store)
    finally:
        store.close()
    open_ = sum(1 for e in queue if e["decision"] is None)
    tables = [Table(["topic", "assessor", "stage", "done", "open"], list(rows), "lllrr",
                    "progress (open: what the flowchart asks now; answers can open more)",
                    [f"adjudication: {open_} open, {len(queue) - open_} decided"])]
    if reading:
        tables.append(Table(["assessor", "stage", "reads", "judgments", "reads per judgment"], reading, "llrrr",
                            "document reads (a save of answers about another document than the save before)"))
    if agreement:
        tables.append(Table(["assessors", "kind", "items", "agreement", "kappa"], agreement, "llrrr",
                            "agreement on items both assessors answered"))
    if suggested:
        tables.append(Table(["judge", "kind", "items", "agreement", "kappa"], suggested, "llrrr",
                            "the judge's suggestions against the assessors' answers (items where one was shown)"))
    if json_mode():
        emit(tables=tables, counts={"adjudication_open": open_, "adjudication_decided": len(queue) - open_})
        return
    click.echo(render_tables(tables, output_format).rstrip("\n"))


@command.command("export-db")
@verbosity_options
@_DB
@click.option("--nuggets-out", required=True, type=OutputPath(), metavar="N.jsonl", help="The nugget bank (canonical JSONL).")
@click.option("--judgments-out", required=True, type=OutputPath(), metavar="J.jsonl", help="The judgments (canonical JSONL).")
def export_db_command(db: str, nuggets_out: str, judgments_out: str) -> None:
    """Export the workbench's nugget bank and judgments for `score`.

    Each assessor's answer is a judgment with judge human:NAME; an adjudicated item's decision follows
    them as human:ADMIN:adjudication, so `score` (the later line wins) uses the decision. Reruns write the
    same bytes. `score` also reads the database itself (--nuggets W.sqlite --judgments W.sqlite): the
    same bank and judgments, without the files.

    \b
    Example (a workbench database made from the sample track and its nugget bank first):
      argue-eval assess init --db round.sqlite --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --run runs/sample/careful.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl
      argue-eval assess export-db --db round.sqlite --nuggets-out nuggets.jsonl --judgments-out human.jsonl
      argue-eval nuggets stats nuggets.jsonl

    Once the assessors have answered, score with what they answered: argue-eval score --run
    runs/sample/careful.jsonl --nuggets nuggets.jsonl --judgments human.jsonl -o scores.tsv (or, the
    same table, --nuggets round.sqlite --judgments round.sqlite).
    """
    from ..workbench.exporting import export_round
    from ..workbench.store import Store

    store = Store.open(db)
    try:
        summary = export_round(store, nuggets_out, judgments_out)
    finally:
        store.close()
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(summary.by_kind.items()))
    notes = []
    if summary.unresolved:
        notes.append(f"warning: {summary.unresolved} item(s) have assessors who disagree and no adjudication: for "
                     "them `score` uses the answer of the assessor whose name sorts last; to decide them, adjudicate "
                     f"them in the workbench (argue-eval assess serve --db {db}) and export again")
    if summary.stale:
        notes.append(f"note: {summary.stale} answer(s) not exported: they were given about nugget answers that "
                     "have since been edited or deleted")
    for note in notes:
        click.echo(note, err=True)
    per_kind = "; ".join(part for part in (kinds, f"{summary.adjudicated} adjudication decision(s)"
                                           if summary.adjudicated else "") if part)
    summary_line(f"exported workbench database {db}: the nugget bank ({summary.nuggets} nugget(s) of "
                 f"{summary.topics} topic(s)) to {nuggets_out}, and the assessors' {summary.judgments} judgment(s)"
                 + (f" ({per_kind})" if per_kind else "") + f" to {judgments_out}",
                 counts={"nuggets": summary.nuggets, "topics": summary.topics, "judgments": summary.judgments,
                         "adjudicated": summary.adjudicated, "unresolved": summary.unresolved, "stale": summary.stale,
                         "kinds": dict(sorted(summary.by_kind.items()))},
                 nuggets_out=nuggets_out, judgments_out=judgments_out, notes=notes)
    if not json_mode():
        click.echo(_export_next(db, nuggets_out, judgments_out, summary.judgments), err=True)


def _export_next(db: str, nuggets_out: str, judgments_out: str, judgments: int) -> str:
    """What to run after ``export-db``: score with the files (the runs are the round's run files), or, with no
    judgment yet, see where the assessors are."""
    if not judgments:
        return (f"next: no assessor has answered yet; see the progress with argue-eval assess status --db {db}, "
                "and export again once they have")
    return (f"next: argue-eval score --run RUN.jsonl --nuggets {nuggets_out} --judgments {judgments_out} -o scores.tsv "
            f"(or, without the export, --nuggets {db} --judgments {db})")
