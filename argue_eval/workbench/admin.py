"""What an admin does to a round's people: assign topics to assessors (double assessment included).

``assess assign`` calls these, and so will the admin pages: the rules (a topic already assessed by someone
else needs ``double``; ranges of numeric ids) are written once. Users and passwords are ``security``'s.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..errors import OptionError
from ..model import natural_key
from .security import is_user_name
from .store import Store

__all__ = ["check_topics", "assign_topics"]


def check_topics(spec: str, known: Iterable[str]) -> list[str]:
    """``300,301-305`` as topic ids: ranges expand over numeric ids; every id must be a known topic."""
    known_set = set(known)
    out: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if part in known_set:
            out.append(part)
            continue
        low, dash, high = part.partition("-")
        if dash and low.strip().isdigit() and high.strip().isdigit():
            a, b = int(low), int(high)
            if a > b:
                raise OptionError("--topics", f"empty range {part!r}")
            wanted = [str(k) for k in range(a, b + 1)]
            missing = [t for t in wanted if t not in known_set]
            if missing:
                raise OptionError("--topics", f"topic(s) {', '.join(missing[:5])} of {part!r} are not in the workbench")
            out.extend(wanted)
            continue
        raise OptionError("--topics", f"unknown topic {part!r}; the workbench has "
                          f"{', '.join(sorted(known_set, key=natural_key)[:10]) or 'no topics'}")
    if not out:
        raise OptionError("--topics", "no topic given")
    return list(dict.fromkeys(out))


def assign_topics(store: Store, spec: str, user: str, double: bool = False) -> list[str]:
    """Assign the topics of ``spec`` (``check_topics``) to ``user``; a topic that has another assessor needs
    ``double`` (a second assessor, for agreement). The topics assigned, in the order given."""
    if store.user(user) is None:
        # the hint is a command to paste: only a name `users add` would take goes into it
        hint = f" (add one with `argue-eval assess users add {user}`)" if is_user_name(user) else ""
        raise OptionError("--to", f"no user {user!r}{hint}")
    wanted = check_topics(spec, store.requests())
    current = store.all_assignments()
    taken = [t for t in wanted if any(u != user for u in current.get(t, []))]
    if taken and not double:
        raise OptionError("--topics", f"topic(s) {', '.join(taken)} already have an assessor "
                          f"({', '.join(sorted({u for t in taken for u in current[t]}))}); "
                          "--double adds a second one for agreement")
    with store.transaction():
        for topic in wanted:
            store.assign(topic, user)
    return wanted
