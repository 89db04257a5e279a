"""Which pairs of runs differ significantly: the one decision that ``compare`` and the HTML report both show.

``pairwise_significance`` runs the chosen paired test over the compared pairs (every pair, or every run
against a baseline), applies the multiple-comparison correction over exactly those pairs, and says which
pairs are significant at ``alpha``. ``argue_eval.stats.comparison.compare`` (what ``argue-eval compare``
prints) and the report's leaderboard (``argue_eval.report.leaderboard``) both call it with the same
defaults, seed and resamples, so a pair is significant in one exactly when it is in the other.

The defaults depend on the family of pairs, never on the command:

* **every pair** (a leaderboard, the report's letter groups): the randomized Tukey HSD, no further
  correction. It is built for this question (Carterette 2012; Sakai 2018, Laboratory Experiments in
  Information Retrieval, 4.5.2): one null distribution (the range of run means after permuting each topic's
  scores across runs) controls the family-wise error over all pairs by itself. A
  per-pair test with Holm cannot do that at TREC scale: 100 runs are 4,950 pairs, and with 10,000 sign
  vectors the smallest randomization p-value times the family size is about 1, so nothing could ever be
  significant. Its p-value also falls as the absolute mean difference grows, so the runs that cannot be told
  apart form stretches of the ranking, and letter groups show the decisions exactly.
* **each run against a baseline**: the paired randomization test with Holm over the k - 1 compared pairs
  (family-wise too). The family is small, and a per-pair test uses each pair's own topic-by-topic
  differences: a run that loses to the baseline by a little on every topic is told apart from it, where the
  Tukey HSD, which measures every difference against the spread of all runs, would not.

Both commands take the same ``test`` and ``correction`` options to choose otherwise.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import OptionError, unknown_name
from .bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .multiple import CORRECTION_NAMES, CORRECTIONS, adjust
from .significance import TESTS, paired_t_test, randomization_test, tukey_hsd

DEFAULT_TESTS = {"all pairs": "tukey", "baseline": "randomization"}
"""The test ``compare`` and the report use unless told otherwise, by family (see the module docstring for why)."""
DEFAULT_ALPHA = 0.05

TEST_NAMES = {
    "randomization": "paired randomization (sign-flip permutation) test, two-sided",
    "t": "paired t-test, two-sided",
    "tukey": "randomized Tukey HSD (Carterette 2012), family-wise over all systems",
}


def default_correction(test: str) -> str:
    """Holm for the per-pair tests; none for Tukey HSD, which already controls the family-wise error."""
    return "none" if test == "tukey" else "holm"


def default_test(against_baseline: bool) -> str:
    """Tukey HSD for all pairs, the paired randomization test against a baseline."""
    return DEFAULT_TESTS["baseline" if against_baseline else "all pairs"]


def resolve_test(test: str | None = None, correction: str | None = None,
                 against_baseline: bool = False) -> tuple[str, str]:
    """The test and correction to use, each defaulted and checked; an ``OptionError`` (a ``ValueError``) for a choice that does not fit.

    The one place where the defaults live: ``compare`` (command and API) and the report both ask here.
    """
    test = default_test(against_baseline) if test is None else test
    if test not in TESTS:
        raise unknown_name("--test", "test", test, TESTS)
    correction = default_correction(test) if correction is None else correction
    if correction not in CORRECTIONS:
        raise unknown_name("--correction", "correction", correction, CORRECTIONS)
    if test == "tukey" and correction != "none":
        raise OptionError("--correction", "the randomized Tukey HSD already controls the family-wise error over all "
                          "pairs; use correction 'none'")
    return test, correction


def describe(test: str, correction: str) -> str:
    """The test and correction in words, for a page or a table title."""
    if test == "tukey":
        return f"{TEST_NAMES[test]}; no further correction"
    return f"{TEST_NAMES[test]}; {CORRECTION_NAMES[correction]} correction over the compared pairs"


def compared_pairs(order: Sequence[int], baseline: int | None = None) -> list[tuple[int, int]]:
    """The pairs a leaderboard compares, as row indices.

    Against a baseline (its row index): ``(run, baseline)`` for every other run in leaderboard ``order``;
    otherwise every ``(better-ranked, worse-ranked)`` pair, so ``diff = mean(a) - mean(b) >= 0``.
    """
    if baseline is not None:
        return [(index, baseline) for index in order if index != baseline]
    return [(order[p], order[q]) for p in range(len(order)) for q in range(p + 1, len(order))]


@dataclass
class PairwiseResult:
    """The test's outcome for every compared pair (aligned with ``pairs``) and the settings that made it."""

    test: str
    correction: str
    alpha: float
    pairs: list[tuple[int, int]]
    diff: np.ndarray
    """mean(a) - mean(b) per pair."""
    statistic: np.ndarray
    p_value: np.ndarray
    p_adjusted: np.ndarray
    significant: np.ndarray
    """``p_adjusted <= alpha``; never for a pair without a p-value."""
    exact: bool = False
    resamples: int = 0
    """Sign vectors (randomization) or permutations (Tukey HSD) actually used; 0 for the t-test."""
    critical: float | None = None
    """Tukey HSD only: the half-width of the simultaneous intervals, ``diff +- critical``."""
    notes: list[str] = field(default_factory=list)

    def significance_matrix(self, systems: int) -> np.ndarray:
        """Symmetric systems x systems booleans: True where the pair was compared and found significant."""
        out = np.zeros((systems, systems), dtype=bool)
        for (a, b), flag in zip(self.pairs, self.significant):
            if flag:
                out[a, b] = out[b, a] = True
        return out

    def better_than(self, systems: int) -> list[list[int]]:
        """Per system, the systems it is significantly better than (a significant pair with a positive difference)."""
        out: list[list[int]] = [[] for _ in range(systems)]
        for (a, b), flag, diff in zip(self.pairs, self.significant, self.diff):
            if flag and diff != 0:
                winner, loser = (a, b) if diff > 0 else (b, a)
                out[winner].append(loser)
        return out

    def marks(self, systems: int, baseline: int) -> list[str]:
        """Against ``baseline``: ``+``/``-`` for a run significantly above/below it, ``baseline``, or ``""``."""
        out = [""] * systems
        out[baseline] = "baseline"
        for (a, _), flag, diff in zip(self.pairs, self.significant, self.diff):
            if flag and diff != 0:
                out[a] = "+" if diff > 0 else "-"
        return out


def pairwise_significance(
    values: np.ndarray,
    order: Sequence[int],
    baseline: int | None = None,
    test: str | None = None,
    correction: str | None = None,
    alpha: float = DEFAULT_ALPHA,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    ranges: np.ndarray | None = None,
) -> PairwiseResult:
    """Test the compared pairs of ``values`` (systems x topics, complete) and correct over exactly that family.

    ``order`` is the leaderboard order (row indices, best first; ``comparison.leaderboard_order``);
    ``baseline`` a row index or ``None`` for all pairs. ``test``/``correction`` default as ``resolve_test``
    says for that family. ``ranges`` may pass the Tukey HSD null distribution of this matrix already drawn with the same
    ``resamples`` and ``seed`` (``significance.tukey_ranges_many``); other tests ignore it.
    """
    test, correction = resolve_test(test, correction, baseline is not None)
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    pairs = compared_pairs(order, baseline)
    means = values.mean(axis=-1)
    index_a = np.array([a for a, _ in pairs], dtype=np.int64)
    index_b = np.array([b for _, b in pairs], dtype=np.int64)
    diff = means[index_a] - means[index_b] if pairs else np.zeros(0)
    notes: list[str] = []
    exact, used, critical = False, 0, None
    if not pairs:
        p_value, statistic = np.zeros(0), np.zeros(0)
    elif test == "randomization":
        randomized = randomization_test(values[index_a] - values[index_b], resamples, seed)
        notes.extend(randomized.notes)
        if randomized.exact:
            notes.append(f"randomization test exact: all 2^{values.shape[1]} = {randomized.resamples} sign "
                         "assignments enumerated")
        p_value, statistic, exact, used = randomized.p_value, randomized.statistic, randomized.exact, randomized.resamples
    elif test == "t":
        t_test = paired_t_test(values[index_a], values[index_b])
        notes.extend(t_test.notes)
        p_value, statistic = t_test.p_value, t_test.statistic
    else:
        tukey = tukey_hsd(values, pairs, resamples, seed, confidence, ranges=ranges)
        notes.extend(tukey.notes)
        p_value, statistic, used, critical = tukey.p_value, tukey.statistic, tukey.resamples, tukey.critical
    notes.extend(_floor_note(test, correction, alpha, len(pairs), exact, used))
    p_adjusted = adjust(p_value, correction)
    if np.isnan(p_value).any():
        notes.append(f"{int(np.isnan(p_value).sum())} pair(s) have no p-value (see above); they are left out of the "
                     "multiple-comparison family and not marked significant")
    significant = np.where(np.isnan(p_adjusted), False, p_adjusted <= alpha).astype(bool)
    return PairwiseResult(test, correction, alpha, pairs, diff, statistic, p_value, p_adjusted, significant,
                          exact, used, critical, notes)


def _floor_note(test: str, correction: str, alpha: float, pair_count: int, exact: bool, used: int) -> list[str]:
    """A note when the randomization test cannot reach significance under the correction at all."""
    if test != "randomization" or not pair_count or correction not in ("holm", "bonferroni"):
        return []
    floor = 2 / used if exact else 2 / (used + 1)
    if floor * pair_count <= alpha:
        return []
    needed = int(np.ceil(2 * pair_count / alpha))
    return [f"the smallest p-value this randomization test can give is {floor:.2g} ({used} sign vectors"
            f"{', all of them' if exact else ''}); times the {pair_count} compared pairs it exceeds alpha = {alpha}, "
            f"so no pair can be significant under {correction}: use --correction bh, --test tukey"
            + ("" if exact else f", or --resamples {needed} or more")]


def letter_groups(order: Sequence[int], significant: np.ndarray) -> dict[int, str]:
    """Letters per system such that two systems share a letter exactly when they do not differ significantly.

    ``order`` is the leaderboard order (system indices, best first); ``significant`` a symmetric systems x
    systems boolean matrix. The letters are Piepho's (2004) insert-absorb display: start with one letter for
    everyone; for each significant pair, split every letter held by both into one without either member;
    drop a letter whose holders are a subset of another's. What remains are the largest sets of systems with
    no significant pair inside, so a shared letter means "not significantly different" and no shared letter
    means "significantly different", for any pattern of decisions. When the decisions follow the ranking
    (as the Tukey HSD's do) each letter is a stretch of consecutive ranks (``a``, ``ab``, ``bc``, ...).
    Letters are named in leaderboard order: ``a`` holds the best system.
    """
    significant = np.asarray(significant, dtype=bool)
    # a letter is a bit set over leaderboard positions
    columns = [(1 << len(order)) - 1] if len(order) else []
    for p in range(len(order)):
        for q in range(p + 1, len(order)):
            if not significant[order[p], order[q]]:
                continue
            both = (1 << p) | (1 << q)
            kept = [column for column in columns if column & both != both]
            split = [column & ~bit for column in columns if column & both == both for bit in (1 << p, 1 << q)]
            # a new set can only be absorbed by a kept one or another new one (kept sets were already maximal)
            for k, column in enumerate(split):
                if column and not any(column | other == other for other in kept) and \
                        not any(column | other == other and (column != other or j < k) for j, other in enumerate(split)
                                if j != k):
                    kept.append(column)
            columns = kept
    columns.sort(key=lambda column: [p for p in range(len(order)) if column >> p & 1])
    letters = {index: "" for index in order}
    for number, column in enumerate(columns):
        for p in range(len(order)):
            if column >> p & 1:
                letters[order[p]] += _letter(number)
    return letters


def _letter(number: int) -> str:
    """a..z, then a1..z1, ...: a short label for letter ``number``."""
    return chr(ord("a") + number % 26) + (str(number // 26) if number >= 26 else "")


__all__ = ["DEFAULT_TESTS", "TEST_NAMES", "PairwiseResult", "compared_pairs", "default_correction", "default_test",
           "describe", "letter_groups", "pairwise_significance", "resolve_test"]
