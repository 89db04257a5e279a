"""``argue-eval convert``: rewrite a requests, nuggets, run, qrels or judgments file in another format.

Auto-ARGUE judgments files are the one input that holds several kinds at once (judgments, the judged run,
the cited documents' texts): ``--kind`` says which to take out (``argue_eval.formats.autoargue``).
"""
from __future__ import annotations

import click

from ..errors import OptionError
from ..formats.base import KINDS
from ._common import format_option
from ._options import verbosity_options
from ._paths import InputPath, OutputPath

CONVERT_KINDS = (*KINDS, "collection")
COLLECTION_FORMAT = "jsonl"


@click.command(name="convert")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@click.option("--to", "target", required=True, metavar="FORMAT",
              help="Output format (e.g. argue, neuclir24, ragtime, autoargue-v3; jsonl for --kind collection).")
@click.option("-o", "--output", required=True, type=OutputPath(folder=True), help="Output file (a directory for autoargue-v3).")
@click.option("--kind", type=click.Choice(CONVERT_KINDS), default=None,
              help="What to read the file as, if detection should not guess. From an Auto-ARGUE judgments file: "
                   "runs = the judged reports, collection = the cited documents' texts.")
@format_option
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N",
              help="The nugget bank an Auto-ARGUE judgments file was judged with (any nugget format); needed to "
                   "convert its judgments: nugget ids, and the answers shown to the judge and not matched (no).")
def command(path: str, target: str, output: str, kind: str | None, format_name: str | None,
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
          --kind collection --to jsonl -o h.docs.jsonl
      argue-eval evaluate --run h.run.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection h.docs.jsonl \\
          --missing-topics skip -o h.lexical.tsv
      argue-eval score --run h.run.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments h.judgments.jsonl --missing-topics skip -o h.converted.tsv
    """
    from pathlib import Path

    from ..errors import InputError
    from ..formats import all_formats, get_format, resolve
    from ..progress import progress

    if kind == "collection":
        _cited_documents(path, target, output, format_name, nuggets)
        return
    source = resolve(path, kind, format_name)  # type: ignore[arg-type]
    writable = ", ".join(sorted(s.name for s in all_formats() if s.kind == source.kind and s.write is not None))
    try:
        spec = get_format(target, source.kind)
    except InputError:
        if target == COLLECTION_FORMAT:
            raise OptionError("--to", f"{path} is a {source.kind} file; {target!r} writes a collection, "
                             "which --kind collection takes out of an Auto-ARGUE judgments file") from None
        others = sorted({s.kind for s in all_formats() if target in (s.name, *s.aliases)})
        if others:
            raise OptionError("--to", f"{path} is a {source.kind} file; {target!r} is a {'/'.join(others)} format (convert keeps the kind)") from None
        raise OptionError("--to", f"unknown {source.kind} format {target!r}; writable {source.kind} formats: {writable}") from None
    if spec.write is None:
        raise OptionError("--to", f"{source.kind} format {spec.name!r} can be read but not written; "
                         f"writable {source.kind} formats: {writable}")
    if (source.kind, source.name) == ("judgments", "autoargue"):
        _autoargue_judgments(path, spec, output, nuggets)
        return
    if nuggets is not None:
        raise OptionError("--nuggets", f"only converting Auto-ARGUE judgments uses a nugget bank; {path} "
                         f"is a {source.kind} file ({source.name} format)")
    # what the target format cannot hold is said on stderr as it is written (cli._show_lossy_writes_as_warnings)
    records = progress(source.read(Path(path)), desc=f"convert {Path(path).name}", unit=" rec")
    count = spec.write(records, Path(output))
    click.echo(f"{path} ({source.kind}, {source.name}) -> {output} ({spec.name}): {count} records", err=True)


def _autoargue_judgments(path: str, spec, output: str, nuggets: str | None) -> None:
    """Auto-ARGUE judgments -> canonical judgments, every answer kept (``formats.autoargue.convert_judgments``)."""
    from pathlib import Path

    from ..formats import read_nuggets
    from ..formats.autoargue import convert_judgments

    if nuggets is None:
        raise OptionError("--nuggets", f"{path} holds Auto-ARGUE judgments; converting them needs the nugget bank they were judged with "
            "(--nuggets N): a SENTENCE_ANSWERS_QUESTION judgment lists only the answers it matched, by text, and the "
            "bank gives their nugget ids and the cited document's other answers, which were answered no",
        )
    conversion = convert_judgments(path, list(read_nuggets(nuggets)))
    count = spec.write(conversion.judgments, Path(output))
    for line in conversion.summary():
        click.echo(line, err=True)
    for line in conversion.losses():
        click.echo(f"warning: {line}", err=True)
    click.echo(f"{path} (judgments, autoargue) -> {output} ({spec.name}): {count} records", err=True)


def _cited_documents(path: str, target: str, output: str, format_name: str | None, nuggets: str | None) -> None:
    """--kind collection: the documents an Auto-ARGUE file cites, with their texts, as a JSONL collection."""
    from ..collection.jsonl import write_documents
    from ..errors import InputError
    from ..formats import resolve
    from ..formats.autoargue import DocumentExtraction, iter_cited_documents

    if nuggets is not None:
        raise OptionError("--nuggets", "--kind collection does not use a nugget bank")
    if target != COLLECTION_FORMAT:
        raise OptionError("--to", f"a collection is written as {COLLECTION_FORMAT!r} (one {{doc_id, text}} "
                         f"per line); {target!r} is not a collection format")
    source = resolve(path, None, format_name)
    if (source.kind, source.name) != ("judgments", "autoargue"):
        raise InputError(path, None, None, f"--kind collection takes the cited documents' texts out of an Auto-ARGUE "
                         f"judgments file; this is a {source.kind} file ({source.name} format), which holds no texts")
    seen = DocumentExtraction()
    count = write_documents(iter_cited_documents(path, seen), output)
    if seen.without_text:
        shown = ", ".join(seen.without_text[:5]) + (", ..." if len(seen.without_text) > 5 else "")
        click.echo(f"warning: {path}: {len(seen.without_text)} cited document(s) come with no text and are not in the "
                   f"collection: {shown}", err=True)
    click.echo(f"{path} (judgments, autoargue) -> {output} (collection, {COLLECTION_FORMAT}): {count} documents "
               f"from {seen.citations} citations", err=True)
