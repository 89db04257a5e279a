"""``argue-eval nuggets``: validate, summarize, merge and bind nugget banks; create one with an LLM and compare it
with a human one (``commands.nuggets_create``)."""
from __future__ import annotations

import click

from ..errors import OptionError
from ._common import nugget_check_list
from ._options import verbosity_options
from ._output import refuse_stdout_data, summary_line
from ._paths import InputPath, OutputPath

output_format_option = click.option(
    "--to", "to_format", default="argue", show_default=True, metavar="FORMAT",
    help="Output format: argue (our JSONL) or autoargue-v3 (a directory of nuggets_<qid>.v3.json).",
)


@click.group(name="nuggets")
def command() -> None:
    """Validate, summarize, merge, bind, create (LLM) and compare nugget banks.

    A bank created with an LLM is for assessors to revise; compare measures it against a human one. Any nugget
    format in; ours or Auto-ARGUE v3 out (`argue-eval convert` converts between formats).

    \b
    Example on the sample track:
      argue-eval nuggets validate nuggets/sample/nuggets.jsonl --collection topics/sample/collection.jsonl
      argue-eval nuggets stats nuggets/sample/nuggets.jsonl
    """


@command.command(name="validate", epilog="\b\nChecks (name, severity, what it catches; --strict makes every warning "
                 "an error):\n" + nugget_check_list())
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@click.option("--collection", default=None, type=InputPath(folder=True), help="Check that every bound document exists (JSONL, Lucene index or irds:ID).")
@click.option("--requests", type=InputPath(exists=True), default=None, help="Check that topics and requests correspond.")
@click.option("--format", "format_name", default=None, metavar="NAME", help="The file's format, if detection should not guess.")
@click.option("--strict", is_flag=True, help="Report every warning as an error (exit status 1 when there is any).")
def validate_command(path: str, collection: str | None, requests: str | None, format_name: str | None,
                     strict: bool) -> None:
    """Check a nugget bank: errors are what the scorer cannot use or would score wrongly (a repeated topic
    or nugget id, an empty question or answer, an unknown importance, a bound document missing from the
    collection); warnings are unusual but scored by a documented rule (a question with no answer bound to
    a document is dropped, an answer without documents is never found, a nugget without importance weighs
    like okay, repeats, topics outside the requests). Prints FILE:LINE: field: message per problem, then a
    summary; exit status 0 with warnings only, 1 with errors (--strict: with warnings too), 2 when the
    file cannot be read.

    \b
    Example:
      argue-eval nuggets validate nuggets/sample/nuggets.jsonl --collection topics/sample/collection.jsonl \\
          --requests topics/sample/requests.jsonl
      nuggets/sample/nuggets.jsonl: 8 topics, 49 nuggets, 0 errors, 0 warnings
    """
    from ..api import validate_nuggets
    from ._common import print_problems

    result = validate_nuggets(path, collection=collection, requests=requests, format=format_name, strict=strict)
    counts = result.counts
    print_problems(result, f"{path}: {counts['topics']} topics, {counts['nuggets']} nuggets, {counts['errors']} errors, "
                           f"{counts['warnings']} warnings")


@command.command(name="stats")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@click.option("-o", "--output", type=OutputPath(dir_okay=False), default=None, help="Write the table here instead of stdout.")
@click.option("--format", "format_name", default=None, metavar="NAME", help="The file's format, if detection should not guess.")
def stats_command(path: str, output: str | None, format_name: str | None) -> None:
    """Per-topic summary as a TSV: questions, answers, bindings (answer-document pairs), distinct documents,
    vital/okay/unlabelled and negative nuggets, unbound questions, answers per question and documents per
    answer, with an `all` row.

    \b
    Example:
      argue-eval nuggets stats nuggets/sample/nuggets.jsonl
    """
    from ..api import nugget_stats
    from ._common import emit_tsv

    result = nugget_stats(path, format=format_name)
    emit_tsv(result.columns, result.rows, output, result)


@command.command(name="merge")
@verbosity_options
@click.argument("first", type=InputPath(exists=True, folder=True))
@click.argument("second", type=InputPath(exists=True, folder=True))
@click.option("-o", "--output", required=True, type=OutputPath(folder=True), help="The merged bank.")
@output_format_option
def merge_command(first: str, second: str, output: str, to_format: str) -> None:
    """Merge two nugget banks (any formats): questions matched after normalization (case, spacing, end
    punctuation), answers merged the same way, document bindings unioned. Importance and aggregator
    disagreements are reported on stderr (the first bank's value is kept).

    \b
    Example on the sample track (our bank merged with the bindings an assessor found, in Auto-ARGUE's format):
      # assessors write found.csv with the bindings they found (request_id,nugget_id,answer,doc_id)
      argue-eval nuggets bind nuggets/sample/nuggets.jsonl found.csv --to autoargue-v3 -o assessor-b/
      argue-eval nuggets merge nuggets/sample/nuggets.jsonl assessor-b/ -o merged.jsonl
      merged into 8 topics (0 conflicts) -> merged.jsonl
    """
    from ..api import merge_nuggets, write_nuggets

    refuse_stdout_data(output)
    result = merge_nuggets(first, second)
    for note in result.notes:  # conflict: ..., then renamed: ...
        click.echo(str(note), err=True)
    count = write_nuggets(result, output, to_format)
    summary_line(f"merged into {count} topics ({result.counts['conflicts']} conflicts) -> {output}", result,
                 err=output == "-", output=output, topics_written=count)  # with -o -, stdout holds the data


@command.command(name="bind")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@click.argument("bindings", required=False, type=InputPath(exists=True, dir_okay=False))
@click.option("-o", "--output", required=True, type=OutputPath(folder=True),
              help="The bank with the new bindings; with --propose, the assessor sheet (CSV).")
@click.option("--no-new-answers", is_flag=True, help="An answer text the nugget does not have is an error (default: added).")
@output_format_option
@click.option("--propose", is_flag=True,
              help="Do not bind: search --collection for every answer bound to no document and write candidate "
                   "documents as an assessor sheet (CSV) to confirm; bind the reviewed sheet afterwards.")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C", help="With --propose: the JSONL collection to search.")
@click.option("--search", "retriever", type=click.Choice(["bm25", "dense"]), default="bm25", show_default=True,
              help="With --propose: BM25 over passages, or dense (MiniLM; the dense extra).")
@click.option("--judge", "judge_spec", default=None, metavar="JUDGE",
              help="With --propose: a judge (lexical, semantic, nli, llm, a cascade) reads each candidate passage "
                   "and says whether it attests the answer; without one, search scores alone rank the candidates.")
@click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
              help="A judge backend option (repeatable), as for `judge`.")
@click.option("--depth", type=click.IntRange(1, 1000), default=5, show_default=True,
              help="With --propose: candidate documents per answer.")
def bind_command(path: str, bindings: str | None, output: str, no_new_answers: bool, to_format: str, propose: bool,
                 collection: str | None, retriever: str, judge_spec: str | None, judge_option: tuple[str, ...],
                 depth: int) -> None:
    """Add answer-document bindings from an assessor file: JSONL {request_id, nugget_id (or question),
    answer, doc_id} or a CSV/TSV with those columns (with an `accept` column, only the rows it marks yes).

    With --propose, nothing is bound: every answer that no document attests is searched for in the
    collection (its question and answer as the query), a judge may read each candidate passage, and the
    candidates go to an assessor sheet (CSV: accept, request_id, nugget_id, question, answer, doc_id, rank,
    search_score, judge, judge_says, confidence, passage). Mark the right rows accept = yes, then bind the
    sheet.

    \b
    Example on the sample track (bindings an assessor found, e.g. with `argue-eval search`):
      # assessors write found.csv with the bindings they found (request_id,nugget_id,answer,doc_id)
      argue-eval nuggets bind nuggets/sample/nuggets.jsonl found.csv -o nuggets.bound.jsonl
      topic s01, nugget s01-n1: new answer 'E. coli bacteria'
      added 2 bindings (1 new answers) -> nuggets.bound.jsonl
    \b
    Propose documents for unbound answers, review, bind (every answer of the sample bank is bound, so
    there the sheet is empty; docs/organizer.md shows it on a bank stripped of bindings):
      argue-eval nuggets bind nuggets/sample/nuggets.jsonl --propose --collection topics/sample/collection.jsonl \\
          --judge lexical -o proposals.csv
      # assessors write yes in the accept column of the rows of proposals.csv to bind
      argue-eval nuggets bind nuggets/sample/nuggets.jsonl proposals.csv -o nuggets.bound.jsonl
    """
    from ..api import bind_nuggets, write_nuggets

    context = click.get_current_context()

    def given(parameter: str) -> bool:  # on the command line, not a default (so --depth 5 counts too)
        return context.get_parameter_source(parameter) is click.core.ParameterSource.COMMANDLINE

    if propose:
        if bindings is not None:
            raise OptionError("--propose", "writes a sheet to review; give no BINDINGS file with it")
        if collection is None:
            raise OptionError("--propose", "needs --collection (the documents to search)")
        if given("to_format"):
            raise OptionError("--to", "--propose writes a CSV sheet; --to applies when binding the reviewed sheet")
        _propose(path, output, collection, retriever, judge_spec, judge_option, depth)
        return
    ignored = [option for option, parameter in (("--collection", "collection"), ("--judge", "judge_spec"),
                                                ("--judge-option", "judge_option"), ("--search", "retriever"),
                                                ("--depth", "depth")) if given(parameter)]
    if ignored:
        raise OptionError(", ".join(ignored), "only apply with --propose (binding reads the BINDINGS file)")
    if bindings is None:
        raise OptionError("BINDINGS", "give the BINDINGS file to read (or --propose to write candidates for review)")
    refuse_stdout_data(output)
    result = bind_nuggets(path, bindings, allow_new_answers=not no_new_answers)
    for note in result.notes:  # each new answer
        click.echo(note.text, err=True)
    write_nuggets(result, output, to_format)
    summary_line(f"added {result.counts['added']} bindings ({result.counts['new_answers']} new answers) -> {output}",
                 result, err=output == "-", output=output)  # with -o -, stdout holds the data


def _propose(path: str, output: str, collection: str, retriever: str, judge_spec: str | None,
             judge_option: tuple[str, ...], depth: int) -> None:
    from ..api import propose_bindings, write_proposals
    from ._options import parse_judge_options

    options = parse_judge_options(judge_option, None) if judge_spec is not None else None
    result = propose_bindings(path, collection, retriever=retriever, judge=judge_spec, judge_options=options,
                              depth=depth)
    refuse_stdout_data(output)
    write_proposals(result, output)
    counts = result.counts
    summary_line(f"{counts['unbound']} answer(s) bound to no document; {counts['candidates']} candidate(s) for "
               f"{counts['answers']} of them" + (f", judged by {judge_spec}" if judge_spec else ", ranked by search score")
               + f" -> {output}; mark accept = yes on the rows to keep, then: argue-eval nuggets bind "
               f"{path} {output} -o BOUND", result, output=output)


def _add_creation_commands() -> None:
    from .nuggets_create import compare_command, create_command

    command.add_command(create_command)
    command.add_command(compare_command)


_add_creation_commands()
