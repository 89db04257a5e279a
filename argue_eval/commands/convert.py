"""``argue-eval convert``: rewrite a requests, nuggets, run, qrels or judgments file in another format.

Auto-ARGUE judgments files are the one input that holds several kinds at once (judgments, the judged run,
the cited documents' texts): ``--kind`` says which to take out (``argue_eval.formats.autoargue``).
"""
from __future__ import annotations

import click

from ._choices import KINDS
from ._common import format_option
from ._options import verbosity_options
from ._paths import InputPath, OutputPath

CONVERT_KINDS = (*KINDS, "collection")


@click.command(name="convert")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@click.option("--to", "target", default=None, metavar="FORMAT",
              help="Output format (e.g. argue, neuclir24, ragtime, autoargue-v3); --kind collection writes jsonl, "
                   "its only format, without it.")
@click.option("-o", "--output", required=True, type=OutputPath(folder=True), help="Output file (a directory for autoargue-v3).")
@click.option("--kind", type=click.Choice(CONVERT_KINDS), default=None,
              help="What to read the file as, if detection should not guess. From an Auto-ARGUE judgments file: "
                   "runs = the judged reports, collection = the cited documents' texts.")
@format_option
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N",
              help="The nugget bank an Auto-ARGUE judgments file was judged with (any nugget format); needed to "
                   "convert its judgments: nugget ids, and the answers shown to the judge and not matched (no).")
def command(path: str, target: str | None, output: str, kind: str | None, format_name: str | None,
            nuggets: str | None) -> None:
    """Convert PATH to another format of the same kind, written atomically to --output.

    The input format is detected (or named with --format). Everything the target format can hold is
    kept; what it cannot (e.g. citation scores in a NeuCLIR 2024 run) is dropped with a warning on
    stderr, and data the target cannot express at all (e.g. two nuggets with the same question for a
    NuggetBank v3) stops the conversion with an error, leaving no output.

    An Auto-ARGUE *.judgments.jsonl holds a run, the text of every cited document and the judgments. Its
    judgments convert to canonical judgments with --nuggets (the bank they were judged with): every answer
    is kept, the matched ones as yes and the other answers of the cited document as no, under the bank's
    nugget ids, so `score` on them with the run gives the same table. --kind runs takes out the run (write it
    as ragtime, the shape Auto-ARGUE embeds), --kind collection the cited documents as a JSONL collection
    ({doc_id, text}, the text as the judge saw it), so that another judge can re-judge the same reports.

    \b
    Examples:
      argue-eval convert runs/sample/careful.jsonl --to ragtime -o careful.ragtime.jsonl
      argue-eval convert careful.ragtime.jsonl --to argue -o careful.argue.jsonl
      argue-eval convert nuggets/sample/nuggets.jsonl --to autoargue-v3 -o nuggets-v3/
    \b
    Auto-ARGUE judgments (the sample assessors' judgments of two reports, in Auto-ARGUE's shape): convert
    them; take out the run and the cited documents; re-judge the same reports with another judge (here the
    offline default); score the converted judgments (the same table as `score` on the original file):
      argue-eval convert qrels/sample/hallucinating.autoargue.judgments.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl --to argue -o h.judgments.jsonl
      argue-eval convert qrels/sample/hallucinating.autoargue.judgments.jsonl \\
          --kind runs --to ragtime -o h.run.jsonl
      argue-eval convert qrels/sample/hallucinating.autoargue.judgments.jsonl \\
          --kind collection -o h.docs.jsonl
      argue-eval evaluate --run h.run.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection h.docs.jsonl \\
          --missing-topics skip -o h.lexical.tsv
      argue-eval score --run h.run.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments h.judgments.jsonl --missing-topics skip -o h.converted.tsv
    """
    from ..api.convert import convert
    from ..errors import OptionError

    if target is None and kind != "collection":
        raise OptionError("--to", "missing --to FORMAT: the format to write (argue, neuclir24, ragtime, autoargue-v3, ...)")
    from ._output import emit, json_mode, refuse_stdout_data

    refuse_stdout_data(output)
    result = convert(path, target, output, kind=kind, format=format_name, nuggets=nuggets)
    if json_mode():
        emit(counts={result.unit: result.written}, input=path, source=result.source, output=output,
             target=result.target, written=result.written, unit=result.unit,
             notes=[*result.notes, *(f"warning: {warning}" for warning in result.warnings)])
        return
    for note in result.notes:
        click.echo(note, err=True)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"{path} ({result.source}) -> {output} ({result.target}): {result.written} {result.unit}", err=True)
