"""``argue-eval nuggetizer``: TREC RAG nuggetizer scores from nuggetizer assignment files."""
from __future__ import annotations

import click

from ._measures import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("nuggetizer")
@verbosity_options
@click.argument("assignments", nargs=-1, type=InputPath(), metavar="[ASSIGNMENTS]...")
@click.option("--run", "runs", multiple=True, type=InputPath(), metavar="RUN",
              help="Judge the assignments ourselves for this run (repeatable), instead of reading them.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N", help="With --run: the nuggets (their importance labels).")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C", help="With --run: the documents the runs cite.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.tsv", help="Score table (long TSV); '-' for stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="D.jsonl",
              help="One JSON line per run x topic: every nugget, its importance, assignment and credit.")
@click.option("--okay-weight", type=Number(0, 1), default=0.5, show_default=True,
              help="Weight of an okay nugget in the weighted score (a vital one weighs 1).")
@measure_judge_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
def command(assignments, runs, nuggets, collection, output, details_path, okay_weight, judge_spec, judge_option,
            nli_model, cache_path, no_cache, quiet) -> None:
    """Score nuggetizer assignments as TREC RAG does: vital, all, strict_vital, strict_all, weighted.

    Reads nuggetizer's assignment output (one answer per line: qid, run_id, nuggets with importance
    and assignment support / partial_support / not_support). Partial support earns 0.5 except in the
    strict scores. A nugget nuggetizer could not grade ("failed") is counted in unjudged_nuggets and
    left out of the denominators, never scored as unsupported. Writes the long TSV that `compare`
    and `agree` read.

    With --run, --nuggets and --collection the assignments are judged by our judge (--judge): support
    when a sentence gives the nugget (an answer, or the statement) and a document it cites attests that
    sentence; partial_support when it is given but not attested; not_support when no sentence gives it.

    \b
    Example:
      argue-eval nuggetizer run-a.assignments.jsonl run-b.assignments.jsonl -o nuggetizer.tsv
      argue-eval compare nuggetizer.tsv --metric all
      argue-eval nuggetizer --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl -o nuggetizer.tsv
    """
    from ..errors import ArgueError
    from ..measures import TopicCounts, family_rows
    from ..measures.nuggetizer import counts, details, family
    from ._measures import summary, write_outputs

    if runs:  # --run runs/*.jsonl: the shell puts the other files after the first as arguments
        runs, assignments = tuple(runs) + tuple(assignments), ()
    if not assignments and not runs:
        raise ArgueError("give nuggetizer assignment files, or --run (with --nuggets and --collection)")
    if runs and not (nuggets and collection):
        raise ArgueError("--run needs --nuggets and --collection (the judge reads the cited documents)")
    answers = read_all(assignments) if assignments else judged(runs, nuggets, collection, judge_spec, judge_option,
                                                              nli_model, cache_path, no_cache)
    seen: dict[tuple[str, str], str] = {}
    results = []
    records = []
    for answers_of_file in answers:
        for answer in answers_of_file:
            key = (answer.run_id, answer.request_id)
            if key in seen:
                raise ArgueError(f"{answer.path}:{answer.line}: qid: run {answer.run_id!r} has a second answer for "
                                 f"topic {answer.request_id!r} (first at {seen[key]})")
            seen[key] = f"{answer.path}:{answer.line}"
            results.append(TopicCounts(answer.run_id, answer.request_id, counts(answer.nuggets, okay_weight)))
            records.append(details(answer.run_id, answer.request_id, answer.nuggets, okay_weight))
    from ..model import natural_key

    order = sorted(range(len(results)), key=lambda i: (results[i].run_id, natural_key(results[i].request_id)))
    rows = family_rows(family(okay_weight), [results[i] for i in order])
    header = {"measure": "nuggetizer", "settings": {"okay_weight": okay_weight, "partial_credit": 0.5}}
    write_outputs(rows, output, [header] + [records[i] for i in order], details_path)
    unjudged = sum(r.counts["unjudged_nuggets"] for r in results)
    click.echo(f"nuggetizer: {len({r.run_id for r in results})} run(s), {len(results)} answer(s); {unjudged} "
               "nugget(s) could not be graded" + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        click.echo(summary(rows, ["all_macro", "vital_macro", "strict_all_macro", "strict_vital_macro",
                                  "weighted_macro"], "nuggetizer scores, macro averages over topics:"), nl=False)


def read_all(paths):
    from ..formats.assignments import read_assignments

    return [read_assignments(path) for path in paths]


def judged(runs, nuggets, collection, judge_spec, judge_option, nli_model, cache_path, no_cache):
    """Assignments judged by our backends, as ``AssignedAnswer`` records (one list for all runs)."""
    from ..collection import open_collection
    from ..formats.assignments import AssignedAnswer
    from ..measures.entail import JudgeEntailer, JudgeFactChecker
    from ..measures.longrecall import Fact, Settings, TopicFacts, score_topics
    from ..measures.nuggetizer import judge_assignments
    from ._measures import make_entailer_judge, open_cache, read_nugget_topics, read_runs, topic_order

    topics = read_nugget_topics(nuggets)
    reports = read_runs(runs)
    judge = make_entailer_judge(judge_spec, judge_option, nli_model)
    cache = open_cache(cache_path, no_cache)
    out = []
    try:
        with open_collection(collection) as store:
            checker = JudgeFactChecker(judge, cache=cache)
            entail = JudgeEntailer(judge, cache=cache)
            by_key = {(r.run_id, r.request_id): r for r in reports}
            for run_id in dict.fromkeys(r.run_id for r in reports):
                for request_id in topic_order(topics):
                    report = by_key.get((run_id, request_id))
                    sentences = [(" ".join(s.text.split()), tuple(s.citations))
                                 for s in (report.sentences if report else []) if s.text.strip()]
                    items = [(n.question, n.importance,
                              Fact(n.nugget_id, n.question, n.question, tuple(a.text for a in n.answers)))
                             for n in topics[request_id].nuggets if not n.negative]
                    result = score_topics([TopicFacts(run_id, request_id, [t for t, _ in sentences],
                                                      [fact for _, _, fact in items])], checker, Settings(), None)[0]
                    found = {i: (r.by if r.status == "covered" else None)
                             for i, r in enumerate(result.facts) if r.status != "unjudged"}

                    def attested(index, sentences=sentences):
                        text, cites = sentences[index]
                        docs = [store.lookup(doc_id) for doc_id in cites]
                        pairs = [(f"{d.title}. {d.text}" if d.title else d.text, text) for d in docs if d is not None]
                        verdicts = entail(pairs) if pairs else []
                        if any(verdicts):
                            return True
                        if any(v is None for v in verdicts) or len(pairs) < len(cites):
                            return None  # a verdict or a cited document is missing: not a no
                        return False

                    out.append(AssignedAnswer(run_id, request_id, judge_assignments(sentences, items, found, attested),
                                              "(judged)", 0))
    finally:
        if cache is not None:
            cache.close()
    return [out]
