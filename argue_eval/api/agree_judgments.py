"""``agree_judgments``: judges measured against people, as an organizer reads it.

The people's file (a workbench export, ``assess import`` output, any canonical judgments file; several
assessors allowed, each its own ``judge`` name such as ``human:alice``) is the reference. Its answer to a
question is the one ``score`` would use: the file's last line for that question (so an adjudicated answer,
which the workbench writes after the assessors', counts). Each judge's file is compared with it per question
kind (``stats.label_agreement``: accuracy, precision / recall / F1 of yes, kappa, alpha, each with a topic
bootstrap interval; the confusion counts), the assessors with each other on the items several answered
(alpha, and each pair's kappa: the ceiling a judge can be held to), and the judge as one more coder beside
them. Given runs and nuggets, the runs are scored under the people's judgments and under each judge's, and
the two leaderboards compared (``stats.agreement``: tau-b, tau_AP, Pearson with topic-bootstrap intervals)
as well as the paired tests' decisions on every run pair (``stats.label_agreement.decision_agreement``).

The disagreements come worst first (the judge's most confident wrong answers first), with the texts an
adjudicator needs: the sentence, the nugget's question and answer (with the bank) and the passage of the
cited document closest to them (with the collection). ``JudgeAgreementResult.adjudication_lines`` is the
file ``assess init --disagreements`` loads into the workbench.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, contradiction
from ..model import JUDGMENT_KINDS, Document, Judgment, JudgmentKey, Location, TopicNuggets, natural_key
from ..stats.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .result import Note, NoteLog, Result

if TYPE_CHECKING:

    from ..stats.agreement import Agreement
    from ..stats.judgment_agreement import JudgmentAgreement
    from ..stats.label_agreement import AlphaResult, DecisionAgreement, LabelAgreement

__all__ = ["agree_judgments", "JudgeAgreementResult", "JudgeSide", "ADJUDICATION_SUFFIX"]

ADJUDICATION_SUFFIX = ":adjudication"
"""The workbench names an admin's decision ``human:NAME:adjudication``: a decision, not another assessor."""

COUNT_STATISTICS = frozenset({"n", "yes_yes", "yes_no", "no_yes", "no_no", "units", "pairs", "same",
                              "both_significant", "both_not", "only_a", "only_b", "opposite"})
"""The rows of ``JudgeAgreementResult.rows`` that are counts (integers, no interval)."""

SYSTEM_STATISTICS = ("kendall_tau_b", "tau_ap", "pearson")
"""The system-level statistics the tables show (the JSON has every one ``stats.agreement`` computes)."""


@dataclass
class JudgeSide:
    """One judge's file compared with the people's: per kind and pooled (``all``)."""

    label: str
    path: str | None
    legacy: JudgmentAgreement
    """Coverage and the confusion counts as ``agree-judgments`` always reported them (``n_a``, ``n_b``, ...)."""
    kinds: dict[str, LabelAgreement]
    with_people: dict[str, AlphaResult] = field(default_factory=dict)
    """Alpha of the assessors and this judge together, on the items two or more assessors answered."""
    systems: Agreement | None = None
    decisions: DecisionAgreement | None = None


AGREEMENT_COLUMNS = ("judge", "kind", "statistic", "value", "ci_low", "ci_high")
"""The columns of ``JudgeAgreementResult.rows`` (``table``)."""


@dataclass
class JudgeAgreementResult(Result):
    """What ``agree_judgments`` measured, as every API function returns it (``api.result.Result``): ``rows`` /
    ``table`` the long table (``judge, kind, statistic, value, ci_low, ci_high``; counts without interval),
    ``details`` the disagreements (worst first, one record per question), ``settings``, ``counts``, ``notes``;
    and the structured figures behind them."""

    measure: str = "agree-judgments"
    columns: tuple[str, ...] = AGREEMENT_COLUMNS
    human: str = ""
    judges: list[JudgeSide] = field(default_factory=list)
    assessors: list[str] = field(default_factory=list)
    people: dict[str, AlphaResult] = field(default_factory=dict)
    """Per kind, alpha across the assessors on the items at least two of them answered."""
    pairs: dict[tuple[str, str], dict[str, LabelAgreement]] = field(default_factory=dict)
    """Per pair of assessors (natural order) and kind, the first one's answers taken as the reference."""
    metric: str | None = None

    def __post_init__(self) -> None:
        self.rows = self.rows or _rows(self)
        self.counts = self.counts or {"judges": len(self.judges), "assessors": len(self.assessors),
                                      "disagreements": len(self.details)}

    def adjudication_lines(self) -> list[dict[str, Any]]:
        """The disagreements as ``assess init --disagreements`` loads them: per question its item id and
        fields, the people's answer (``a``) and the most confident disagreeing judge's (``b``), worst first;
        ``judges`` lists every disagreeing judge, ``rank`` the position in this order."""
        keep = ("item_id", "kind", "request_id", "sentence", "doc_id", "nugget_id", "answer", "run_id",
                "sentence_index")
        out = []
        for record in self.details:
            line = {name: record[name] for name in keep}
            line["a"] = record["people"]
            line["b"] = record["judges"][0]
            line.update(rank=record["rank"], judges=record["judges"], assessors=record["assessors"],
                        nugget_question=record["nugget_question"], doc_title=record["doc_title"],
                        doc_passage=record["doc_passage"])
            out.append(line)
        return out

    def report_section(self, limit: int = 50) -> dict[str, Any]:
        """What the HTML report's "judges against people" view shows: compact and JSON-able (the report layer
        embeds it as given). Statistics are ``[value, ci_low, ci_high]``; ``limit`` disagreements, worst first."""
        def triple(item: Any) -> list[float | None]:
            return [item.value, item.ci_low, item.ci_high]

        judges = []
        for side in self.judges:
            coverage = {row.kind: row for row in [*side.legacy.kinds, side.legacy.overall]}
            kinds = []
            for kind, item in side.kinds.items():
                row = coverage.get(kind)
                kinds.append({"kind": kind, "n": item.n, "n_people": row.n_a if row else None,
                              "n_judge": row.n_b if row else None, "confusion": list(item.confusion),
                              **{stat.name: triple(stat) for stat in item.statistics}})
            entry: dict[str, Any] = {
                "label": side.label, "kinds": kinds,
                "with_people": [{"kind": kind, "units": a.units, "alpha": triple(a.alpha)}
                                for kind, a in side.with_people.items()]}
            if side.systems is not None and side.decisions is not None:
                entry["systems"] = {name: triple(side.systems.statistic(name)) for name in SYSTEM_STATISTICS}
                entry["systems"].update(n_systems=len(side.systems.runs), n_topics=len(side.systems.topics))
                entry["decisions"] = {**side.decisions.counts, "agreement": side.decisions.agreement}
            judges.append(entry)
        keep = ("rank", "kind", "request_id", "sentence", "answer", "nugget_question", "doc_id", "doc_title",
                "doc_passage")
        return {
            "human": self.human, "settings": dict(self.settings), "metric": self.metric,
            "assessors": list(self.assessors), "judges": judges,
            "people": [{"kind": kind, "units": a.units, "agreement": a.observed_agreement, "alpha": triple(a.alpha)}
                       for kind, a in self.people.items()],
            "pairs": [{"a": first, "b": second, "kind": kind, "n": item.n, "kappa": triple(item.statistic("kappa")),
                       "accuracy": triple(item.statistic("accuracy"))}
                      for (first, second), kinds in self.pairs.items() for kind, item in kinds.items()],
            "disagreements": [{**{name: record[name] for name in keep}, "people": record["people"]["value"],
                               "assessors": record["assessors"], "judge": record["judges"][0]["judge"],
                               "value": record["judges"][0]["value"], "confidence": record["judges"][0]["confidence"],
                               "rationale": record["judges"][0]["rationale"]} for record in self.details[:limit]],
            "n_disagreements": len(self.details),
            "notes": [note.text for note in self.notes],
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document. ``kinds``/``overall`` (and ``a``, ``b``) repeat the first judge's coverage rows as
        ``agree-judgments`` wrote them before it took several judges, extended by the new statistics."""
        judges = [_side_dict(side) for side in self.judges]
        out: dict[str, Any] = {"a": self.human, "b": self.judges[0].path if self.judges else None}
        if judges:
            out["kinds"], out["overall"] = judges[0]["kinds"], judges[0]["overall"]
        out.update(settings=self.settings, metric=self.metric, human=self.human, assessors=self.assessors,
                   judges=judges,
                   people={kind: result.to_dict() for kind, result in self.people.items()},
                   assessor_pairs=[{"a": first, "b": second, "kinds": {k: v.to_dict() for k, v in kinds.items()}}
                                   for (first, second), kinds in self.pairs.items()],
                   disagreements=self.details,
                   notes=[str(note) for note in self.notes])
        return out


def _rows(result: JudgeAgreementResult) -> list[tuple[str, str, str, float | None, float | None, float | None]]:
    """``(who, kind, statistic, value, ci_low, ci_high)``: each judge against the people, then each pair of
    assessors, then alpha across the assessors (``people``) and with each judge, then the systems and decisions."""
    out: list[tuple[str, str, str, float | None, float | None, float | None]] = []

    def add(who: str, kind: str, item: LabelAgreement) -> None:
        yy, yn, ny, nn = item.confusion
        for name, count in (("n", item.n), ("yes_yes", yy), ("yes_no", yn), ("no_yes", ny), ("no_no", nn)):
            out.append((who, kind, name, float(count), None, None))
        for statistic in item.statistics:
            out.append((who, kind, statistic.name, statistic.value, statistic.ci_low, statistic.ci_high))

    for side in result.judges:
        for kind, item in side.kinds.items():
            add(side.label, kind, item)
    for (first, second), kinds in result.pairs.items():
        for kind, item in kinds.items():
            add(f"{second} vs {first}", kind, item)
    tables = [("people", result.people)] + [(f"people+{side.label}", side.with_people) for side in result.judges]
    for who, table in tables:
        for kind, alpha in table.items():
            out.append((who, kind, "units", float(alpha.units), None, None))
            out.append((who, kind, "alpha", alpha.alpha.value, alpha.alpha.ci_low, alpha.alpha.ci_high))
    for side in result.judges:
        if side.systems is not None:
            for statistic in side.systems.statistics:
                out.append((side.label, "systems", statistic.name, statistic.value, statistic.ci_low,
                            statistic.ci_high))
        if side.decisions is not None:
            counts = side.decisions.counts
            for name in ("pairs", "same", "both_significant", "both_not", "only_a", "only_b", "opposite"):
                out.append((side.label, "decisions", name, float(counts[name]), None, None))
            out.append((side.label, "decisions", "agreement", side.decisions.agreement, None, None))
    return out


def _side_dict(side: JudgeSide) -> dict[str, Any]:
    legacy = {item.kind: item.to_dict() for item in [*side.legacy.kinds, side.legacy.overall]}
    kinds = []
    for kind, row in legacy.items():
        item = side.kinds.get(kind)
        if item is not None:
            extra = item.to_dict()
            extra.pop("confusion")
            extra.pop("notes")
            extra.pop("n")
            row = {**row, **extra}
        kinds.append(row)
    out: dict[str, Any] = {"label": side.label, "path": side.path, "kinds": kinds[:-1], "overall": kinds[-1],
                           "with_people": {kind: result.to_dict() for kind, result in side.with_people.items()}}
    if side.systems is not None:
        out["systems"] = side.systems.to_dict()
    if side.decisions is not None:
        out["decisions"] = side.decisions.to_dict()
    return out


# ---------------------------------------------------------------------------------------------------------

JudgmentSource = Any
"""A judgments file path, or ``(label, Judgment records)``."""


def _read(source: JudgmentSource, judgments_format: str | None, bank: list[TopicNuggets] | None,
          kinds: set[str]) -> tuple[str, str | None, list[Judgment], bool]:
    """(label, path, the judgments of the wanted kinds, strict): a canonical file is strict (one judge
    answering a question both ways is an error), an Auto-ARGUE file judges report by report and is not."""
    from ..formats import resolve
    from ..formats.judgments import read_autoargue

    if isinstance(source, (str, os.PathLike)):
        spec = resolve(source, "judgments", judgments_format)
        if bank is not None and spec.name == "autoargue":
            records = read_autoargue(Path(source), bank)
        else:
            records = spec.read(Path(source))
        judgments = [j for j in records if not kinds or j.kind in kinds]
        return str(source), str(source), judgments, spec.name == "argue"
    label, records = source
    return str(label), None, [j for j in records if not kinds or j.kind in kinds], True


def _labels(sources: list[tuple[str, str | None, list[Judgment], bool]]) -> list[str]:
    """A judge's name: the one ``judge`` its file holds, else the file; two alike get their file added."""
    names = []
    for label, path, judgments, _ in sources:
        judges = {j.judge for j in judgments}
        names.append(next(iter(judges)) if len(judges) == 1 and path is not None else label)
    counts = {name: names.count(name) for name in names}
    return [f"{name} ({source[0]})" if counts[name] > 1 else name for name, source in zip(names, sources)]


def _assessor_answers(judgments: Iterable[Judgment], label: str,
                      strict: bool) -> tuple[dict[JudgmentKey, Judgment], dict[JudgmentKey, dict[str, bool]]]:
    """The reference (the last judgment per question, as ``score`` reads a file) and each assessor's answer
    per question (adjudications are decisions, not assessors); an assessor answering a question both ways in
    a canonical file is an error naming both lines."""
    last: dict[JudgmentKey, Judgment] = {}
    answers: dict[JudgmentKey, dict[str, bool]] = {}
    seen: dict[tuple[JudgmentKey, str], Judgment] = {}
    for judgment in judgments:
        key = judgment.key
        earlier = seen.setdefault((key, judgment.judge), judgment)
        if strict and earlier.value != judgment.value:
            where = judgment.source or Location(label, None)
            raise contradiction(where.path, where.line, earlier.source.line if earlier.source else None, key,
                                earlier.value, judgment.value, judgment.judge)
        last.pop(key, None)
        last[key] = judgment
        if not judgment.judge.endswith(ADJUDICATION_SUFFIX):
            answers.setdefault(key, {})[judgment.judge] = bool(judgment.value)
    return last, answers


def _last(judgments: Iterable[Judgment]) -> dict[JudgmentKey, Judgment]:
    out: dict[JudgmentKey, Judgment] = {}
    for judgment in judgments:
        out.pop(judgment.key, None)
        out[judgment.key] = judgment
    return out


def _by_kind(keys: Iterable[JudgmentKey]) -> dict[str, list[JudgmentKey]]:
    groups: dict[str, list[JudgmentKey]] = {}
    for key in keys:
        groups.setdefault(key.kind, []).append(key)
    ordered = [kind for kind in JUDGMENT_KINDS if kind in groups] + sorted(set(groups) - set(JUDGMENT_KINDS))
    out = {kind: groups[kind] for kind in ordered}
    if len(out) > 1:
        out["all"] = [key for kind in ordered for key in groups[kind]]
    return out


def _refuse_runs_as_judges(judges: Sequence[Any]) -> None:
    """``--run runs/*.jsonl`` gives --run the first file and the rest to JUDGE...: say so, not "not judgments"."""
    from ..errors import InputError
    from ..formats import detect

    for path in judges:
        if not isinstance(path, (str, os.PathLike)):
            continue  # (label, records): no file to mistake
        try:
            kind = detect(path).kind
        except InputError:
            continue  # reading it says what is wrong
        if kind == "runs":
            raise InputError(path, None, None, "a run file among the JUDGE files: --run takes one file, so a shell "
                             "glob after it leaves the rest to JUDGE...; repeat --run for each run "
                             "(--run a.jsonl --run b.jsonl)")


def describe_test(test: str, correction: str) -> str:
    """The pairwise decision rule in words (``stats.pairwise.describe``), as the tables' titles name it."""
    from ..stats.pairwise import describe

    return describe(test, correction)


def agree_judgments(
    human: JudgmentSource,
    judges: Sequence[JudgmentSource],
    *,
    kinds: Sequence[str] = (),
    judgments_format: str | None = None,
    nuggets: Any = None,
    collection: Any = None,
    runs: Any = None,
    requests: Any = None,
    qrels: Any = None,
    metric: str = "f1",
    score_options: dict[str, Any] | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    alpha: float = 0.05,
    test: str | None = None,
    correction: str | None = None,
    on_note: Callable[[Note], None] | None = None,
) -> JudgeAgreementResult:
    """Each judge in ``judges`` against the people's judgments ``human`` (paths, or ``(label, records)``).

    ``nuggets`` (a bank) reads Auto-ARGUE files as ``score`` does and adds the nuggets' questions to the
    disagreements; ``collection`` (a path, or a lookup ``doc_id -> Document | None``) adds the cited
    document's passage. With ``runs`` (and ``nuggets``; ``requests``, ``qrels`` and ``score_options`` as for
    ``api.score``) the runs are scored under the people's file and under each judge's, and ``metric``'s
    leaderboards and pairwise decisions (``test``, ``correction`` at ``alpha``, as ``compare`` takes them)
    compared. Intervals: ``resamples`` topic resamples drawn with ``seed``, at ``confidence``.
    """
    from ..inputs import read_nugget_list
    from ..stats.judgment_agreement import judgment_agreement
    from ..stats.label_agreement import coder_alpha, label_agreement
    from ..stats.pairwise import resolve_test

    if not judges:
        raise OptionError("JUDGE", "give at least one judge's judgments to compare with the people's")
    if runs:
        _refuse_runs_as_judges(judges)
    unknown = [kind for kind in kinds if kind not in JUDGMENT_KINDS]
    if unknown:
        from ..errors import unknown_name

        raise unknown_name("--kind", "judgment kind", unknown[0], JUDGMENT_KINDS)
    if runs is not None and nuggets is None:
        raise OptionError("--run", "scoring the runs under both judgments needs the nugget bank (--nuggets)")
    resolve_test(test, correction)  # a bad choice is an error before any file is read
    log = NoteLog(on_note)
    wanted = set(kinds)
    human, judges = _as_source(human), [_as_source(source) for source in judges]
    bank = read_nugget_list(nuggets) if nuggets is not None else None
    human_label, _, human_list, human_strict = _read(human, judgments_format, bank, wanted)
    sources = [_read(source, judgments_format, bank, wanted) for source in judges]
    labels = _labels(sources)
    reference, answers = _assessor_answers(human_list, human_label, human_strict)
    assessors = sorted({name for per in answers.values() for name in per}, key=natural_key)
    stats_args: dict[str, Any] = {"resamples": resamples, "seed": seed, "confidence": confidence}

    def values(key: JudgmentKey) -> bool:
        return bool(reference[key].value)

    # the people among themselves, on the items two or more of them answered
    double = [key for key, per in answers.items() if len(per) >= 2]
    people = {kind: coder_alpha([(key.request_id, answers[key]) for key in keys], **stats_args)
              for kind, keys in _by_kind(double).items()}
    pairs: dict[tuple[str, str], dict[str, LabelAgreement]] = {}
    for i, first in enumerate(assessors):
        for second in assessors[i + 1:]:
            shared = [key for key in double if first in answers[key] and second in answers[key]]
            if shared:
                pairs[(first, second)] = {
                    kind: label_agreement([(key.request_id, answers[key][first], answers[key][second]) for key in keys],
                                          **stats_args)
                    for kind, keys in _by_kind(shared).items()}
    repeated = sum(1 for judgment in human_list) - len(reference)
    if repeated:
        split = sum(1 for key in double if len(set(answers[key].values())) > 1)
        log.note(f"people: {len(double)} question(s) answered by two or more assessors ({split} differently), "
                 f"{repeated} line(s) in all repeat a question: the reference is each question's last line, as "
                 "`score` reads the file")
    if len(reference) and len({key.kind for key in reference}) > 1:
        log.note("the 'all' rows pool different questions; read the per-kind rows first")
    if len(assessors) >= 2 and not double:
        log.note(f"{len(assessors)} assessors in {human_label}, but no question answered by two of them: no "
                 "agreement between people to report")

    sides = []
    judge_maps = []
    for label, (_, path, judgments, strict) in zip(labels, sources):
        legacy = judgment_agreement(human_list, judgments, strict=(human_strict, strict))
        for note in legacy.notes:
            if note.startswith("B: "):
                log.note(f"{label}: {note[3:]}")
            elif not note.startswith("A: ") and "'all' row pools" not in note:
                log.note(f"{label}: {note}")
        last = _last(judgments)
        judge_maps.append(last)
        shared = [key for key in reference if key in last]
        side_kinds = {kind: label_agreement([(key.request_id, values(key), bool(last[key].value)) for key in keys],
                                            **stats_args)
                      for kind, keys in _by_kind(shared).items()}
        if len({key.kind for key in reference} | {key.kind for key in last}) > 1 and "all" not in side_kinds:
            side_kinds["all"] = label_agreement([(key.request_id, values(key), bool(last[key].value)) for key in shared],
                                                **stats_args)
        with_people = {}
        for kind, keys in _by_kind([key for key in double if key in last]).items():
            with_people[kind] = coder_alpha([(key.request_id, {**answers[key], label: bool(last[key].value)})
                                             for key in keys], **stats_args)
        sides.append(JudgeSide(label, path, legacy, side_kinds, with_people))

    settings: dict[str, Any] = {"resamples": resamples, "seed": seed, "confidence": confidence,
                                "interval": "percentile, resampling topics", "kinds": list(kinds) or None}
    if runs is not None:
        _systems(sides, human, judges, runs, nuggets if bank is None else bank, requests, qrels, metric,
                 score_options or {}, resamples, seed, confidence, alpha, test, correction, log)
        test_name, correction_name = resolve_test(test, correction)
        settings.update(metric=metric, test=test_name, correction=correction_name, alpha=alpha)

    lookup = _document_lookup(collection)
    try:
        details = _disagreements(reference, answers, labels, judge_maps, bank, lookup, log)
    finally:
        if lookup is not None and hasattr(lookup, "close"):
            lookup.close()
    return JudgeAgreementResult(settings=settings, details=details, notes=log.notes, human=human_label,
                                judges=sides, assessors=assessors, people=people, pairs=pairs,
                                metric=metric if runs is not None else None)


def _as_source(source: JudgmentSource) -> JudgmentSource:
    """A path as is; ``(label, records)`` with the records in a list (they are read more than once)."""
    if isinstance(source, (str, os.PathLike)):
        return source
    label, records = source
    return str(label), list(records)


def _score_input(source: JudgmentSource) -> list[Any]:
    """What ``api.score`` takes as judgments: the path (read by score's own rules, every kind), or the records."""
    return [source] if isinstance(source, (str, os.PathLike)) else list(source[1])


def _systems(sides: list[JudgeSide], human: JudgmentSource, judges: Sequence[JudgmentSource], runs: Any, nuggets: Any, requests: Any,
             qrels: Any, metric: str, score_options: dict[str, Any], resamples: int, seed: int, confidence: float,
             alpha: float, test: str | None, correction: str | None, log: NoteLog) -> None:
    """Score the runs under the people's judgments and each judge's; compare leaderboards and decisions."""
    from ..argue.api import MissingJudgmentsError
    from ..stats.agreement import agreement, align
    from ..stats.label_agreement import decision_agreement
    from .score import score

    def matrix(judgments: Any, who: str):
        from ..model import ScoreRecord
        from ..stats.matrix import records_to_matrix

        try:
            table = score(runs, nuggets, judgments, requests=requests, qrels=qrels, details=False,
                          **score_options).table
        except MissingJudgmentsError as error:
            hint = (f"scoring the runs under {who}'s judgments, give that file an answer to every question the "
                    "runs raise (`argue-eval judge` writes them for a judge, `assess export` the pool for people)")
            raise MissingJudgmentsError(error.counts, hint) from None
        records = [ScoreRecord(run, topic, name, float(value), f"<{who}>", k + 1)
                   for k, (run, topic, name, value) in enumerate(table.itertuples(index=False, name=None))
                   if name == metric]
        if not records:
            raise OptionError("--metric", f"{metric!r} is not a measure score writes (e.g. f1, sentence_support, "
                              "nugget_coverage)")
        return records_to_matrix(records, metric, "zero", f"the scores under {who}")

    reference = matrix(_score_input(human), "the people")
    for side, source in zip(sides, judges):
        judged = matrix(_score_input(source), side.label)
        side.systems = agreement(reference, judged, resamples=resamples, seed=seed, confidence=confidence, top_k=())
        runs_shared, _, values_a, values_b, _ = align(reference, judged)
        side.decisions = decision_agreement(values_a, values_b, runs_shared, test, correction, alpha, resamples, seed)
        for note in side.systems.notes + side.decisions.notes:
            log.note(f"{side.label} (systems): {note}")


# ---------------------------------------------------------------------------------------------------------
# Disagreements, worst first, with their texts.

_WORDS = re.compile(r"\w+")


def _document_lookup(collection: Any) -> Any:
    """A ``doc_id -> Document | None`` lookup (``None`` without a collection); a path is opened here."""
    if collection is None:
        return None
    if callable(collection):
        return _Lookup(collection, None)
    from ..collection import open_collection

    opened = open_collection(collection)
    return _Lookup(opened.lookup, opened)


class _Lookup:
    def __init__(self, lookup: Callable[[str], Document | None], owner: Any):
        self.lookup, self.owner = lookup, owner

    def __call__(self, doc_id: str) -> Document | None:
        return self.lookup(doc_id)

    def close(self) -> None:
        if self.owner is not None:
            self.owner.close()


def best_passage(document: Document, text: str) -> str:
    """The passage of ``document`` (the kit's passage windows, ``passages.PassageSplitter``) sharing the most
    distinct words with ``text`` (the sentence and answer); the first such passage on a tie."""
    from ..passages import PassageSplitter

    wanted = {word.lower() for word in _WORDS.findall(text)}
    passages = PassageSplitter().document(document)
    if not passages:
        return ""
    scores = [len(wanted & {word.lower() for word in _WORDS.findall(passage)}) for passage in passages]
    return passages[max(range(len(passages)), key=lambda k: (scores[k], -k))]


def _disagreements(reference: dict[JudgmentKey, Judgment], answers: dict[JudgmentKey, dict[str, bool]],
                   labels: list[str], judge_maps: list[dict[JudgmentKey, Judgment]],
                   bank: list[TopicNuggets] | None, lookup: Any, log: NoteLog) -> list[dict[str, Any]]:
    """Every question some judge answers unlike the people, worst first: the highest confidence among the
    judges that disagree (an unstated confidence after any stated one), then how many judges disagree, then
    whether the people were unanimous over two or more answers, then topic and item id."""
    from ..organizer.assessment import item_id_for

    questions = {(nugget.request_id, nugget.nugget_id): nugget.question
                 for topic in bank or () for nugget in topic.nuggets}
    records: list[dict[str, Any]] = []
    for key, judgment in reference.items():
        value = bool(judgment.value)
        sides: list[dict[str, Any]] = []
        for label, last in zip(labels, judge_maps):
            other = last.get(key)
            if other is not None and bool(other.value) != value:
                sides.append({"value": bool(other.value), "judge": label, "confidence": other.confidence,
                              "rationale": other.rationale})
        if not sides:
            continue
        sides.sort(key=lambda side: (side["confidence"] is None, -(side["confidence"] or 0.0)))
        people = answers.get(key, {})
        document = lookup(key.doc_id) if lookup is not None and key.doc_id else None
        text = f"{judgment.sentence} {judgment.answer or ''}"
        records.append({
            "item_id": item_id_for(key), "kind": key.kind, "request_id": key.request_id,
            "sentence": judgment.sentence, "doc_id": key.doc_id, "nugget_id": key.nugget_id,
            "answer": judgment.answer if key.answer else None, "run_id": key.run_id,
            "sentence_index": key.sentence_index,
            "people": {"value": value, "judge": judgment.judge, "rationale": judgment.rationale},
            "assessors": dict(sorted(people.items(), key=lambda item: natural_key(item[0]))),
            "judges": sides,
            "nugget_question": questions.get((key.request_id, key.nugget_id)) if key.nugget_id else None,
            "doc_title": document.title if document is not None else None,
            "doc_passage": best_passage(document, text) if document is not None else None,
        })
    unanimous = {id(r): len(r["assessors"]) >= 2 and len(set(r["assessors"].values())) == 1 for r in records}
    records.sort(key=lambda r: (r["judges"][0]["confidence"] is None, -(r["judges"][0]["confidence"] or 0.0),
                                -len(r["judges"]), not unanimous[id(r)], natural_key(r["request_id"]), r["item_id"]))
    for rank, record in enumerate(records, 1):
        record["rank"] = rank
    if lookup is not None:
        missing = sorted({r["doc_id"] for r in records if r["doc_id"] and r["doc_title"] is None and r["doc_passage"] is None},
                         key=natural_key)
        if missing:
            log.note(f"{len(missing)} cited document(s) of the disagreements are not in the collection (no passage "
                     f"shown): {', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}")
    return records
