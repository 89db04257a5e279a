"""LongRecall (Ardestani et al.): how many reference facts a report entails, checked in cheap-to-dear stages.

Reference facts ``F`` (nugget questions with their answers, or the sentences of a reference report) are
matched against generated facts ``G`` (the report's sentences). For each reference fact:

1. **lexical candidates**: generated facts that cover at least ``coverage_threshold`` of the fact's tokens
   (fuzzy matches, each token of the sentence used once), or whose fuzzy token Jaccard with the fact reaches
   ``jaccard_threshold``, or whose token LCS, normalized by the fact's length, reaches ``lcs_threshold``;
   the best ``lexical_k`` (by coverage, then Jaccard, then LCS) go to the entailment check. A fact
   entailed here is ``covered_lexical`` and stops. Coverage is the gate a report sentence needs: the paper
   compares atomic facts with atomic facts, where Jaccard over their union suits, but a report sentence is
   several facts long, and a short fact stated inside it shares few of the union's tokens (3 of a 4-token
   fact in a 25-token sentence: Jaccard 3/26 = 0.12, coverage 0.75).
   **Windows**: a fact no single candidate states may be stated by adjacent sentences together (a name in
   one, what is said of it, by a pronoun, in the next: "Pushpa Basnet was a CNN Hero." / "... two CNN
   heroes are among the survivors. Pushpa Basnet runs ..."). With ``window`` 2 or more, runs of that many
   adjacent sentences whose joined tokens cover more of the fact than any one of them (and at least
   ``coverage_threshold``) are checked as one text, best ``lexical_k``; a fact entailed so is
   ``covered_lexical`` with the window's sentences as ``selected``. This is the paper's "smallest set of
   candidates" for a one-to-one checker; with the multiple-choice check (``choose``) no windows are asked,
   since the chooser already picks sets of candidates.
2. **semantic candidates** (when embeddings are available): generated facts whose embedding cosine with
   the fact reaches ``cosine_threshold``, best ``semantic_k``, excluding pairs already checked. A fact
   entailed here is ``covered_semantic``.
3. A fact with no candidate at either stage is uncovered **without a model call**.

The entailment check is a callable, so any judge answers it: one-to-one (each candidate asked on its
own), or, with the LLM, the paper's multiple-choice prompt for a fact with several candidates (pick the
candidate, or the smallest set of candidates, that states the fact: one call), one-to-one for a single
candidate. A fact whose candidates could only be
answered "could not judge" (and none yes) is *unjudged*: out of the denominator, never counted as missed.
``longrecall = covered / judged facts``. Two lexical baselines are reported beside it: ``answer_recall``
(a normalized answer string occurs in some sentence) and ``lcs_recall`` (longest common substring of the
fact and a sentence, normalized by the fact's length, at least ``substring_threshold``; ERecall).

This module is arithmetic over records and callables: it never reads a file or loads a model.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, NamedTuple

from ..family import Family, Ratio
from ..judges.lexical_tokens import EVENT_VERBS

__all__ = ["Fact", "Settings", "TopicFacts", "FactResult", "TopicLongRecall", "family", "score_topics",
           "COUNTS", "tokens", "fact_tokens", "fuzzy_jaccard", "fuzzy_coverage", "lcs_ratio", "substring_ratio", "normalize"]

COUNTS = ("facts", "judged_facts", "covered_facts", "unjudged_facts", "covered_lexical", "covered_semantic",
          "covered_entailment", "no_candidate_facts", "model_calls", "answer_found", "lcs_found")


class Fact(NamedTuple):
    """A reference fact: its text, and for a nugget its question and the answers that state it (any one)."""

    fact_id: str
    text: str
    question: str | None = None
    answers: tuple[str, ...] = ()

    @property
    def variants(self) -> tuple[str, ...]:
        """The strings a report would contain if it states the fact: the answers, or the fact's text."""
        return self.answers or (self.text,)


@dataclass(frozen=True)
class Settings:
    """Every threshold of the pipeline (each is a command-line option and recorded in the output)."""

    jaccard_threshold: float = 0.3
    lcs_threshold: float = 0.6
    fuzzy_ratio: float = 0.85
    lexical_k: int = 3
    cosine_threshold: float = 0.6
    semantic_k: int = 3
    substring_threshold: float = 0.4
    coverage_threshold: float = 0.5
    """Half of the fact's tokens in the sentence: the least a sentence that states the fact can share with it
    (it may paraphrase the rest, which the judge, not the gate, decides)."""
    window: int = 2
    """Adjacent sentences checked together for a fact no single candidate states (1: no windows)."""

    def params(self) -> dict[str, float]:
        return dict(self.__dict__)


def family(**params: Any) -> Family:
    """The LongRecall family (its parameters are recorded as ``param_*`` rows)."""
    return Family(
        name="longrecall",
        counts=COUNTS,
        ratios=(Ratio("longrecall", "covered_facts", "judged_facts"),
                Ratio("answer_recall", "answer_found", "facts"),
                Ratio("lcs_recall", "lcs_found", "facts")),
        params=params,
        aliases={"recall": "longrecall"},
        description="LongRecall (Ardestani et al.): reference facts entailed by the report, staged candidates.",
    )


# --- text comparison ------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset("""a an and are as at be but by for if in into is it no not of on or such that the their then
there these they this to was will with from has have had were been its which who what when where why how
did does do about after than""".split())


def normalize(text: str) -> str:
    """Case-folded NFKC text with punctuation turned to spaces and whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_TOKEN.findall(text))


_GLUED = re.compile(r"(\d+)([^\W\d_]+)")
"""A figure written against its unit or scale word ("440million", "20ft", "30mph")."""
_FIGURE_SUFFIXES = frozenset({"st", "nd", "rd", "th", "s"})
"""Letters that belong to the figure they follow: an ordinal ("35th") or a plural ("1980s")."""


def _words(text: str) -> list[str]:
    """The case-folded words of a text, a figure glued to its unit or scale word read as two ("£440million" is
    "440 million", as the summary that writes "£440 million" has it; the judge's tokenizer reads them so too),
    an ordinal or a decade kept whole ("35th", "1980s")."""
    words: list[str] = []
    for word in _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold()):
        glued = _GLUED.fullmatch(word)
        if glued and glued.group(2) not in _FIGURE_SUFFIXES:
            words.extend(glued.groups())
        else:
            words.append(word)
    return words


def fact_tokens(text: str) -> list[str]:
    """The tokens of a fact (or of an answer) that a sentence stating it shares: ``tokens`` less the verbs that
    only say an event exists ("The Masters will take place in Augusta" is masters augusta: a summary writes
    "the Masters in Augusta", never that it takes place; ``lexical_tokens.EVENT_VERBS``); a fact of nothing else keeps them."""
    content = [word for word in _words(EVENT_VERBS.sub(" ", text)) if word not in _STOP]
    return content or tokens(text)


def tokens(text: str) -> list[str]:
    """Content tokens (stop words dropped; all tokens when only stop words remain); a figure glued to its unit
    is two tokens (``_words``)."""
    words = _words(text)
    content = [w for w in words if w not in _STOP]
    return content or words


def _matched_positions(left: list[str], right: list[str], ratio: float) -> frozenset[int]:
    """The positions of the distinct tokens of ``left`` that match a token of ``right`` (identical, or edit
    similarity at least ``ratio``), each token of ``right`` used at most once."""
    from rapidfuzz import fuzz

    unused = set(range(len(right)))
    matched = []
    exact = {token: i for i, token in enumerate(right)}
    for position, token in enumerate(left):
        hit = exact.get(token)
        if hit is None or hit not in unused:
            hit = next((j for j in sorted(unused) if fuzz.ratio(token, right[j]) >= ratio * 100), None)
        if hit is not None:
            unused.discard(hit)
            matched.append(position)
    return frozenset(matched)


def _fuzzy_matches(left: list[str], right: list[str], ratio: float) -> int:
    """How many distinct tokens of ``left`` match a token of ``right`` (see ``_matched_positions``)."""
    return len(_matched_positions(left, right, ratio))


def fuzzy_jaccard(a: Sequence[str], b: Sequence[str], ratio: float = 0.85) -> float:
    """Token Jaccard where two tokens match when identical or their edit similarity is at least ``ratio``
    (``colour``/``color``); each token matches at most once. 0 when both are empty."""
    left, right = list(dict.fromkeys(a)), list(dict.fromkeys(b))
    if not left and not right:
        return 0.0
    matched = _fuzzy_matches(left, right, ratio)
    return matched / (len(left) + len(right) - matched)


def fuzzy_coverage(fact: Sequence[str], sentence: Sequence[str], ratio: float = 0.85) -> float:
    """The share of the fact's distinct tokens that the sentence has (matched as in ``fuzzy_jaccard``): how much
    of the fact the sentence could state, whatever else the sentence says. 0 for an empty fact."""
    left, right = list(dict.fromkeys(fact)), list(dict.fromkeys(sentence))
    if not left:
        return 0.0
    return _fuzzy_matches(left, right, ratio) / len(left)


def lcs_ratio(fact: Sequence[str], sentence: Sequence[str]) -> float:
    """Longest common token subsequence, normalized by the fact's length (how much of the fact, in order)."""
    from rapidfuzz.distance import LCSseq

    if not fact:
        return 0.0
    return LCSseq.similarity(list(fact), list(sentence)) / len(fact)


def substring_ratio(fact: str, sentence: str) -> float:
    """Longest common character substring of the normalized texts, over the fact's normalized length."""
    a, b = normalize(fact), normalize(sentence)
    if not a or not b:
        return 0.0
    match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return match.size / len(a)


# --- the pipeline ---------------------------------------------------------------------------------------
Checker = Callable[[Sequence[tuple[str, Fact]]], list[bool | None]]
"""(generated sentence, reference fact) pairs -> does the sentence entail the fact (None: could not judge)."""
Chooser = Callable[[Sequence[tuple[list[str], Fact]]], list[list[int] | None]]
"""(candidate sentences, reference fact) -> the positions of the candidates that (together) state the fact,
``[]`` for none, ``None`` when the question could not be answered (LongRecall's multiple-choice check)."""
Embedder = Callable[[list[str]], Any]
"""Texts -> L2-normalized embedding rows (a numpy array)."""


class TopicFacts(NamedTuple):
    """One report on one topic: its sentences (``None`` when the run has no report) and the reference facts."""

    run_id: str
    request_id: str
    sentences: Sequence[str] | None
    facts: Sequence[Fact]


@dataclass
class FactResult:
    fact: Fact
    status: str = "uncovered"
    """covered / uncovered / unjudged."""
    stage: str | None = None
    """lexical / semantic: the stage whose candidate entailed the fact."""
    by: int | None = None
    """Index of the sentence that entails the fact."""
    lexical: list[tuple[int, float, float, float]] = field(default_factory=list)
    """Lexical candidates: (sentence index, fuzzy Jaccard, LCS, coverage of the fact)."""
    semantic: list[tuple[int, float]] = field(default_factory=list)
    """Semantic candidates: (sentence index, cosine)."""
    verdicts: dict[int, bool | None] = field(default_factory=dict)
    selected: list[int] = field(default_factory=list)
    """Multiple choice: the sentences that together state the fact (one, or a minimal set); a window: its
    sentences."""
    windows: list[tuple[int, float]] = field(default_factory=list)
    """Window candidates: (first sentence index, coverage of the fact by the window's joined tokens)."""
    window_verdicts: dict[int, bool | None] = field(default_factory=dict)
    """Verdicts on the windows, by first sentence index."""
    calls: int = 0
    choice_calls: int = 0
    answer_found: bool = False
    lcs_found: bool = False

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"fact_id": self.fact.fact_id, "fact": self.fact.text, "status": self.status}
        if self.fact.answers:
            out["answers"] = list(self.fact.answers)
        if self.stage is not None:
            out["stage"], out["sentence"] = self.stage, self.by
        out["lexical_candidates"] = [{"sentence": i, "coverage": round(c, 4), "jaccard": round(j, 4),
                                      "lcs": round(lcs, 4)} for i, j, lcs, c in self.lexical]
        out["semantic_candidates"] = [{"sentence": i, "cosine": round(c, 4)} for i, c in self.semantic]
        out["entailment"] = {str(i): v for i, v in self.verdicts.items()}
        if self.windows:
            out["window_candidates"] = [{"sentence": i, "coverage": round(c, 4)} for i, c in self.windows]
            out["window_entailment"] = {str(i): v for i, v in self.window_verdicts.items()}
        if self.choice_calls:
            out["multiple_choice_calls"] = self.choice_calls
        if self.selected:
            out["selected"] = self.selected
        out["model_calls"] = self.calls
        out["answer_found"], out["lcs_found"] = self.answer_found, self.lcs_found
        return out


@dataclass
class TopicLongRecall:
    run_id: str
    request_id: str
    facts: list[FactResult]
    sentences: list[str]
    missing_report: bool = False

    @property
    def counts(self) -> dict[str, float]:
        results = self.facts
        covered = [r for r in results if r.status == "covered"]
        unjudged = sum(1 for r in results if r.status == "unjudged")
        return {
            "facts": len(results),
            "judged_facts": len(results) - unjudged,
            "covered_facts": len(covered),
            "unjudged_facts": unjudged,
            "covered_lexical": sum(1 for r in covered if r.stage == "lexical"),
            "covered_semantic": sum(1 for r in covered if r.stage == "semantic"),
            "covered_entailment": len(covered),
            "no_candidate_facts": sum(1 for r in results if not r.lexical and not r.semantic),
            "model_calls": sum(r.calls for r in results),
            "answer_found": sum(1 for r in results if r.answer_found),
            "lcs_found": sum(1 for r in results if r.lcs_found),
        }

    def details(self) -> dict[str, Any]:
        return {"measure": "longrecall", "run_id": self.run_id, "request_id": self.request_id,
                **({"missing_report": True} if self.missing_report else {}),
                "counts": self.counts, "sentences": self.sentences,
                "facts": [r.record() for r in self.facts]}


Hits = list[list[int]]
"""Per variant of a fact, per sentence: the positions of the variant's distinct tokens that the sentence
matches, as the bits of an int (a few bytes per sentence, however many facts a round has)."""


def _lexical_candidates(fact: Fact, sentence_tokens: list[list[str]],
                        settings: Settings) -> tuple[list[tuple[int, float, float, float]], Hits]:
    """The fact's lexical candidates, best first, and the token hits the windows reuse (``_window_candidates``)."""
    scored = []
    variants = [fact_tokens(variant) for variant in fact.variants]
    distinct = [list(dict.fromkeys(variant_tokens)) for variant_tokens in variants]
    hits: Hits = [[] for _ in variants]
    for index, tokens_g in enumerate(sentence_tokens):
        best_j = best_l = best_c = 0.0
        right = list(dict.fromkeys(tokens_g))
        for number, (variant_tokens, left) in enumerate(zip(variants, distinct)):
            found = _matched_positions(left, right, settings.fuzzy_ratio) if left else frozenset()
            hits[number].append(sum(1 << position for position in found))
            if left or right:  # one matching gives both the Jaccard and the coverage
                matched = len(found)
                best_j = max(best_j, matched / (len(left) + len(right) - matched))
                best_c = max(best_c, matched / len(left) if left else 0.0)
            best_l = max(best_l, lcs_ratio(variant_tokens, tokens_g))
        if (best_c >= settings.coverage_threshold or best_j >= settings.jaccard_threshold
                or best_l >= settings.lcs_threshold):
            scored.append((index, best_j, best_l, best_c))
    # coverage ranks (how much of the fact each sentence has); Jaccard, then LCS, break ties: of two sentences
    # with all of the fact, the one with least else, then the one with the fact in order
    scored.sort(key=lambda item: (-item[3], -item[1], -item[2], item[0]))
    return scored[:settings.lexical_k], hits


def _window_candidates(fact: Fact, hits: Hits, settings: Settings) -> list[tuple[int, float]]:
    """Runs of ``settings.window`` adjacent sentences that together cover more of the fact than any one of
    them does, and at least ``coverage_threshold``: (first index, coverage), best first, at most ``lexical_k``.
    A window that adds nothing to its best sentence is that sentence again, already asked. A window covers
    the fact's tokens that any of its sentences matches (``hits``, from ``_lexical_candidates``)."""
    size = settings.window
    scored = []
    for variant, per_sentence in zip(fact.variants, hits):
        length = len(set(fact_tokens(variant)))
        if size < 2 or len(per_sentence) < 2 or not length:
            continue
        size = min(size, len(per_sentence))
        for start in range(len(per_sentence) - size + 1):
            window = per_sentence[start:start + size]
            union = 0
            for found in window:
                union |= found
            matched = union.bit_count()
            coverage = matched / length
            if matched > max(found.bit_count() for found in window) and coverage >= settings.coverage_threshold:
                scored.append((start, coverage))
    best: dict[int, float] = {}
    for start, coverage in scored:
        best[start] = max(coverage, best.get(start, 0.0))
    return sorted(best.items(), key=lambda item: (-item[1], item[0]))[:settings.lexical_k]


def _check_windows(pending: list[tuple[FactResult, list[str]]], check: Checker, size: int) -> None:
    """Ask every window of every pending fact at once; a yes covers the fact with the window's sentences."""
    pairs = [(" ".join(texts[start:start + size]), result.fact)
             for result, texts in pending for start, _ in result.windows]
    answers = check(pairs) if pairs else []
    position = 0
    for result, texts in pending:
        for start, _ in result.windows:
            result.window_verdicts[start] = answers[position]
            position += 1
        result.calls += len(result.windows) * len(result.fact.variants if result.fact.answers else (None,))
        for start, _ in result.windows:
            if result.window_verdicts[start]:
                result.status, result.stage, result.by = "covered", "lexical", start
                result.selected = list(range(start, min(start + size, len(texts))))
                break


def _check(pending: list[tuple[FactResult, list[int]]], sentences_of: dict[int, list[str]], check: Checker,
           choose: Chooser | None = None) -> None:
    """Ask about every (candidate sentence, fact) pair of a stage at once and record the verdicts.

    With ``choose`` (the LLM's multiple-choice prompt), a fact with several candidates is one question
    over all of them; a fact with one candidate is still asked one-to-one (the paper's two strategies).
    """
    several = [(result, candidates) for result, candidates in pending if choose is not None and len(candidates) > 1]
    single = [(result, candidates) for result, candidates in pending if choose is None or len(candidates) == 1]
    pairs = [(sentences_of[id(result)][i], result.fact) for result, candidates in single for i in candidates]
    answers = check(pairs) if pairs else []
    position = 0
    for result, candidates in single:
        for i in candidates:
            result.verdicts[i] = answers[position]
            position += 1
        result.calls += len(candidates) * len(result.fact.variants if result.fact.answers else (None,))
    if several:
        assert choose is not None
        chosen = choose([([sentences_of[id(result)][i] for i in candidates], result.fact)
                         for result, candidates in several])
        for (result, candidates), picked in zip(several, chosen):
            for position, i in enumerate(candidates):
                result.verdicts[i] = None if picked is None else position in picked
            if picked:
                result.selected = [candidates[position] for position in picked]
            result.calls += 1
            result.choice_calls += 1


def _settle(result: FactResult, candidates: list[int], stage: str) -> None:
    for i in candidates:
        if result.verdicts.get(i):
            result.status, result.stage = "covered", stage
            result.by = result.selected[0] if result.selected else i
            return


def score_topics(items: Sequence[TopicFacts], check: Checker, settings: Settings = Settings(),
                 embed: Embedder | None = None, choose: Chooser | None = None) -> list[TopicLongRecall]:
    """LongRecall for every report; each stage's entailment questions go to ``check`` in one batch.

    ``embed`` is ``None`` for lexical-only matching (no semantic stage); ``choose`` asks a fact with
    several candidates as one multiple-choice question (``None``: every candidate one-to-one).
    """
    topics: list[TopicLongRecall] = []
    sentences_of: dict[int, list[str]] = {}
    hits_of: dict[int, Hits] = {}
    lexical_pending: list[tuple[FactResult, list[int]]] = []
    for run_id, request_id, sentences, facts in items:
        texts = [s for s in (sentences or ()) if s.strip()]
        sentence_tokens = [tokens(s) for s in texts]
        normalized = [f" {normalize(s)} " for s in texts]
        results = []
        for fact in facts:
            result = FactResult(fact)
            sentences_of[id(result)] = texts
            result.answer_found = any(f" {normalize(v)} " in s for v in fact.variants if normalize(v) for s in normalized)
            result.lcs_found = any(substring_ratio(v, s) >= settings.substring_threshold
                                   for v in fact.variants for s in texts)
            result.lexical, hits_of[id(result)] = _lexical_candidates(fact, sentence_tokens, settings)
            if result.lexical:
                lexical_pending.append((result, [i for i, _, _, _ in result.lexical]))
            results.append(result)
        topics.append(TopicLongRecall(run_id, request_id, results, texts, missing_report=sentences is None))

    _check(lexical_pending, sentences_of, check, choose)
    for result, candidates in lexical_pending:
        _settle(result, candidates, "lexical")

    if choose is None and settings.window >= 2:
        window_pending: list[tuple[FactResult, list[str]]] = []
        for topic in topics:
            for result in topic.facts:
                if result.status != "covered":
                    result.windows = _window_candidates(result.fact, hits_of[id(result)], settings)
                    if result.windows:
                        window_pending.append((result, topic.sentences))
        _check_windows(window_pending, check, settings.window)
    hits_of.clear()

    if embed is not None:
        semantic_pending: list[tuple[FactResult, list[int]]] = []
        open_topics = [(topic, [r for r in topic.facts if r.status != "covered"]) for topic in topics]
        open_topics = [(topic, results) for topic, results in open_topics if results and topic.sentences]
        if open_topics:
            sentence_texts = list(dict.fromkeys(s for topic, _ in open_topics for s in topic.sentences))
            fact_texts = list(dict.fromkeys(v for _, results in open_topics for r in results
                                            for v in _semantic_texts(r.fact)))
            vectors = embed(sentence_texts + fact_texts)
            row = {text: i for i, text in enumerate(sentence_texts)}
            frow = {text: len(sentence_texts) + i for i, text in enumerate(fact_texts)}
            for topic, results in open_topics:
                matrix = vectors[[row[s] for s in topic.sentences]]
                for result in results:
                    fact_vectors = vectors[[frow[v] for v in _semantic_texts(result.fact)]]
                    cosine = (fact_vectors @ matrix.T).max(axis=0)
                    blocked = set(result.verdicts)
                    order = sorted((i for i in range(len(topic.sentences))
                                    if i not in blocked and cosine[i] >= settings.cosine_threshold),
                                   key=lambda i: (-float(cosine[i]), i))[:settings.semantic_k]
                    result.semantic = [(i, float(cosine[i])) for i in order]
                    if order:
                        if choose is not None and result.lexical:
                            # the multiple-choice question is over the whole candidate set (the paper's
                            # "smallest subset"): a fact that a lexical and a semantic candidate state only
                            # together is found only when both are offered
                            order = [i for i, _, _, _ in result.lexical] + order
                        semantic_pending.append((result, order))
        _check(semantic_pending, sentences_of, check, choose)
        for result, candidates in semantic_pending:
            _settle(result, candidates, "semantic")

    for topic in topics:
        for result in topic.facts:
            if result.status != "covered" and any(v is None for v in (*result.verdicts.values(),
                                                                       *result.window_verdicts.values())):
                result.status = "unjudged"
    return topics


def _semantic_texts(fact: Fact) -> tuple[str, ...]:
    """What a fact is embedded as: the question with each answer (a bare answer says little), or its text."""
    if fact.answers and fact.question:
        return tuple(f"{fact.question} {answer}" for answer in fact.answers)
    return fact.variants
