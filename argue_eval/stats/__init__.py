"""Statistics on per-topic score matrices: intervals, paired tests, multiple comparisons, agreement.

Everything starts from a systems x topics matrix of one metric (``argue_eval.inputs.load_matrix`` reads score tables,
``matrix.from_frame`` wraps a DataFrame) and is seeded, so the same inputs and seed give the same numbers:

* ``bootstrap``: BCa and percentile intervals of system means, vectorized and equal to ``scipy.stats.bootstrap``;
* ``significance``: paired randomization test, paired t-test, randomized Tukey HSD, over many pairs at once;
* ``multiple``: Holm, Benjamini-Hochberg and Bonferroni adjustment;
* ``effects``: mean difference with its BCa interval, paired Cohen's d;
* ``pairwise``: which pairs differ (test, correction, letter groups), the one decision ``compare`` and the HTML
  report share, with their common defaults;
* ``comparison.compare``: all of the above as one leaderboard (what ``argue-eval compare`` prints);
* ``agreement.agreement``: two evaluations of the same systems (tau-b, tau_AP, Spearman, Pearson, ...);
* ``judgment_agreement``: two judgment files (accuracy, Cohen's kappa, confusion matrices);
* ``label_agreement``: judges against people (precision/recall/F1 of yes, kappa, Krippendorff's alpha with
  topic-bootstrap intervals; alpha across assessors; the agreement of pairwise significance decisions);
* ``replicates``: score tables that differ only in the judge (two-stage bootstrap over topics then replicates,
  rank stability across replicates, each run's judge share of the variance);
* ``systems``: systems with several runs (seeds, variants): per-topic means per system and the runs' spread;
* ``power``: discriminative power (Sakai) and topic-set size design (Sakai's paired t-test design);
* ``swaps``: the swap rate between disjoint topic sets as a function of their size (Voorhees and Buckley).

Import the submodules directly; this package imports nothing heavy by itself.
"""
