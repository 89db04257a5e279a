"""``calibrate``: fit a judge's options to human labels, with cross-validation by topic, as a judge profile.

The labelled questions are the questions a round of ``judge`` on these runs could ask (``argue.questions``, both
branches of every open question, so that a question counts whatever the judge answers before it) that the human
labels answer: the labels are matched by judgment identity, as every reader of judgments matches them. Their
documents come from the collection once; the fitting is ``organizer.calibration``'s; the result carries the
profile record (``formats.profiles``) that ``write_profile`` writes and ``--judge-option profile=P.json`` reads.
"""
from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..argue.policies import make_policies
from ..errors import ArgueError, OptionError, few_items
from ..inputs import check_one_report_per_topic, load_inputs
from ..model import DOCUMENT_KINDS, JUDGMENT_KINDS, JudgmentKey, natural_key
from ..organizer.calibration import OBJECTIVES, Calibration
from .result import Note, NoteLog, Result

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..argue.policies import PolicyOptions

__all__ = ["calibrate", "Calibrated", "write_profile", "COLUMNS", "OBJECTIVES"]


COLUMNS = ("kind", "labels", "answered", "default_accuracy", "default_kappa", "fitted_accuracy", "fitted_kappa",
           "objective_change")
"""The columns of ``calibrate``'s table: per question kind, the held-out figures of the default and the fitted judge."""


@dataclass
class Calibrated:
    """``calibrate``'s own objects (``Result.data``): the calibration (figures, fitted options) and the profile."""

    calibration: Calibration
    profile: dict[str, Any]
    """The judge profile's JSON object (``formats.profiles``)."""

    @property
    def refused(self) -> bool:
        """Whether the fitted options do worse than the default on some kind's held-out folds (no profile then)."""
        return bool(self.calibration.worse)

    @property
    def profile_id(self) -> str:
        from ..formats.profiles import profile_id

        return profile_id(self.profile)


def _rows(calibration: Calibration) -> list[tuple[Any, ...]]:
    rows = [(f.kind, f.labels, f.answered, f.default["accuracy"], f.default["kappa"], f.fitted["accuracy"],
             f.fitted["kappa"], f.delta["objective"]) for f in calibration.kinds]
    if calibration.overall is not None:
        f = calibration.overall
        rows.append((f.kind, f.labels, f.answered, None, f.default["objective"] if calibration.objective == "kappa"
                     else None, None, f.fitted["objective"] if calibration.objective == "kappa" else None,
                     f.delta["objective"]))
    return rows


def _labels(paths: Sequence[str | os.PathLike[str]], log: NoteLog) -> dict[JudgmentKey, bool]:
    """One answer per question from the human judgment files: each assessor's (``judge``'s) last answer to it, as
    every reader of judgments takes it, then the answer most assessors give; a question the assessors answer yes
    and no equally often is left out (noted)."""
    from ..formats import read_judgments

    last: dict[tuple[JudgmentKey, str], bool] = {}
    for path in paths:
        for judgment in read_judgments(path):
            last[(judgment.key, judgment.judge)] = bool(judgment.value)
    votes: dict[JudgmentKey, Counter[bool]] = {}
    for (key, _), value in last.items():
        votes.setdefault(key, Counter())[value] += 1
    labels: dict[JudgmentKey, bool] = {}
    split = 0
    for key, counter in votes.items():
        if counter[True] == counter[False]:
            split += 1
            continue
        labels[key] = counter[True] > counter[False]
    doubled = sum(1 for counter in votes.values() if sum(counter.values()) > 1)
    if doubled:
        log.note(f"{doubled} question(s) are answered by several assessors: the answer most of them give is taken"
                 + (f"; {split} answered yes and no equally often are left out" if split else ""))
    return labels


def _baseline(names: list[str], given: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, dict[str, Any]],
                                                                                dict[str, set[str]]]:
    """Each backend's options without a profile (its defaults under the ones given, checked as ``make_judge``
    checks them) and, per backend, the options given (pinned: not fitted)."""
    from ..judges.registry import check_option, option_defaults
    from ..organizer.calibration import PLANS

    members = [*names, "cascade"] if len(names) > 1 else list(names)
    baseline: dict[str, dict[str, Any]] = {}
    for name in members:
        # the device is where a judge runs, not what it answers: no profile records it unless it was given
        values = ({option: value for option, value in option_defaults(name).items()
                   if value is not None and option != "device"}
                  if name in PLANS or name == "cascade" else {})
        for option, value in given.get(name, {}).items():
            values[option] = check_option(name, option, value)
        baseline[name] = values
    return baseline, {name: set(given.get(name, {})) for name in members}


def calibrate(
    runs: Any,
    nuggets: Any,
    *,
    human: Sequence[str | os.PathLike[str]],
    collection: Any,
    judge: str = "lexical",
    judge_options: Mapping[str, Mapping[str, Any]] | None = None,
    judgments: Any = None,
    requests: Any = None,
    qrels: Any = None,
    cache: Any = None,
    folds: int = 5,
    seed: int = 0,
    kinds: Iterable[str] | None = None,
    objective: str = "kappa",
    resamples: int = 1000,
    on_note: Callable[[Note], None] | None = None,
    **policy_options: Unpack[PolicyOptions],
) -> Result:
    """Fit ``judge``'s thresholds (and the weights that matter) to the ``human`` labels of these runs' questions.

    The inputs are ``judge``'s (runs, nuggets, requests, collection, ...; ``judgments`` answer questions the
    round then does not ask); ``human``: judgment files whose answers are the truth (workbench exports, ``assess
    import`` output, any canonical file; several assessors allowed). ``folds`` folds over the labelled topics,
    dealt with ``seed``; ``kinds``: fit only these kinds; ``objective``: ``kappa`` or ``balanced-accuracy``;
    ``resamples``: topic resamples for the intervals. ``cache``: the judgment cache (a path, an open cache or
    ``None``), where the semantic judge keeps its embeddings and a cascade's model member its answers;
    ``on_note(Note)`` sees each note as it arises; the other keywords are the scoring policies, as for ``judge``.

    The result's table has a row per labelled kind (``COLUMNS``: the held-out figures of the default and the fitted
    judge) and one for their mean; its ``data`` is a ``Calibrated`` (the calibration and the profile record, which
    ``write_profile`` writes unless the calibration is refused).
    """
    from .. import __version__
    from ..argue.questions import list_questions
    from ..collection import open_collection
    from ..formats.profiles import profile_record
    from ..inputs.profiles import PROFILE_OPTION
    from ..judges.asking import documents_needed, with_documents
    from ..judges.cache import JudgmentCache
    from ..judges.registry import backend_class, parse_judge_spec
    from ..organizer.calibration import PLANS, Answerer, Labelled
    from ..organizer.calibration import calibrate as fit

    if objective not in OBJECTIVES:
        raise OptionError("--objective", f"expected one of {', '.join(OBJECTIVES)}, found {objective!r}")
    if folds < 2:
        raise OptionError("--folds", f"cross-validation needs two folds at least, found {folds}")
    kinds = list(kinds) if kinds is not None else None
    for kind in kinds or ():
        if kind not in JUDGMENT_KINDS:
            raise OptionError("--kinds", f"unknown question kind {kind!r}; known: {', '.join(JUDGMENT_KINDS)}")
    if judge_options and PROFILE_OPTION in judge_options:
        raise OptionError("--judge-option", "calibration starts from the judge's defaults (and the options given): "
                          "leave out profile=...")
    names = parse_judge_spec(judge)
    spec = ",".join(names)
    given = {name: dict(values) for name, values in (judge_options or {}).items()}
    for backend in given:
        if backend not in names and not (backend == "cascade" and len(names) > 1):
            raise OptionError("--judge-option", f"options for {backend!r}, which is not in --judge {spec!r}")
    baseline, pinned = _baseline(names, given)
    policies = make_policies(**policy_options)
    log = NoteLog(on_note)
    inputs = load_inputs(runs, nuggets, judgments, requests, qrels, policies)
    reports = list(inputs.reports())
    check_one_report_per_topic(reports, inputs.evaluation.topics)
    for note in inputs.evaluation.notes:
        log.note(note)
    if requests is None:  # what the judge reads changes without it (as `judge` says)
        log.note("no --requests: the judge sees no request text, as a round of `judge` without it would not")
    labels = _labels(human, log)
    pending = list_questions(reports, inputs.evaluation, inputs.source, "both", show_progress=False)
    questions = [item.question(inputs.evaluation) for item in pending if item.key in labels]
    asked = {item.key for item in pending}
    outside = Counter(key.kind for key in labels if key not in asked)
    if outside:
        log.note(f"{sum(outside.values())} human label(s) answer no question these runs ask under the policies "
                 f"({', '.join(f'{k} {outside[k]}' for k in JUDGMENT_KINDS if outside[k])}): left out")
    matched = Counter(question.kind for question in questions)
    log.note(f"{len(questions)} of the {len(pending)} questions a round on these runs can ask have a human label ("
             + ", ".join(f"{k} {matched[k]}" for k in JUDGMENT_KINDS if matched[k]) + ")")
    with ExitStack() as stack:
        store = collection
        if isinstance(collection, (str, os.PathLike)):
            store = stack.enter_context(open_collection(collection))
        found = store.get_many(documents_needed(questions)) if store is not None else {}
        attached = [with_documents(question, found) for question in questions]
        lacking = [q for q in attached if q.kind in DOCUMENT_KINDS and q.key.doc_id is not None and q.document is None]
        ready = [q for q in attached if not (q.kind in DOCUMENT_KINDS and q.key.doc_id is not None and q.document is None)]
        if lacking:
            missing = sorted({q.key.doc_id or "" for q in lacking}, key=natural_key)
            log.warn(f"{len(lacking)} labelled question(s) cite a document the collection lacks "
                     f"({few_items(missing)}): left out, not counted as disagreements")
        labelled = Labelled.build((question, labels[question.key]) for question in ready)
        if len(labelled.topics) < 2:
            raise ArgueError("the human labels answer questions of "
                             + (f"one topic only ({labelled.topics[0]})" if labelled.topics else "no topic")
                             + " of these runs: cross-validation by topic needs labels on two topics at least")
        judgment_cache = cache
        if isinstance(cache, (str, os.PathLike)):
            judgment_cache = stack.enter_context(JudgmentCache(cache))
        elif cache is None and "semantic" in names:  # the embeddings of one text, kept for every grid point
            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="argue-calibrate-"))
            judgment_cache = stack.enter_context(JudgmentCache(os.path.join(scratch, "embeddings.sqlite")))
        answerer = Answerer(labelled, judgment_cache)
        calibration = fit(spec, labelled, answerer, baseline=baseline, pinned=pinned, kinds=kinds, folds=folds,
                          seed=seed, objective=objective, resamples=resamples)
    for note in calibration.notes:
        log.note(note)
    members = [*names, "cascade"] if len(names) > 1 else names
    per_kind = Counter(labelled.kinds.tolist())
    record = profile_record(
        spec, {name: backend_class(name).version for name in members}, calibration.options,
        fitted_on={
            "human": [os.fspath(path) for path in human],
            "labels": len(labelled.questions),
            "kinds": {kind: per_kind[kind] for kind in JUDGMENT_KINDS if per_kind[kind]},
            "topics": labelled.topics,
            "runs": sorted({report.run_id for report in reports}, key=natural_key),
            "policies": policies.describe(),
        },
        fitting={
            "objective": objective,
            "rule": "one standard error: of the grid points within one standard error (over resamples of the "
                    "training topics) of the best, the one closest to the default",
            "grids": calibration.grids,
            "pinned": {name: sorted(values) for name, values in pinned.items() if values and name in {*PLANS, "cascade"}},
            "not_fitted": [name for name in names if name not in PLANS],
        },
        cross_validation=calibration.cross_validation(),
        argue_eval=__version__,
    )
    settings = {"judge": spec, "objective": objective, "folds": calibration.folds, "seed": seed,
                "resamples": resamples, "confidence": calibration.confidence, "baseline": calibration.baseline,
                "options": calibration.options, "refused": bool(calibration.worse), "worse": calibration.worse}
    counts = {"labels": len(labelled.questions), "topics": len(labelled.topics),
              "kinds": {kind: per_kind[kind] for kind in JUDGMENT_KINDS if per_kind[kind]}}
    return Result("calibrate", _rows(calibration), settings, [f.to_dict() for f in calibration.kinds],
                  record["fitted_on"]["runs"], labelled.topics, counts, log.notes, columns=COLUMNS,
                  data=Calibrated(calibration, record))


def write_profile(result: Result, path: str | os.PathLike[str]) -> str:
    """Write the profile of a ``calibrate`` result (atomically); return its id. A refused calibration writes
    nothing: it is an error to ask."""
    from ..formats.profiles import write_profile as write

    calibrated: Calibrated = result.data
    if calibrated.refused:
        raise ArgueError(f"no profile written: the fitted options agree less with the people than the defaults on "
                         f"the held-out folds ({', '.join(calibrated.calibration.worse)})")
    return write(path, calibrated.profile)
