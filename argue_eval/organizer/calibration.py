"""Calibrating an offline judge on human labels: the options that decide each question kind, fitted per kind with
cross-validation by topic (``argue-eval judge calibrate``; docs/judging.md, "Calibrating a judge on human labels").

What is fitted (``PLANS``). Every answer of the lexical and the semantic judge is a score compared with a
threshold, one threshold per question kind; those are fitted, each on a coarse grid that holds the default (steps
of 0.05 over the range a threshold is used in; the lexical judge's negation threshold is a count of cues: 1, 2 or
3), and so is the one weight that decides a kind on its own: the lexical ``answer_question_weight`` (how much the
nugget question's words count beside the answer's, 0 to 0.6). The weights of numbers and names are left alone:
they weigh in on ``answers`` and ``attested`` at once, so fitting them on one kind would move the other. A
cascade's members are fitted alone, each on the kinds it answers, then the cascade's confidence band (where a
member hands a question on: ``cascade.threshold``, 0.5 to 1) on all the kinds the cascade answers together.
Options given on the command line stay as given (pinned) and are not fitted.

The lexical judge is fitted in two stages: ``answers`` first, since its options also shape the scores of
``relevant`` and ``nugget_agrees`` (both compare nugget answers with a text), then the other kinds with those
options fixed. Within a stage no kind's verdicts depend on another kind's options (tests/test_calibration.py
checks it on the sample track), so one judge made per grid step answers every kind of the stage.

How a kind is fitted (``choose``). The objective is Cohen's kappa between the judge and the people (or balanced
accuracy): agreement beyond chance, which a judge cannot raise by saying "no" to a kind people mostly answer
"no". The grid point with the best objective on the training topics is not taken as is: every grid point whose
objective lies within one standard error of the best (the standard deviation of the best one's objective over
resamples of the training topics) is as good as the best on this evidence, and of those the one closest to the
default is taken (the one-standard-error rule of cross-validated model selection). A small sample therefore moves a
threshold only when the gain is larger than its noise, and a kind whose labels are all one answer keeps its default.

Cross-validation. The labelled topics are dealt into folds (``topic_folds``: a seeded permutation, then round
robin, so fold sizes differ by one at most); for each fold the whole fitting runs on the other folds' topics and its
options answer the held-out fold's questions. Pooled over the folds, every labelled question has a held-out answer:
that is the agreement a new round can expect from the profile, set beside the default's on the same questions, per
kind, with percentile intervals over resamples of the topics (paired: one set of resamples for both). The profile
itself is fitted on all the labelled topics; a profile whose held-out objective is below the default's on some
kind is refused (``Calibration.worse``).

Nothing here reads a file: the labelled questions arrive with their documents attached (``api.calibrate``).
"""
from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..judges.base import JudgeBackend, Question, Verdict
from ..model import JUDGMENT_KINDS, natural_key
from ..progress import progress_bar
from ..stats.bootstrap import percentile_interval, resample_counts, resample_indices
from ..stats.label_agreement import confusion_statistics

__all__ = ["PLANS", "OBJECTIVES", "Grid", "Labelled", "Answerer", "Calibration", "KindFigures", "topic_folds",
           "choose", "confusion_by_topic", "kappa", "balanced_accuracy", "calibrate", "plan_grids"]


def _steps(low: float, high: float, step: float = 0.05) -> tuple[float, ...]:
    count = round((high - low) / step)
    return tuple(round(low + step * i, 4) for i in range(count + 1))


UNIT_STEPS = _steps(0.15, 0.85)
"""Thresholds on a lexical score in [0, 1] (a share of words)."""
REPEAT_STEPS = _steps(0.30, 0.95)
"""The lexical ``repeat_threshold``: the share of a sentence's words an earlier one must hold to make it a repeat."""
COSINE_STEPS = _steps(0.20, 0.95)
"""Thresholds on a cosine of MiniLM embeddings (unrelated sentences lie near 0.1, paraphrases above 0.7)."""
CONFIDENCE_STEPS = _steps(0.50, 1.00)
"""A cascade's confidence band: a member's verdict at least this sure stands (0.5: every verdict; 1: none but the
surest)."""

PLANS: dict[str, tuple[dict[str, dict[str, tuple[float, ...]]], ...]] = {
    "lexical": (
        {"answers": {"answer_threshold": UNIT_STEPS, "answer_question_weight": (0.0, 0.2, 0.4, 0.6)}},
        {"attested": {"attested_threshold": UNIT_STEPS},
         "relevant": {"relevant_threshold": UNIT_STEPS},
         "negative": {"negative_threshold": (1.0, 2.0, 3.0)},
         "nugget_agrees": {"nugget_agrees_threshold": UNIT_STEPS},
         "requires_citation": {"requires_citation_threshold": UNIT_STEPS},
         "first_instance": {"repeat_threshold": REPEAT_STEPS}},
    ),
    "semantic": (
        {"attested": {"attested_threshold": COSINE_STEPS},
         "answers": {"answers_threshold": COSINE_STEPS},
         "first_instance": {"first_instance_threshold": COSINE_STEPS},
         "requires_citation": {"restate_threshold": COSINE_STEPS}},
    ),
}
"""Per backend, its stages: per kind, the options that decide it and their grid (the default is added to each)."""

CASCADE_GRID: dict[str, tuple[float, ...]] = {"threshold": CONFIDENCE_STEPS}

OBJECTIVES = ("kappa", "balanced-accuracy")
SELECTION_RESAMPLES = 200
"""Resamples of the training topics behind the one-standard-error rule's standard error."""


# --- the labelled questions ------------------------------------------------------------------------------------


@dataclass
class Labelled:
    """The questions people answered, as the judge is asked them (documents attached), with their answers."""

    questions: list[Question]
    labels: np.ndarray
    """The people's answer to each question (bool)."""
    topics: list[str]
    """The labelled topics, in natural order."""
    topic_index: np.ndarray
    """Each question's position in ``topics``."""
    kinds: np.ndarray
    """Each question's kind."""

    @classmethod
    def build(cls, pairs: Iterable[tuple[Question, bool]]) -> Labelled:
        items = list(pairs)
        topics = sorted({question.key.request_id for question, _ in items}, key=natural_key)
        position = {topic: index for index, topic in enumerate(topics)}
        return cls([q for q, _ in items], np.array([bool(v) for _, v in items], dtype=bool), topics,
                   np.array([position[q.key.request_id] for q, _ in items], dtype=np.int64),
                   np.array([q.kind for q, _ in items], dtype=object))

    def present_kinds(self) -> list[str]:
        """The kinds with labels, in flowchart order."""
        present = set(self.kinds.tolist())
        return [kind for kind in JUDGMENT_KINDS if kind in present]


# --- agreement from confusion counts ---------------------------------------------------------------------------
# Counts are (people yes & judge yes, people yes & judge no, people no & judge yes, people no & judge no), the
# order of ``stats.label_agreement``; the last axis of every array below.


def confusion_by_topic(values: np.ndarray, labels: np.ndarray, topic_index: np.ndarray, n_topics: int,
                       mask: np.ndarray | None = None) -> np.ndarray:
    """Per-topic confusion counts, shape (topics, 4), of the judge's ``values`` (1 yes, 0 no, -1 no answer: left
    out) against ``labels``, over the questions ``mask`` selects."""
    keep = values >= 0
    if mask is not None:
        keep &= mask
    cells = (1 - labels[keep].astype(np.int64)) * 2 + (1 - values[keep].astype(np.int64))
    flat = np.bincount(topic_index[keep] * 4 + cells, minlength=n_topics * 4)
    return flat.reshape(n_topics, 4).astype(np.float64)


def kappa(counts: np.ndarray) -> np.ndarray:
    """Cohen's kappa of confusion counts (..., 4) (``stats.label_agreement``); NaN where it is undefined (no item,
    or chance agreement 1)."""
    return confusion_statistics(counts)["kappa"]


def accuracy(counts: np.ndarray) -> np.ndarray:
    return confusion_statistics(counts)["accuracy"]


def balanced_accuracy(counts: np.ndarray) -> np.ndarray:
    """The mean of the judge's recall of the people's yes and of their no; NaN when people gave only one answer."""
    counts = np.asarray(counts, dtype=np.float64)
    yes, no = counts[..., 0] + counts[..., 1], counts[..., 2] + counts[..., 3]
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (counts[..., 0] / yes + counts[..., 3] / no) / 2
    return np.where((yes > 0) & (no > 0), value, np.nan)


_OBJECTIVE_FUNCTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "kappa": kappa, "balanced-accuracy": balanced_accuracy}


# --- choosing one grid point -------------------------------------------------------------------------------------


def choose(counts: np.ndarray, train: np.ndarray, distances: np.ndarray, default: int, objective: str = "kappa",
           seed: int = 0, resamples: int = SELECTION_RESAMPLES) -> int:
    """The grid point the one-standard-error rule picks on the ``train`` topics (see the module docstring).

    ``counts``: confusion counts, shape (kinds, candidates, topics, 4); with several kinds (a cascade's band)
    the objective is their mean. ``distances``: each candidate's distance to the default (index ``default``).
    With no kind whose objective is defined on the training topics, the default.
    """
    measure = _OBJECTIVE_FUNCTIONS[objective]
    trained = counts[:, :, train, :]
    per_kind = measure(trained.sum(axis=2))  # (kinds, candidates)
    valid = np.isfinite(per_kind).all(axis=1)  # a kind people answered one way only on these topics: left out
    if not valid.any():
        return default
    trained, scores = trained[valid], per_kind[valid].mean(axis=0)
    best = int(np.argmax(scores))
    topics = trained.shape[2]
    spread = 0.0
    if topics > 1 and resamples > 1:
        weights = resample_counts(resample_indices(topics, resamples, seed), topics)  # (topics, resamples)
        boot = np.einsum("ktc,tb->kbc", trained[:, best], weights)  # (kinds, resamples, 4)
        values = measure(boot).mean(axis=0)  # NaN in a resample where some kind is undefined: left out
        values = values[np.isfinite(values)]
        spread = float(values.std(ddof=1)) if values.size > 1 else 0.0
    eligible = np.flatnonzero(np.isfinite(scores) & (scores >= scores[best] - spread - 1e-12))
    return int(min(eligible, key=lambda i: (round(float(distances[i]), 9), -scores[i], i)))


def topic_folds(topics: Sequence[str], folds: int, seed: int) -> list[list[str]]:
    """``topics`` dealt into ``folds`` folds: permuted with ``numpy.random.default_rng(seed)``, then dealt round
    robin (the i-th topic of the permutation to fold i mod folds); each fold in natural order."""
    ordered = sorted(topics, key=natural_key)
    if not 1 <= folds <= len(ordered):
        raise ValueError(f"{folds} folds for {len(ordered)} topics")
    order = np.random.default_rng(seed).permutation(len(ordered))
    return [sorted((ordered[i] for i in order[fold::folds]), key=natural_key) for fold in range(folds)]


# --- grids ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """One kind's candidates: the values of the options that decide it (the product of each option's grid)."""

    backend: str
    kind: str
    options: tuple[str, ...]
    candidates: tuple[tuple[Any, ...], ...]
    default: int
    """The index of the default candidate (the options the judge has without a profile)."""

    def values(self, index: int) -> dict[str, Any]:
        return dict(zip(self.options, self.candidates[index]))

    def distances(self) -> np.ndarray:
        """Each candidate's distance to the default: per option, the difference over the grid's span, summed."""
        points = np.array(self.candidates, dtype=np.float64).reshape(len(self.candidates), len(self.options))
        spans = points.max(axis=0) - points.min(axis=0)
        spans[spans == 0] = 1.0
        return (np.abs(points - points[self.default]) / spans).sum(axis=1)

    def describe(self) -> dict[str, Any]:
        grids = {option: sorted({c[i] for c in self.candidates}) for i, option in enumerate(self.options)}
        return {"kind": self.kind, "options": grids}


def plan_grids(backend: str, baseline: Mapping[str, Any], pinned: Iterable[str], kinds: Iterable[str],
               plan: tuple[dict[str, dict[str, tuple[float, ...]]], ...] | None = None) -> list[list[Grid]]:
    """The stages of ``backend``'s grids for ``kinds``: each option from its grid plus its ``baseline`` value; a
    ``pinned`` option (given by the user) is not fitted, and a kind left without an option to fit is dropped."""
    wanted, fixed = set(kinds), set(pinned)
    stages: list[list[Grid]] = []
    for stage in (PLANS.get(backend, ()) if plan is None else plan):
        grids = []
        for kind, options in stage.items():
            free = {option: steps for option, steps in options.items() if option not in fixed}
            if kind not in wanted or not free:
                continue
            names = tuple(free)
            axes = [sorted(set(free[name]) | {baseline[name]}) for name in names]
            candidates = tuple(itertools.product(*axes))
            default = candidates.index(tuple(baseline[name] for name in names))
            grids.append(Grid(backend, kind, names, candidates, default))
        if grids:
            stages.append(grids)
    return stages


# --- the judge's answers -------------------------------------------------------------------------------------------


class Answerer:
    """The verdicts of one backend under given options on the labelled questions, each set computed once.

    A backend with a plan (lexical, semantic) is made anew for every set of options and asked directly: nothing it
    answers under a grid point goes to the judgment cache, only the semantic judge's embeddings do (``use_cache``),
    so each text is encoded once for all grid points. A backend without one (nli, llm: a cascade's later member)
    answers once, through the cache (``judges.asking.CachedJudge``), as a judge run would.
    """

    def __init__(self, labelled: Labelled, cache: Any = None, make: Callable[..., JudgeBackend] | None = None):
        from ..judges.registry import make_judge

        self.labelled = labelled
        self.cache = cache
        self.make = make or make_judge
        self.progress: Any = None
        """A progress bar (``update(1)`` per option set answered), when someone watches."""
        self.unanswered: dict[str, int] = {}
        """Per backend without a plan, the questions it could not answer (left out, never counted as "no")."""
        self._memo: dict[Any, list[Verdict | None]] = {}

    def verdicts(self, backend: str, options: Mapping[str, Any], kinds: Iterable[str]) -> list[Verdict | None]:
        """One verdict (or ``None``) per labelled question: ``backend``'s answer with ``options`` where the
        question's kind is in ``kinds`` and the backend answers it, ``None`` elsewhere."""
        kinds = frozenset(kinds)
        memo_key = (backend, json.dumps(options, sort_keys=True, default=str), kinds)
        found = self._memo.get(memo_key)
        if found is not None:
            return found
        judge = self.make(backend, {backend: dict(options)})
        try:
            asked = [i for i, kind in enumerate(self.labelled.kinds) if kind in kinds and kind in judge.kinds]
            questions = [self.labelled.questions[i] for i in asked]
            answers: list[Verdict | None] = [None] * len(self.labelled.questions)
            if backend in PLANS:
                if self.cache is not None:
                    judge.use_cache(self.cache)  # the embeddings only
                got = judge.answer_many(questions) if questions else []
            else:
                got = self._through_cache(judge, questions)
                self.unanswered[backend] = sum(1 for verdict in got if verdict is None)
            for position, verdict in zip(asked, got):
                answers[position] = verdict
        finally:
            judge.close()
        if self.progress is not None:
            self.progress.update(1)
        self._memo[memo_key] = answers
        return answers

    def _through_cache(self, judge: JudgeBackend, questions: list[Question]) -> list[Verdict | None]:
        from ..judges.asking import CachedJudge

        found: dict[Any, Verdict] = {}
        CachedJudge(judge, self.cache, contexts=True).ask(
            questions, lambda answers, _: found.update((q.key, v) for q, v in answers), lambda question, reason: None)
        return [found.get(question.key) for question in questions]

    @staticmethod
    def values(verdicts: Sequence[Verdict | None]) -> np.ndarray:
        """The verdicts as 1 (yes), 0 (no) and -1 (no answer)."""
        return np.array([-1 if v is None else int(bool(v.value)) for v in verdicts], dtype=np.int8)


class _Replayed(JudgeBackend):
    """A cascade member that answers with verdicts it was given (the member's answers under fitted options), so
    that the real ``CascadeJudge`` routes them under each confidence band without asking the member again."""

    def __init__(self, name: str, kinds: frozenset[str], answers: Mapping[Any, Verdict | None]):
        self.name = name  # type: ignore[misc]
        self.kinds = kinds  # type: ignore[misc]
        self._answers = answers

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        return [self._answers.get(question.key) for question in questions]


# --- the calibration -------------------------------------------------------------------------------------------------


@dataclass
class KindFigures:
    """Held-out agreement with the people on one kind: the default judge and the calibrated one, same questions."""

    kind: str
    labels: int
    answered: int
    """Labelled questions the default judge answered (the others it could not judge are left out)."""
    default: dict[str, Any]
    fitted: dict[str, Any]
    delta: dict[str, Any]
    """The fitted objective minus the default's, with its (paired) interval."""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "labels": self.labels, "answered": self.answered, "default": self.default,
                "fitted": self.fitted, "difference": self.delta}


@dataclass
class Calibration:
    """What ``calibrate`` found: the fitted options, the folds and their options, the held-out figures."""

    judge: str
    objective: str
    baseline: dict[str, dict[str, Any]]
    """The options of the judge without a profile (defaults and the options given), per backend."""
    options: dict[str, dict[str, Any]]
    """The fitted options (the profile's), per backend: every fitted option and every option given."""
    folds: list[list[str]]
    fold_options: list[dict[str, dict[str, Any]]]
    kinds: list[KindFigures]
    overall: KindFigures | None
    """The mean over kinds (each kind counted once) of the per-kind figures."""
    grids: list[dict[str, Any]]
    worse: list[str] = field(default_factory=list)
    """The kinds whose held-out objective is below the default's: a profile with any is refused."""
    notes: list[str] = field(default_factory=list)
    seed: int = 0
    resamples: int = 0
    confidence: float = 0.95

    def changed(self) -> dict[str, dict[str, tuple[Any, Any]]]:
        """Per backend, the fitted options that differ from the baseline: option -> (baseline, fitted)."""
        out: dict[str, dict[str, tuple[Any, Any]]] = {}
        for backend, values in self.options.items():
            for option, value in values.items():
                before = self.baseline.get(backend, {}).get(option)
                if before != value:
                    out.setdefault(backend, {})[option] = (before, value)
        return out

    def cross_validation(self) -> dict[str, Any]:
        """The cross-validation as the profile records it."""
        return {"folds": self.folds, "fold_options": self.fold_options, "seed": self.seed,
                "resamples": self.resamples, "confidence": self.confidence,
                "kinds": [figures.to_dict() for figures in self.kinds],
                "mean_over_kinds": self.overall.to_dict() if self.overall is not None else None,
                "worse_than_default": self.worse}


class _Judge:
    """The judge being calibrated (one backend or a cascade), answering under options per backend."""

    def __init__(self, names: list[str], labelled: Labelled, answerer: Answerer):
        self.names = names
        self.labelled = labelled
        self.answerer = answerer

    def verdicts(self, options: Mapping[str, Mapping[str, Any]], kinds: Iterable[str]) -> list[Verdict | None]:
        kinds = frozenset(kinds)
        if len(self.names) == 1:
            return self.answerer.verdicts(self.names[0], options.get(self.names[0], {}), kinds)
        from ..judges.cascade import CascadeJudge
        from ..judges.registry import backend_class

        members = []
        keys = [question.key for question in self.labelled.questions]
        for name in self.names:
            answers = self.answerer.verdicts(name, options.get(name, {}), kinds)
            members.append(_Replayed(name, backend_class(name).kinds, dict(zip(keys, answers))))
        cascade = CascadeJudge(members, **dict(options.get("cascade", {})))
        asked = [i for i, kind in enumerate(self.labelled.kinds) if kind in kinds]
        out: list[Verdict | None] = [None] * len(keys)
        for position, verdict in zip(asked, cascade.answer_many([self.labelled.questions[i] for i in asked])):
            out[position] = verdict
        return out


def calibrate(judge: str, labelled: Labelled, answerer: Answerer, *, baseline: Mapping[str, Mapping[str, Any]],
              pinned: Mapping[str, Iterable[str]] | None = None, kinds: Iterable[str] | None = None, folds: int = 5,
              seed: int = 0, objective: str = "kappa", resamples: int = 1000, confidence: float = 0.95,
              selection_resamples: int = SELECTION_RESAMPLES) -> Calibration:
    """Fit ``judge`` (a ``--judge`` spec) on ``labelled`` with cross-validation by topic; see the module docstring.

    ``baseline``: every option of every backend as the judge has it without a profile (its defaults and the
    options given); ``pinned``: per backend, the options given (not fitted); ``kinds``: the kinds to fit (default:
    every labelled kind; the others keep the baseline); ``folds`` (at most the number of labelled topics) and
    ``seed`` deal the topics; ``resamples`` topic resamples give the intervals.
    """
    from ..judges.registry import backend_class, parse_judge_spec

    if objective not in _OBJECTIVE_FUNCTIONS:
        raise ValueError(f"unknown objective {objective!r}")
    names = parse_judge_spec(judge)
    answered = frozenset().union(*(backend_class(name).kinds for name in names))
    present = [kind for kind in labelled.present_kinds() if kind in answered]
    fitting = [kind for kind in present if kinds is None or kind in set(kinds)]
    pins = {name: set(values) for name, values in (pinned or {}).items()}
    stages = {name: plan_grids(name, baseline[name], pins.get(name, ()),
                               [k for k in fitting if k in backend_class(name).kinds]) for name in names if name in PLANS}
    cascade_grid = None
    cascade_kinds: list[str] = []
    if len(names) > 1:
        cascade_kinds = list(present)
        grids = plan_grids("cascade", baseline["cascade"], pins.get("cascade", ()), ["cascade"],
                           ({"cascade": CASCADE_GRID},))
        cascade_grid = grids[0][0] if grids else None
    if len(labelled.topics) < 2:
        raise ValueError("cross-validation by topic needs labels on two topics at least")
    folds = min(folds, len(labelled.topics))
    model = _Judge(names, labelled, answerer)
    notes: list[str] = []
    unanswered = [kind for kind in labelled.present_kinds() if kind not in answered]
    if unanswered:
        notes.append(f"labels of kinds the {judge} judge does not answer are left out: {', '.join(unanswered)}")
    all_kinds = frozenset(present)
    answerer.progress = progress_bar(f"calibrating ({judge})", total=None, unit="option set")

    def counts_of(verdicts: list[Verdict | None], kind: str) -> np.ndarray:
        return confusion_by_topic(answerer.values(verdicts), labelled.labels, labelled.topic_index,
                                  len(labelled.topics), labelled.kinds == kind)

    def fit(train: np.ndarray, fold_seed: int) -> dict[str, dict[str, Any]]:
        chosen = {name: dict(values) for name, values in baseline.items()}
        for name, stage_list in stages.items():
            for stage in stage_list:
                width = max(len(grid.candidates) for grid in stage)
                stage_kinds = [grid.kind for grid in stage]
                answers = []
                for index in range(width):  # one judge per grid step answers every kind of the stage
                    options = dict(chosen[name])
                    for grid in stage:
                        options.update(grid.values(min(index, len(grid.candidates) - 1)))
                    answers.append(answerer.verdicts(name, options, stage_kinds))
                for grid in stage:
                    counts = np.stack([counts_of(answers[i], grid.kind) for i in range(len(grid.candidates))])
                    pick = choose(counts[None], train, grid.distances(), grid.default, objective, fold_seed,
                                  selection_resamples)
                    chosen[name].update(grid.values(pick))
        if cascade_grid is not None:
            answers = []
            for index in range(len(cascade_grid.candidates)):
                options = {**chosen, "cascade": {**chosen["cascade"], **cascade_grid.values(index)}}
                answers.append(model.verdicts(options, all_kinds))
            counts = np.stack([np.stack([counts_of(a, kind) for a in answers]) for kind in cascade_kinds])
            pick = choose(counts, train, cascade_grid.distances(), cascade_grid.default, objective, fold_seed,
                          selection_resamples)
            chosen["cascade"].update(cascade_grid.values(pick))
        return chosen

    try:
        topic_of = {topic: index for index, topic in enumerate(labelled.topics)}
        dealt = topic_folds(labelled.topics, folds, seed)
        held_out = np.full(len(labelled.questions), -1, dtype=np.int8)
        fold_options = []
        for number, fold in enumerate(dealt):
            test = np.zeros(len(labelled.topics), dtype=bool)
            test[[topic_of[topic] for topic in fold]] = True
            options = fit(~test, seed + 1 + number)
            fold_options.append(options)
            values = answerer.values(model.verdicts(options, all_kinds))
            in_fold = test[labelled.topic_index]
            held_out[in_fold] = values[in_fold]
        final = fit(np.ones(len(labelled.topics), dtype=bool), seed)
        default_values = answerer.values(model.verdicts(baseline, all_kinds))
    finally:
        answerer.progress.close()
        answerer.progress = None
    for backend, count in answerer.unanswered.items():
        if count:
            notes.append(f"the {backend} judge could not answer {count} labelled question(s): left out of its "
                         "figures, never counted as no")
    figures, overall = _figures(labelled, present, default_values, held_out, objective, resamples, seed, confidence)
    worse = [f.kind for f in figures
             if f.kind in fitting and _finite(f.fitted["objective"]) and _finite(f.default["objective"])
             and f.fitted["objective"] < f.default["objective"] - 1e-9]
    for kind_figures in figures:
        moved = [f"{grid.backend}.{option}" for grid in _grids_of(stages, kind_figures.kind) for option in grid.options
                 if final[grid.backend][option] != baseline[grid.backend][option]]
        low, high = kind_figures.delta["interval"]
        if moved and low is not None and high is not None and low <= 0:
            notes.append(f"{kind_figures.kind}: the fit moves {', '.join(moved)}, but the held-out gain's interval "
                         f"[{low:.3f}, {high:.3f}] reaches 0: these topics do not show that it holds on others; "
                         "label more topics before trusting it")
    unfitted = [kind for kind in present if kind not in fitting]
    if unfitted:
        notes.append(f"kinds not fitted (they keep the options they have without a profile): {', '.join(unfitted)}")
    grid_list = [grid.describe() | {"backend": name} for name, stage_list in stages.items()
                 for stage in stage_list for grid in stage]
    if cascade_grid is not None:
        grid_list.append(cascade_grid.describe() | {"backend": "cascade", "kind": "all"})
    profile_options = _profile_options(names, final, stages, cascade_grid, pins)
    fold_profile = [_profile_options(names, options, stages, cascade_grid, pins) for options in fold_options]
    base = _profile_options(names, {k: dict(v) for k, v in baseline.items()}, stages, cascade_grid, pins)
    return Calibration(judge, objective, base, profile_options, dealt, fold_profile, figures, overall, grid_list,
                       worse, notes, seed, resamples, confidence)


def _grids_of(stages: Mapping[str, list[list[Grid]]], kind: str) -> list[Grid]:
    return [grid for stage_list in stages.values() for stage in stage_list for grid in stage if grid.kind == kind]


def _finite(value: Any) -> bool:
    return value is not None and bool(np.isfinite(value))


def _profile_options(names: list[str], options: Mapping[str, Mapping[str, Any]], stages: Mapping[str, list[list[Grid]]],
                     cascade_grid: Grid | None, pinned: Mapping[str, set[str]]) -> dict[str, dict[str, Any]]:
    """The options a profile sets: per backend, the fitted options and the pinned ones, in a stable order."""
    out: dict[str, dict[str, Any]] = {}
    for name in [*names, *(["cascade"] if len(names) > 1 else [])]:
        if name not in PLANS and name != "cascade":
            continue  # a model judge's options (endpoint, model) are the command line's, never a profile's
        fitted = [option for stage in stages.get(name, []) for grid in stage for option in grid.options]
        if name == "cascade" and cascade_grid is not None:
            fitted = list(cascade_grid.options)
        keep = [*fitted, *sorted(pinned.get(name, set()) - set(fitted))]
        values = {option: options[name][option] for option in keep if option in options.get(name, {})}
        if values:
            out[name] = values
    return out


def _figures(labelled: Labelled, kinds: list[str], default: np.ndarray, fitted: np.ndarray, objective: str,
             resamples: int, seed: int, confidence: float) -> tuple[list[KindFigures], KindFigures | None]:
    """Per kind (and their mean), accuracy, kappa and the objective of the default and the held-out verdicts, with
    percentile intervals over ``resamples`` resamples of the labelled topics (one set, shared: paired)."""
    n_topics = len(labelled.topics)
    weights = resample_counts(resample_indices(n_topics, resamples, seed), n_topics)  # (topics, resamples)
    measure = _OBJECTIVE_FUNCTIONS[objective]
    statistics = {"accuracy": accuracy, "kappa": kappa, "objective": measure}
    per_kind: list[KindFigures] = []
    boots: dict[str, list[np.ndarray]] = {name: [] for name in ("default", "fitted")}
    points: dict[str, list[float]] = {name: [] for name in ("default", "fitted")}
    for kind in kinds:
        mask = labelled.kinds == kind
        blocks = {}
        for name, values in (("default", default), ("fitted", fitted)):
            per_topic = confusion_by_topic(values, labelled.labels, labelled.topic_index, n_topics, mask)
            total = per_topic.sum(axis=0)
            resampled = weights.T @ per_topic  # (resamples, 4)
            block: dict[str, Any] = {"confusion": dict(zip(("yes_yes", "yes_no", "no_yes", "no_no"),
                                                           (int(x) for x in total)))}
            for stat, function in statistics.items():
                block[stat] = _number(function(total))
                block[f"{stat}_interval"] = _interval(function(resampled), confidence)
            blocks[name] = block
            boots[name].append(measure(resampled))
            points[name].append(float(measure(total)))
        delta_boot = boots["fitted"][-1] - boots["default"][-1]
        difference = _number(_sub(blocks["fitted"]["objective"], blocks["default"]["objective"]))
        per_kind.append(KindFigures(kind, int(mask.sum()), int(((default >= 0) & mask).sum()), blocks["default"],
                                    blocks["fitted"], {"objective": difference,
                                                       "interval": _interval(delta_boot, confidence)}))
    if not per_kind:
        return per_kind, None
    means = {}
    for name in ("default", "fitted"):
        point = np.array(points[name])
        keep = np.isfinite(point)
        value = float(point[keep].mean()) if keep.any() else None
        stacked = np.stack(boots[name])[keep] if keep.any() else np.empty((0, resamples))
        boot = np.nanmean(stacked, axis=0) if stacked.size else np.full(resamples, np.nan)
        means[name] = (value, boot)
    overall = KindFigures(
        "mean over kinds", sum(f.labels for f in per_kind), sum(f.answered for f in per_kind),
        {"objective": _number(means["default"][0]), "objective_interval": _interval(means["default"][1], confidence)},
        {"objective": _number(means["fitted"][0]), "objective_interval": _interval(means["fitted"][1], confidence)},
        {"objective": _number(_sub(means["fitted"][0], means["default"][0])),
         "interval": _interval(means["fitted"][1] - means["default"][1], confidence)})
    return per_kind, overall


def _sub(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _number(value: Any) -> float | None:
    if value is None:
        return None
    value = float(value)
    return round(value, 6) if np.isfinite(value) else None


def _interval(values: np.ndarray, confidence: float) -> list[float | None]:
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2 or not np.isfinite(values).any():
        return [None, None]
    ends = percentile_interval(values[np.isfinite(values)][None, :], confidence)
    return [_number(ends.low[0]), _number(ends.high[0])]
