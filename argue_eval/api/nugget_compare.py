"""``compare_nuggets``: a created nugget bank against a human one -- recall, precision and binding agreement of
their answers, per topic (``argue-eval nuggets compare``; the rules are ``organizer.nugget_compare``'s)."""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..judges.base import JudgeBackend
from .measure_judges import JudgeOptions

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["compare_nuggets", "CompareResult"]


@dataclass
class CompareResult:
    """``rows`` (``organizer.nugget_compare.COMPARE_COLUMNS``, then ``all``), the matched pairs per topic, the
    judge's identity, and what could not be judged."""

    rows: list[list[Any]]
    details: list[dict[str, Any]]
    judge: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.warnings

    @property
    def columns(self) -> tuple[str, ...]:
        """The names of the rows' columns (``organizer.nugget_compare.COMPARE_COLUMNS``)."""
        from ..organizer.nugget_compare import COMPARE_COLUMNS

        return tuple(COMPARE_COLUMNS)

    @property
    def table(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.rows, columns=list(self.columns))


def compare_nuggets(created: Any, human: Any, *, judge: str | JudgeBackend = "lexical",
                    judge_options: JudgeOptions | None = None, cache: Any = None, requests: Any = None,
                    pool: Any = None) -> CompareResult:
    """Compare the ``created`` bank with the ``human`` one (paths in any nugget format, or ``TopicNuggets``).

    ``judge``: decides whether a created answer matches a human one (a backend name, a comma list, or a
    backend; default the offline lexical judge); ``cache``: a judgment cache path or object; ``requests``
    (path or records) give the judge each topic's request; ``pool`` (a pool file or ``{topic: [doc_id]}``):
    the documents the creation read, outside which a human binding is not counted.
    """
    from ..inputs.creation import pool_documents, read_bank
    from ..inputs.scoring import read_request_list
    from ..organizer.nugget_compare import compare_banks, comparison_rows
    from .measure_judges import open_cache, open_measure_judge, why_unanswered

    made, truth = read_bank(created), read_bank(human)
    request_map = {r.request_id: r for r in read_request_list(requests) or []}
    documents = pool_documents(pool) if pool is not None else None
    with ExitStack() as stack:
        backend = open_measure_judge(judge, judge_options)
        stack.callback(backend.close)
        backend.check_installed()
        judgment_cache = open_cache(cache, stack)
        results, notes = compare_banks(made, truth, backend, judgment_cache, request_map, documents)
        identity = backend.identity()
        reason = why_unanswered(backend)
    warnings = []
    unjudged = sum(result.unjudged_pairs for result in results)
    if unjudged:
        warnings.append(f"{unjudged} answer pair(s) could not be judged ({reason}): neither a match nor a miss; "
                        "asked again on the next run")
    return CompareResult(comparison_rows(results), [result.details() for result in results], identity, notes, warnings)
