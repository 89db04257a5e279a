"""LLM-proposed nugget banks, bound to documents, for assessors to revise (``argue-eval nuggets create``).

TREC RAG 2024 built its nuggets with AutoNuggetizer: a model reads a topic's top documents ten at a time and
keeps a list of at most 30 nuggets, then labels each vital or okay; people post-edited the result. NeuCLIR and
RAGTIME assessors write questions and answers bound to documents by hand. This does AutoNuggetizer's loop in
the ARGUE shape, so that the bank it writes is what the workbench (``assess init --nuggets``) gives assessors
to revise and what the scorer reads:

1. **create** -- per topic, the pooled documents in batches (``batch_size``, in pool order); each call sees the
   request, the nuggets so far (``DraftBank.shown``) and one batch, each document cut to the token budget
   around the part that best matches the request (``llm_prompts.cut_document``, as the LLM judge cuts a cited
   document), and returns questions with short answers, each answer bound to documents of the batch
   (``judges.nugget_tasks``). Topics go in rounds: round *r* sends the *r*-th batch of every topic at once (a
   topic's batches must follow each other, since each reads the nuggets the one before left);
2. **merge** every reply into the topic's bank by the rules of ``organizer.nugget_drafts`` (binding check,
   same question, same answer), counting what they drop;
3. **verify** (optional): a judge answers, for every binding, whether the bound document attests "question
   answer" (an ``attested`` question, asked through the judgment cache); a rejected binding is dropped, an
   unjudged one kept and marked;
4. **cap** each bank at ``max_nuggets``, the most supported nuggets first;
5. **label** the nuggets vital or okay, ten per call (AutoNuggetizer's scorer window); a nugget whose call
   failed stays unlabelled (never a silent "okay").

Every model call goes through ``LLMTasks`` and its cache, so a rerun asks nothing already answered and, the
replies being the same, writes the same bytes. A failed create call leaves its batch out (the topic goes on
with the next batch; the next run asks it again); what failed is counted, never hidden.

Pure: the caller reads the requests, the pool and the documents, and builds the tasks and the judge.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..judges.llm_prompts import cut_document, estimate_tokens
from ..judges.llm_tasks import TaskItem, build_messages, task_version
from ..judges.nugget_tasks import CREATE, LABEL, MAX_ANSWER_CHARS, MAX_PROPOSALS, MAX_QUESTION_CHARS, TASKS
from ..model import Answer, Document, Nugget, Request, TopicNuggets, normalize_text
from .nugget_drafts import DEFAULT_MERGE_THRESHOLD, DraftBank, DraftNugget

__all__ = ["CreateSettings", "TopicDocuments", "TopicCreation", "request_data", "batch_data", "create_banks",
           "verify_bindings", "cap_banks", "label_banks", "bank_topics", "detail_records", "plan_creation",
           "NUGGET_TOKENS"]

NUGGET_TOKENS = 40
"""What one nugget of ``nuggets_so_far`` adds to a prompt, for the dry run's estimate of calls whose earlier
replies are not known yet (a question and an answer or two: about 160 characters)."""


@dataclass(frozen=True)
class CreateSettings:
    """How banks are built: ``batch_size`` documents per create call (AutoNuggetizer's window of 10),
    ``max_nuggets`` per topic (its 30), ``merge_threshold`` for near-duplicate questions, ``max_doc_tokens``
    per document (the LLM judge's budget), ``label_window`` nuggets per labelling call."""

    batch_size: int = 10
    max_nuggets: int = 30
    merge_threshold: float = DEFAULT_MERGE_THRESHOLD
    max_doc_tokens: int = 1500
    label_window: int = 10

    def bank(self, request_id: str) -> DraftBank:
        return DraftBank(request_id, self.merge_threshold, self.max_nuggets, MAX_PROPOSALS, MAX_QUESTION_CHARS,
                         MAX_ANSWER_CHARS)


@dataclass
class TopicDocuments:
    """What a topic's bank is made from: its request and its documents, in pool order."""

    request: Request
    documents: list[Document]


@dataclass
class TopicCreation:
    """One topic's creation: its batches, its bank, and the record of every call (the details)."""

    request: Request
    batches: list[list[Document]]
    bank: DraftBank
    calls: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    """Records of the steps after creation (verification, cap, labels), for the details."""
    done: int = 0
    """Batches sent (answered or failed)."""
    failed_batches: list[int] = field(default_factory=list)
    replayed: int = 0
    """In a dry run: batches the cache answered (the replay stops at the first it cannot)."""
    pending: dict[str, Any] | None = None
    """In a dry run: the data of the first batch the cache could not answer (its prompt is known exactly)."""
    labels_failed: int = 0

    @property
    def request_id(self) -> str:
        return self.request.request_id


def request_data(request: Request) -> dict[str, str]:
    """The request as the prompts quote it."""
    return {"title": request.title, "background": request.background, "problem_statement": request.problem_statement}


def _query(request: Request) -> str:
    """What a document is cut around: the request's title and problem statement."""
    return " ".join(part for part in (request.title, request.problem_statement) if part) or request.background


def batch_data(request: Request, bank: DraftBank, documents: Sequence[Document], max_doc_tokens: int
               ) -> tuple[dict[str, Any], dict[str, str], dict[str, dict[str, Any]]]:
    """The create call's data for one batch, the labels' document ids (``D1`` -> doc id) and the cuts made (by
    label, for the details). Documents are labelled in batch order."""
    labels: dict[str, str] = {}
    shown: dict[str, dict[str, str]] = {}
    cuts: dict[str, dict[str, Any]] = {}
    query = _query(request)
    for number, document in enumerate(documents, start=1):
        label = f"D{number}"
        body, cut = cut_document(document.text or "", query, max_doc_tokens)
        labels[label] = document.doc_id
        shown[label] = {"title": (document.title or "").strip(), "text": body}
        if cut is not None:
            cuts[label] = cut
    data = {"request": request_data(request), "nuggets_so_far": bank.shown(), "documents": shown}
    return data, labels, cuts


def _batches(documents: Sequence[Document], size: int) -> list[list[Document]]:
    return [list(documents[start:start + size]) for start in range(0, len(documents), size)]


def start(topics: Sequence[TopicDocuments], settings: CreateSettings) -> list[TopicCreation]:
    """Each topic's creation before any call: its documents cut into batches, an empty bank."""
    return [TopicCreation(topic.request, _batches(topic.documents, settings.batch_size),
                          settings.bank(topic.request.request_id)) for topic in topics]


def create_banks(topics: Sequence[TopicDocuments], tasks: Any, settings: CreateSettings, ask: bool = True
                 ) -> list[TopicCreation]:
    """Steps 1 and 2 for every topic: the create calls in rounds, each reply merged into its topic's bank.

    ``tasks``: an ``LLMTasks`` over ``nugget_tasks.TASKS``. ``ask=False`` (a dry run) replays what the cache
    holds and stops each topic at its first batch the cache cannot answer (``TopicCreation.pending``)."""
    states = start(topics, settings)
    while True:
        active = [state for state in states if state.done < len(state.batches) and state.pending is None]
        if not active:
            return states
        items, prepared = [], []
        for state in active:
            data, labels, cuts = batch_data(state.request, state.bank, state.batches[state.done],
                                            settings.max_doc_tokens)
            items.append(TaskItem(state.request_id, data))
            prepared.append((state, data, labels, cuts))
        for (state, data, labels, cuts), result in zip(prepared, tasks.run(CREATE, items, ask=ask)):
            number = state.done + 1
            if result is None and not ask:
                state.pending = data
                continue
            record: dict[str, Any] = {"request_id": state.request_id, "step": "create", "batch": number,
                                      "documents": labels, **({"cut": cuts} if cuts else {})}
            if result is None:
                state.failed_batches.append(number)
                record["status"] = "failed"
            else:
                record.update(status="answered", proposals=result,
                              outcomes=state.bank.add_reply(result, number, labels))
                if not ask:
                    state.replayed += 1
            state.calls.append(record)
            state.done += 1


def verify_bindings(states: Sequence[TopicCreation], judge: Any, cache: Any, documents: Any, ask: bool = True
                    ) -> Counter[str]:
    """Step 3: ask ``judge`` (a ``JudgeBackend`` answering ``attested``) whether each bound document attests
    "question answer", through the cache (keyed by the document's text too); drop the rejected bindings.

    ``documents``: the document store the questions' documents come from. Returns the counts ``attested``,
    ``rejected`` and ``unjudged`` (a binding the judge could not judge is kept and marked in the nugget's
    provenance, never taken for a yes or a no)."""
    from ..judges.asking import CachedJudge
    from ..judges.base import Question, make_key

    questions: list[Question] = []
    places: dict[Any, list[tuple[TopicCreation, DraftNugget, Any, str]]] = {}
    for state in states:
        for nugget in state.bank.nuggets:
            for answer in nugget.answers:
                claim = f"{nugget.question} {answer.text}"
                for doc_id in answer.doc_ids:
                    key = make_key("attested", state.request_id, normalize_text(claim), doc_id=doc_id)
                    if key not in places:
                        questions.append(Question(key=key, sentence=claim, request=state.request))
                    places.setdefault(key, []).append((state, nugget, answer, doc_id))
    verdicts: dict[Any, bool] = {}
    CachedJudge(judge, cache, documents=documents, contexts=True, ask=ask).ask(
        questions, lambda answers, cached: verdicts.update((q.key, v.value) for q, v in answers),
        lambda question, reason: None)
    counts: Counter[str] = Counter()
    judge_name = getattr(judge, "name", "judge")
    by_topic: dict[str, dict[str, Any]] = {}
    for key in (question.key for question in questions):
        value = verdicts.get(key)
        for state, nugget, answer, doc_id in places[key]:
            verification = nugget.provenance.setdefault(
                "verification", {"judge": judge_name, "attested": 0, "rejected": [], "unjudged": []})
            step = by_topic.setdefault(state.request_id, {"request_id": state.request_id, "step": "verify",
                                                           "judge": judge_name, "attested": 0, "rejected": [],
                                                           "unjudged": []})
            binding = {"question": nugget.question, "answer": answer.text, "doc_id": doc_id}
            if value is None:
                counts["unjudged"] += 1
                verification["unjudged"].append({"answer": answer.text, "doc_id": doc_id})
                step["unjudged"].append(binding)
            elif value:
                counts["attested"] += 1
                verification["attested"] += 1
                step["attested"] += 1
            else:
                counts["rejected"] += 1
                verification["rejected"].append({"answer": answer.text, "doc_id": doc_id})
                step["rejected"].append(binding)
                state.bank.remove_binding(nugget, answer, doc_id)
    for state in states:
        if state.request_id in by_topic:
            state.steps.append(by_topic[state.request_id])
    return counts


def cap_banks(states: Sequence[TopicCreation]) -> int:
    """Step 4: each bank cut to its ``max_nuggets`` most supported nuggets; returns how many were dropped."""
    dropped = 0
    for state in states:
        gone = state.bank.cap()
        dropped += len(gone)
        if gone:
            state.steps.append({"request_id": state.request_id, "step": "cap", "kept": len(state.bank.nuggets),
                                "dropped": [{"question": n.question, "support": n.support} for n in gone]})
    return dropped


def _label_items(states: Sequence[TopicCreation], window: int
                 ) -> list[tuple[TopicCreation, int, list[DraftNugget], TaskItem]]:
    out = []
    for state in states:
        nuggets = state.bank.nuggets
        for number, first in enumerate(range(0, len(nuggets), window), start=1):
            chosen = nuggets[first:first + window]
            data = {"request": request_data(state.request),
                    "nuggets": {f"N{i}": {"question": n.question, "answers": [a.text for a in n.answers]}
                                for i, n in enumerate(chosen, start=1)}}
            out.append((state, number, chosen, TaskItem(state.request_id, data)))
    return out


def label_banks(states: Sequence[TopicCreation], tasks: Any, settings: CreateSettings) -> int:
    """Step 5: every kept nugget labelled vital or okay, ``label_window`` per call; returns the nuggets left
    unlabelled because their call failed."""
    items = _label_items(states, settings.label_window)
    results = tasks.run(LABEL, [item for _, _, _, item in items])
    version = task_version(TASKS[LABEL])
    failed = 0
    for (state, number, chosen, _), result in zip(items, results):
        record: dict[str, Any] = {"request_id": state.request_id, "step": "label", "batch": number,
                                  "nuggets": {f"N{i}": n.question for i, n in enumerate(chosen, start=1)}}
        if result is None:
            failed += len(chosen)
            state.labels_failed += len(chosen)
            record["status"] = "failed"
        else:
            record.update(status="answered", labels=result)
        for position, nugget in enumerate(chosen, start=1):
            nugget.importance = None if result is None else result[f"N{position}"]
            nugget.provenance["label"] = {"prompt_version": version, "batch": number,
                                          **({"failed": True} if result is None else {})}
        state.steps.append(record)
    return failed


def bank_topics(states: Sequence[TopicCreation], identity: dict[str, Any]) -> list[TopicNuggets]:
    """The canonical bank: per topic with nuggets, ``{request_id}-n1``, ``-n2``, ... in the order first proposed,
    each answer with its documents, and the nugget's provenance (``identity``: model, prompt version, decoding;
    then its batches, support, merged questions, verification and label)."""
    topics = []
    for state in states:
        nuggets = []
        for number, draft in enumerate(state.bank.nuggets, start=1):
            provenance = {**identity, "batches": list(draft.batches), "support": draft.support,
                          **({"merged_questions": list(draft.aliases)} if draft.aliases else {}),
                          **draft.provenance}
            nuggets.append(Nugget(f"{state.request_id}-n{number}", state.request_id, draft.question,
                                  [Answer(answer.text, tuple(answer.doc_ids)) for answer in draft.answers],
                                  importance=draft.importance,  # type: ignore[arg-type]
                                  extra={"provenance": provenance}))
        if nuggets:
            topics.append(TopicNuggets(state.request_id, nuggets))
    return topics


def detail_records(states: Sequence[TopicCreation]) -> list[dict[str, Any]]:
    """Every call's proposals and what became of them, then the later steps, topic by topic."""
    return [record for state in states for record in (*state.calls, *state.steps)]


# --- the dry run -----------------------------------------------------------------------------------------------

def _prompt_tokens(task_name: str, data: dict[str, Any]) -> int:
    messages = build_messages(TASKS[task_name], data)
    return estimate_tokens("\n".join(m["content"] for m in messages)) + 4 * len(messages)


def plan_creation(topics: Sequence[TopicDocuments], tasks: Any, settings: CreateSettings,
                  verify: Callable[[list[TopicCreation]], None] | None = None) -> list[dict[str, Any]]:
    """Per topic, what a run would cost, asking nothing: the create calls the cache answers are replayed (their
    replies known, the bank follows), and the first call it cannot answer is priced exactly; later calls are
    priced with their documents and ``NUGGET_TOKENS`` per nugget so far (their earlier replies are not known).
    When every create call is cached, the bank is verified from the cache (``verify``), capped and its label
    calls counted exactly; otherwise at most one per ``label_window`` of ``max_nuggets``.

    Each row: ``request_id``, ``documents``, ``batches``, ``cached`` (create and label calls the cache holds),
    ``calls`` (model calls to make: create + label), ``prompt_tokens`` (estimated, 4 characters a token),
    ``completion_tokens`` (at most: the calls' ``max_tokens``)."""
    states = create_banks(topics, tasks, settings, ask=False)
    complete = [state for state in states if state.pending is None]
    if verify is not None and complete:
        verify(complete)
    cap_banks(complete)
    label_items = _label_items(complete, settings.label_window)
    label_cached = tasks.run(LABEL, [item for *_, item in label_items], ask=False)
    rows = []
    for state in states:
        prompt = completion = calls = 0
        cached = state.replayed
        if state.pending is not None:
            create_task = TASKS[CREATE]
            # the first uncached call: its data is known exactly
            prompt += _prompt_tokens(CREATE, state.pending)
            completion += create_task.max_tokens(state.pending)
            calls += 1
            allowance = NUGGET_TOKENS * settings.max_nuggets
            for batch in state.batches[state.replayed + 1:]:
                data, _, _ = batch_data(state.request, settings.bank(state.request_id), batch, settings.max_doc_tokens)
                prompt += _prompt_tokens(CREATE, data) + allowance
                completion += create_task.max_tokens(data)
                calls += 1
            windows = math.ceil(settings.max_nuggets / settings.label_window) if state.batches else 0
            label_task = TASKS[LABEL]
            for _ in range(windows):
                data = {"request": request_data(state.request),
                        "nuggets": {f"N{i}": {} for i in range(1, settings.label_window + 1)}}
                prompt += _prompt_tokens(LABEL, data) + NUGGET_TOKENS * settings.label_window
                completion += label_task.max_tokens(data)
                calls += 1
        else:
            for (owner, _, _, item), result in zip(label_items, label_cached):
                if owner is not state:
                    continue
                if result is not None:
                    cached += 1
                    continue
                prompt += _prompt_tokens(LABEL, item.data)
                completion += TASKS[LABEL].max_tokens(item.data)
                calls += 1
        rows.append({"request_id": state.request_id, "documents": sum(len(batch) for batch in state.batches),
                     "batches": len(state.batches), "cached": cached, "calls": calls, "prompt_tokens": prompt,
                     "completion_tokens": completion})
    return rows
