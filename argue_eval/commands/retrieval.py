"""``argue-eval retrieval``: retrieval measures for ranked runs or the documents reports cite."""
from __future__ import annotations

from typing import Any

import click

from ._common import format_option
from ._options import verbosity_options
from ._output import emit, json_mode, refuse_stdout_data
from ._paths import InputPath, OutputPath


@click.command(name="retrieval")
@verbosity_options
@click.argument("run_files", nargs=-1, type=InputPath(exists=True))
@click.option("--run", "more_runs", multiple=True, type=InputPath(exists=True), metavar="RUN",
              help="A ranked run (TREC 6-column) or report run to evaluate (repeatable; same as an argument).")
@click.option("--qrels", type=InputPath(exists=True, dir_okay=False), default=None,
              help="TREC qrels (topic iteration doc_id grade).")
@click.option("--nuggets", type=InputPath(exists=True, folder=True), default=None,
              help="Instead of --qrels: derive relevance from a nugget bank (grade = nuggets a document attests).")
@click.option("--measures", "-m", "measures", multiple=True, default=("ndcg@20", "recall@100", "map", "P@10"),
              show_default=True,
              help='Measures, space or comma separated (e.g. "ndcg@20 recall@100 map P@10"); trec_eval names '
              "(P_10, ndcg_cut_20, recip_rank, Rprec) work too.")
@click.option("--missing", type=click.Choice(["zero", "skip"]), default="zero", show_default=True,
              help="Topics of the qrels a run lacks: score 0 (trec_eval -c) or leave them out (trec_eval default).")
@click.option("--on-duplicate", type=click.Choice(["error", "max", "last"]), default="error", show_default=True,
              help="Duplicate (topic, document) lines in the qrels.")
@click.option("--engine", type=click.Choice(["ir_measures", "ranx"]), default="ir_measures", show_default=True,
              help="ir_measures: the C trec_eval (pytrec_eval) and ndeval (pyndeval), fast; ranx: slower to start "
              "(numba), adds dcg and rbp.")
@click.option("--diversity", is_flag=True,
              help="The qrels are diversity qrels (topic subtopic doc grade, TREC Web Track): alpha-nDCG@k, ERR-IA@k "
              "and nERR-IA@k read the subtopics; the other measures read each document's highest grade.")
@click.option("--trec-eval", "trec_eval_text", is_flag=True,
              help="Print trec_eval -q text (measure, topic, value to 4 decimals; trec_eval's measure names) "
              "instead of the score table.")
@click.option("-o", "--output", type=OutputPath(dir_okay=False), default=None,
              help="Write the score table (TSV: run_id request_id metric value) here instead of stdout.")
@format_option
def command(run_files: tuple[str, ...], more_runs: tuple[str, ...], qrels: str | None, nuggets: str | None,
            measures: tuple[str, ...], missing: str, on_duplicate: str, engine: str, diversity: bool,
            trec_eval_text: bool, output: str | None, format_name: str | None) -> None:
    """Retrieval measures (nDCG, MAP, recall, ...) for ranked runs or cited documents.

    trec_eval's measures, via ir_measures, for ranked runs, or for the documents a report cites taken as a ranked
    list in order of first citation.

    Follows trec_eval: a run's documents are ranked by score descending, then document id descending
    (the rank column is ignored); topics of the qrels missing from a run score 0 (like trec_eval -c);
    topics not in the qrels are ignored. The output is our long score table, per topic plus an `all`
    row (the mean), so `argue-eval compare` can test differences. Measures: ndcg, map, P, recall,
    recip_rank, Rprec, bpref, infAP, success, f1, hits, judged@k, ERR@k; with --diversity alpha-nDCG@k,
    ERR-IA@k, nERR-IA@k.

    \b
    Example on the sample track:
      argue-eval retrieval --qrels qrels/sample/qrels.trec runs/sample/ranked/bm25.trec \\
          --measures "ndcg@10 recall@20 map P@5"
      run_id  request_id  metric     value
      bm25    s01         ndcg@10    0.8883364803307394
      bm25    s01         recall@20  1.0
      ...
      argue-eval retrieval --qrels qrels/sample/qrels.trec runs/sample/*.jsonl -m "ndcg@10 P@5" -o cited.tsv
    """
    from ..api.retrieval import retrieval

    result = retrieval(list(run_files) + list(more_runs), qrels=qrels, nuggets=nuggets, measures=measures,
                       missing=missing, on_duplicate=on_duplicate, engine=engine, diversity=diversity,
                       format=format_name)
    _render(result, trec_eval_text, output)


def _render(result: Any, trec_eval_text: bool, output: str | None) -> None:
    """The scores as trec_eval -q text or as our score table, on stdout or atomically to ``output``."""
    from ..api import write_scores
    from ..api.result import SCORE_COLUMNS
    from ..views import write_output

    rows = result.rows
    if json_mode():
        refuse_stdout_data(output or "")
        if output:
            if trec_eval_text:
                write_output("\n".join(result.trec_eval_lines()) + "\n", output)
            else:
                write_scores(rows, output)
        table = None if output else {"title": None, "columns": list(SCORE_COLUMNS), "rows": rows, "notes": []}
        emit(None, tables=[table] if table else (), summary=f"wrote {len(rows)} scores -> {output}" if output else None,
             output=output, scores=len(rows))
        return
    if trec_eval_text:
        text = "\n".join(result.trec_eval_lines()) + "\n"
        if output:
            write_output(text, output)
            click.echo(f"wrote {len(rows)} scores (trec_eval -q text) -> {output}", err=True)
        else:
            click.echo(text, nl=False)
    elif output:
        write_scores(rows, output)
        click.echo(f"wrote {len(rows)} scores -> {output}", err=True)
    else:
        write_scores(rows, "-")
