"""Judgment caches joined: the shards of one round (``judge --shard K/N``) judged on several machines, each into
its own cache, become the one cache a whole run over it takes every answer from (``judges.shards``)."""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..judges.cache import JudgmentCache, MergeCounts
from ..writing import temp_file_beside

__all__ = ["merge_caches", "MergeResult"]


@dataclass(frozen=True)
class MergeResult:
    """``merge_caches``' result: the cache written and what each input gave it."""

    output: str
    inputs: list[MergeCounts]
    answers: int
    """The answers the merged cache holds."""

    @property
    def same(self) -> int:
        """Answers found in more than one input (with the same answer each time)."""
        return sum(counts.same for counts in self.inputs)


def merge_caches(output: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]]) -> MergeResult:
    """Write the judgment cache ``output`` holding every answer of the caches ``inputs`` (``JudgmentCache.merge_from``:
    one key answered the same in several is one answer; answered differently, an ``InputError`` naming the key and
    both files). ``output`` is new: an existing file is refused (merging into it could only lose answers if it were
    then replaced; name it among the inputs and write another file). It is written to a temporary file beside it and
    renamed once complete, so an error or a kill leaves no half-merged cache; the inputs are only read."""
    target = Path(output)
    if not inputs:
        raise InputError(str(target), None, None, "no cache to merge: name the shards' caches after OUT.sqlite")
    if target.exists() or target.is_symlink():
        raise InputError(str(target), None, None, "exists: cache merge writes a new cache file; to keep its answers, "
                         "name it among the inputs and write the merge to another path")
    resolved = {Path(path).resolve() for path in inputs}
    if target.resolve() in resolved:
        raise InputError(str(target), None, None, "is also an input: write the merge to another path")
    temp = temp_file_beside(target)
    merged: list[MergeCounts] = []
    try:
        with JudgmentCache(temp) as cache:
            for index, path in enumerate(inputs):
                merged.append(cache.merge_from(path, earlier=inputs[:index]))
            answers = cache.count()
            cache.checkpoint()
        os.replace(temp, target)
    except BaseException:
        for leftover in (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm")):
            leftover.unlink(missing_ok=True)
        raise
    return MergeResult(str(target), merged, answers)
