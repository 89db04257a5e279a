"""The stages of an assessment round, declared once: the page table routes them, the templates list them, the
items are sorted into them and the export records them.

A round runs its stages in this order for each topic: the nugget bank is written first (``nuggets``, which
asks no judgment: its page edits the bank), then each (sentence, cited document) pair is judged
(``citations``), then what each sentence gives (``sentences``). A stage that asks judgments names the kinds
it asks (``argue.questions`` kinds); every kind the flowchart asks belongs to exactly one stage.

Adding a stage is one ``Stage`` here (its kinds move from the stage that asked them before) and, when its
page differs from the two kinds of page there are, a view in ``pages/`` and its row in ``pages.pages()``.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Stage", "STAGES", "AUTHORING", "ASSESSMENT_STAGES", "STAGE_OF_KIND", "stage_named"]


@dataclass(frozen=True)
class Stage:
    """One stage: its name (the URL segment and the ``stage`` recorded with each answer), what the page is
    called, what the topics page says the assessor does in it, and the judgment kinds it asks."""

    name: str
    title: str
    task: str
    kinds: tuple[str, ...] = ()

    @property
    def asks(self) -> bool:
        """Whether the stage asks judgments (its page shows items); the authoring stage asks none."""
        return bool(self.kinds)


STAGES: tuple[Stage, ...] = (
    Stage("nuggets", "Nugget authoring", "write its nuggets"),
    Stage("citations", "Citation assessment", "judge its citations", ("relevant", "attested")),
    Stage("sentences", "Sentence assessment", "judge its sentences",
          ("answers", "negative", "nugget_agrees", "requires_citation", "first_instance")),
)
"""Every stage, in the order a round runs them."""

AUTHORING: Stage = next(stage for stage in STAGES if not stage.asks)
"""The stage that writes the nugget bank (its page edits the bank; it asks no judgment)."""

ASSESSMENT_STAGES: tuple[Stage, ...] = tuple(stage for stage in STAGES if stage.asks)
"""The stages that ask judgments: a (sentence, cited document) pair's relevance and support in the citation
stage; what a sentence gives (nugget answers) and the uncited sentence's questions in the sentence stage."""

STAGE_OF_KIND: dict[str, str] = {kind: stage.name for stage in ASSESSMENT_STAGES for kind in stage.kinds}
"""Which stage asks each judgment kind."""


def stage_named(name: str) -> Stage | None:
    return next((stage for stage in STAGES if stage.name == name), None)
