"""Comprehensiveness (Dejl et al.), the NLI-graph variant: which context statements does the report reach?

Nodes are atoms: the report's (response atoms, its sentences) and the context's (nugget answers as
statements, or the sentences of context documents). Edges are entailments, response -> context and
context -> context (an equivalence is an edge each way). Strongly connected components are condensed
into clusters (logically equivalent atoms). A context cluster is *covered* when some response atom has a
path to it; ``comprehensiveness = covered / (covered + uncovered)`` context clusters. The *uncovered
basis* is the uncovered clusters that no other uncovered cluster reaches: the smallest set of statements
the report would have had to add (a more specific statement entails the general one it implies).

Pairwise judging is quadratic, so candidate pairs are pruned lexically first (a pair whose hypothesis
shares too little with its premise is not asked and counts as no edge); ``pairs_judged`` and
``pairs_all`` say how much was saved. A pair the judge could not judge is an *unknown* edge: the graph
is solved twice, unknown edges absent and present, and a cluster whose coverage differs is *unjudged*:
out of the denominator, never counted as uncovered.

The end-to-end variant (``score_topics_e2e``) asks the LLM once per report which context statements the
report covers, with no graph. Graph work is networkx (the ``graph`` extra); this module never reads a file.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..family import Family, Ratio
from .longrecall import Fact, fuzzy_jaccard, tokens

__all__ = ["family", "solve", "GraphResult", "candidate_pairs", "score_topic", "score_topics_e2e", "COUNTS"]

COUNTS = ("context_atoms", "context_clusters", "covered_clusters", "uncovered_clusters", "unjudged_clusters",
          "basis", "pairs_all", "pairs_judged", "pairs_unjudged")

Node = tuple[str, int]
"""``("r", i)`` for response atom i, ``("c", j)`` for context atom j."""


def family(**params: Any) -> Family:
    return Family(
        name="comprehensiveness",
        counts=COUNTS,
        ratios=(Ratio("comprehensiveness", "covered_clusters", "context_clusters"),),
        params=params,
        description="Comprehensiveness (Dejl et al.): context clusters reached from the report in the "
                    "entailment graph.",
    )


def _networkx() -> Any:
    try:
        import networkx
    except ImportError as error:
        from ..errors import MissingDependencyError

        raise MissingDependencyError("the comprehensiveness graph", "graph", str(error)) from None
    return networkx


@dataclass
class GraphResult:
    """Clusters of context atoms (lists of atom indexes), which are covered, uncovered, unjudged, the basis."""

    clusters: list[list[int]]
    covered: list[int] = field(default_factory=list)
    uncovered: list[int] = field(default_factory=list)
    unjudged: list[int] = field(default_factory=list)
    basis: list[int] = field(default_factory=list)
    """Indexes into ``clusters``."""


def _graph(responses: int, contexts: int, edges: Sequence[tuple[Node, Node]]) -> tuple[Any, dict[int, frozenset], set[Node]]:
    """The condensation, its clusters (node -> atoms) and the context atoms some response atom reaches."""
    nx = _networkx()
    graph = nx.DiGraph()
    graph.add_nodes_from(("r", i) for i in range(responses))
    graph.add_nodes_from(("c", j) for j in range(contexts))
    graph.add_edges_from(edges)
    condensed = nx.condensation(graph)
    members = {n: frozenset(condensed.nodes[n]["members"]) for n in condensed.nodes}
    reached: set[int] = set()
    for n, atoms in members.items():
        if any(kind == "r" for kind, _ in atoms):
            reached.add(n)
            reached.update(nx.descendants(condensed, n))
    covered_atoms = {atom for n in reached for atom in members[n] if atom[0] == "c"}
    return condensed, members, covered_atoms


def solve(responses: int, contexts: int, edges: Sequence[tuple[Node, Node]],
          unknown: Sequence[tuple[Node, Node]] = ()) -> GraphResult:
    """Clusters, coverage and basis of a fact graph with ``responses`` + ``contexts`` atoms.

    ``unknown`` edges are those the judge could not decide: a cluster that is covered only when they are
    present is unjudged. Clusters are those of the graph of the known edges, ordered by their first atom.
    """
    nx = _networkx()
    condensed, members, covered_atoms = _graph(responses, contexts, edges)
    optimistic = _graph(responses, contexts, [*edges, *unknown])[2] if unknown else covered_atoms
    context_nodes = sorted((n for n, atoms in members.items() if any(kind == "c" for kind, _ in atoms)),
                           key=lambda n: min(j for kind, j in members[n] if kind == "c"))
    result = GraphResult(clusters=[sorted(j for kind, j in members[n] if kind == "c") for n in context_nodes])
    uncovered_nodes = set()
    for i, n in enumerate(context_nodes):
        atoms = {atom for atom in members[n] if atom[0] == "c"}
        if atoms & covered_atoms:
            result.covered.append(i)
        elif atoms & optimistic:
            result.unjudged.append(i)
        else:
            result.uncovered.append(i)
            uncovered_nodes.add(n)
    for i in result.uncovered:
        if not nx.ancestors(condensed, context_nodes[i]) & uncovered_nodes:
            result.basis.append(i)
    return result


def candidate_pairs(response: Sequence[str], context: Sequence[str], min_overlap: float) -> tuple[list[tuple[Node, Node]], int]:
    """Pairs (premise, hypothesis) worth asking: response -> context and context -> context (both ways)
    whose fuzzy token Jaccard reaches ``min_overlap``; and the number of all such pairs before pruning."""
    response_tokens = [tokens(text) for text in response]
    context_tokens = [tokens(text) for text in context]
    pairs: list[tuple[Node, Node]] = []
    total = 0
    for j, hypothesis in enumerate(context_tokens):
        for i, premise in enumerate(response_tokens):
            total += 1
            if fuzzy_jaccard(premise, hypothesis) >= min_overlap:
                pairs.append((("r", i), ("c", j)))
        for k, premise in enumerate(context_tokens):
            if k == j:
                continue
            total += 1
            if fuzzy_jaccard(premise, hypothesis) >= min_overlap:
                pairs.append((("c", k), ("c", j)))
    return pairs, total


Checker = Callable[[Sequence[tuple[str, Fact]]], list[bool | None]]


def statement(fact: Fact) -> str:
    """A context atom as a premise: a nugget answer with its question for context, or the atom's text."""
    if fact.question and fact.answers:
        return f"{fact.question} {fact.answers[0]}"
    return fact.text


def score_topic(response: Sequence[str], context: Sequence[Fact], check: Checker,
                min_overlap: float = 0.1) -> tuple[dict[str, float], dict[str, Any]]:
    """Counts and details of one report against its context atoms (entailment by ``check``)."""
    context_texts = [statement(fact) for fact in context]
    pairs, total = candidate_pairs(response, context_texts, min_overlap)
    asked = [(response[a[1]] if a[0] == "r" else context_texts[a[1]], context[b[1]]) for a, b in pairs]
    verdicts = check(asked) if asked else []
    edges = [pair for pair, verdict in zip(pairs, verdicts) if verdict]
    unknown = [pair for pair, verdict in zip(pairs, verdicts) if verdict is None]
    result = solve(len(response), len(context), edges, unknown)
    counts: dict[str, float] = {
        "context_atoms": len(context),
        "context_clusters": len(result.covered) + len(result.uncovered),
        "covered_clusters": len(result.covered),
        "uncovered_clusters": len(result.uncovered),
        "unjudged_clusters": len(result.unjudged),
        "basis": len(result.basis),
        "pairs_all": total,
        "pairs_judged": len(pairs),
        "pairs_unjudged": len(unknown),
    }

    def cluster(i: int) -> dict[str, Any]:
        atoms = result.clusters[i]
        return {"atoms": [context[j].fact_id for j in atoms], "statement": context_texts[atoms[0]]}

    details: dict[str, Any] = {
        "covered": [cluster(i) for i in result.covered],
        "uncovered": [cluster(i) for i in result.uncovered],
        "unjudged": [cluster(i) for i in result.unjudged],
        "basis": [cluster(i) for i in result.basis],
        "edges": [{"from": f"{a[0]}{a[1]}", "to": f"c{b[1]}"} for a, b in edges],
    }
    return counts, details


def score_topics_e2e(reports: Sequence[tuple[str, Sequence[str], Sequence[Fact]]], tasks: Any
                     ) -> list[tuple[dict[str, float], dict[str, Any]] | None]:
    """The end-to-end variant (Dejl et al. section 3.3): one LLM call per report, given the report and its
    topic's context statements, says which statements the report covers.

    ``reports`` are ``(request_id, sentences, context atoms)``. Each statement is its own cluster (no
    graph: the model weighs equivalent statements itself), so the uncovered basis is every uncovered
    statement. ``None`` for a report the model could not judge (after a re-ask): the caller reports it,
    it is never a zero. A report without context atoms, or without sentences (empty or missing: it
    covers nothing), costs no call.
    """
    from ..judges.llm_tasks import COVERED, TaskItem

    asked = [i for i, (_, sentences, context) in enumerate(reports) if context and sentences]
    items = [TaskItem(reports[i][0], {"statements": {f"S{j + 1}": statement(fact) for j, fact in enumerate(reports[i][2])},
                                      "report": " ".join(reports[i][1])}) for i in asked]
    answers = dict(zip(asked, tasks.run("coverage", items)))
    out: list[tuple[dict[str, float], dict[str, Any]] | None] = []
    for i, (_, _, context) in enumerate(reports):
        answer = answers.get(i, {})  # not asked: an empty (or missing) report covers nothing
        if answer is None:
            out.append(None)
            continue
        covered = [j for j in range(len(context)) if answer.get(f"S{j + 1}") == COVERED]
        uncovered = [j for j in range(len(context)) if answer.get(f"S{j + 1}") != COVERED]
        counts: dict[str, float] = {"context_atoms": len(context), "context_clusters": len(context), "covered_clusters": len(covered),
                  "uncovered_clusters": len(uncovered), "unjudged_clusters": 0, "basis": len(uncovered),
                  "pairs_all": 0, "pairs_judged": 0, "pairs_unjudged": 0}

        def cluster(j: int, context: Sequence[Fact] = context) -> dict[str, Any]:
            return {"atoms": [context[j].fact_id], "statement": statement(context[j])}

        out.append((counts, {"covered": [cluster(j) for j in covered], "uncovered": [cluster(j) for j in uncovered],
                             "unjudged": [], "basis": [cluster(j) for j in uncovered]}))
    return out
