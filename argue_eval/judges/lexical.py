"""The lexical judge: the default, offline answer to every flowchart question, from word overlap alone.

No model, no download, deterministic, thousands of answers per second: what a participant can run on a
laptop and an organizer on 100 runs. It is a baseline, not a truth; docs/judging.md ("The lexical judge")
lists each heuristic, its thresholds and its blind spots, and bench/bench_judge_fidelity.py measures it
against human and LLM judgments.

Every heuristic turns a question into a score in [0, 1] and compares it with a threshold (a constructor
option). The verdict's confidence is how far the score lies from that threshold, scaled to [0.5, 1]: a
cascade hands the answers near the threshold to a stronger judge. Texts are compared as content tokens
(``judges.lexical_tokens``: case, punctuation, number and date formats, stems and token order folded away).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any, ClassVar

from ..model import JUDGMENT_KINDS, Document
from ..passages import DEFAULT_PASSAGE_STRIDE, DEFAULT_PASSAGE_WORDS
from . import lexical_tokens
from .base import JudgeBackend, Question, Verdict
from .lexical_tokens import content, content_set, numbers, tokens, word_windows
from .options import number_option, passage_options

__all__ = ["LexicalJudge", "NEGATION_CUES", "NEGATION_PHRASES", "META_CUES"]

NEGATION_CUES: frozenset[str] = frozenset({
    "no", "not", "never", "none", "nobody", "nothing", "neither", "nor", "without", "cannot", "can't", "nowhere",
    "lack", "lacks", "lacked", "lacking", "absence", "absent", "unknown", "unclear", "unavailable", "unreported",
    "undisclosed", "unconfirmed", "unspecified", "undetermined", "failed", "fails", "fail", "denied", "denies",
    "deny", "refused", "declined", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "didn't", "hasn't",
    "haven't", "hadn't", "won't", "wouldn't", "couldn't", "shouldn't",
})
"""Words that make a sentence claim that something is absent or not the case."""

NEGATION_PHRASES: tuple[str, ...] = (
    "no information", "no evidence", "no data", "no details", "no mention", "no record", "no report",
    "not mention", "not mentioned", "not specify", "not specified", "not provide", "not provided", "not report",
    "not reported", "not available", "not disclosed", "not known", "not clear", "not been", "did not",
    "does not", "do not", "has not", "have not", "had not", "was not", "were not", "is not", "are not",
    "there is no", "there are no", "there were no", "there was no", "none of",
)
"""Stronger cues: a negation phrase ("no information", "did not") is surer than a bare ``not``."""

_NOT_NEGATIVE = ("not only", "no doubt", "no longer than", "nothing but", "none other", "not least",
                 "no less than", "no more than", "not just")
"""Idioms that contain a cue but assert something positive."""

META_CUES: tuple[str, ...] = (
    "this report", "the report", "this section", "this summary", "in summary", "in conclusion", "to summarize",
    "in short", "overall", "as mentioned", "as noted", "as discussed", "as stated", "the following",
    "this document", "we will", "will discuss", "will examine", "will explore", "below", "above",
    "to summarise", "to summarize", "summing up", "taken together", "in other words", "all in all", "in sum",
    "too early to", "you asked", "as requested",
)
"""Phrases of a sentence that talks about the report rather than making a claim (needs no citation)."""


_ABOUT_SOURCES = frozenset(content("collection document documents source sources article articles mention"))
"""Words of a negative nugget's question that talk about the sources ("Does the collection report ..."),
not about the absent fact."""


_SOURCE_TALK = frozenset("report reports source sources information data document documents article articles "
                         "coverage".split())
"""Nouns of a sentence that speaks about the sources ("the reports give no figure"), not about the world."""


SUMMARY_CUES: tuple[str, ...] = ("in summary", "in short", "in conclusion", "to summarise", "to summarize",
                                 "summing up", "taken together", "in other words", "all in all", "overall", "in sum")
"""Phrases that announce a restatement of what the report said before (``first_instance``)."""


def _lowered(text: str) -> str:
    """Lower case, punctuation as spaces, padded with spaces: cue phrases are matched as `` {cue} ``."""
    return " " + " ".join(re.sub(r"[^\w\s']", " ", text.lower().replace("\u2019", "'")).split()) + " "


def _has_cue(text: str, cues: Sequence[str]) -> str | None:
    lowered = _lowered(text)
    return next((cue for cue in cues if f" {cue} " in lowered), None)


@lru_cache(maxsize=65536)
def _meta_cue(text: str) -> str | None:
    """``_has_cue(text, META_CUES)``, cached per text (a sentence is asked about in several runs)."""
    return _has_cue(text, META_CUES)


@lru_cache(maxsize=65536)
def _summary_cue(text: str) -> str | None:
    """``_has_cue(text, SUMMARY_CUES)``, cached per text."""
    return _has_cue(text, SUMMARY_CUES)


_CONJUNCTION = re.compile(r"\s+and\s+|\s*;\s*|\s*,\s+(?:and\s+)?", re.IGNORECASE)
"""Where an answer joins parts ("X and Y", "X, Y"): each part must be given, not one of them."""


def _cover(needle: Sequence[str] | frozenset[str], hay: frozenset[str], weights: dict[str, float] | None = None) -> float:
    """Weighted share of the distinct tokens of ``needle`` that occur in ``hay`` (0 when needle is empty)."""
    distinct = set(needle)
    if not distinct:
        return 0.0
    if not weights:  # every token weighs 1: the sums are counts
        return len(distinct & hay) / len(distinct)
    heavy = distinct & weights.keys()
    if all(_exact_weight(weights[t]) for t in heavy):
        # sums of such weights are exact in any order: the weighed tokens summed apart, the others counted
        found = distinct & hay
        total = len(distinct) - len(heavy) + sum(weights[t] for t in heavy)
        weighed = heavy & found
        return (len(found) - len(weighed) + sum(weights[t] for t in weighed)) / total
    total = sum(weights.get(t, 1.0) for t in distinct)
    return sum(weights.get(t, 1.0) for t in distinct if t in hay) / total


def _exact_weight(weight: float) -> bool:
    """Whether ``weight`` is a multiple of 1/1024 below 2**20 (as the default weights 2.0 and 1.5 are): a sum of
    such weights (and of 1s) is exact in floating point, whatever the order of its terms, so a share of
    weighed tokens can be summed by groups and is the same float as summed token by token."""
    scaled = weight * 1024.0
    return abs(weight) < 2.0 ** 20 and scaled == int(scaled)


@lru_cache(maxsize=65536)
def _near(token: str, other: str) -> bool:
    """Two word stems that differ only by spelling: a transliteration (``rasoolov`` / ``rasoulof``) or a
    derivation the stemmer keeps apart (``imprison`` / ``prison``). Only for words of 5+ letters, never
    for numbers: short words and figures must match exactly."""
    if token == other:
        return True
    if len(token) < 5 or len(other) < 5 or not token.isalpha() or not other.isalpha():
        return False
    if token in other or other in token:
        return True
    return len(token) >= 6 and len(other) >= 6 and SequenceMatcher(None, token, other).ratio() >= 0.8


def _word_inside_name(token: str, other: str, names: frozenset[str]) -> bool:
    """Whether one of two tokens lies inside the other, the longer a name and the shorter not written as one
    (``names``: the tokens the two texts write as names, ``_entities``): "space" is not a spelling of
    "SpaceX", nor "face" of "Facebook". A name contains a shorter word by compounding (a brand) or derives
    from a shorter name (``Russian`` from ``Russia``, which its text then writes as a name); a word the
    texts write in lower case, or only capitalized at their start, is not shown to be a name. Containment
    between common words (``imprison`` / ``prison``) is a derivation and still matches."""
    if len(token) == len(other) or not (token in other or other in token):
        return False
    longer, shorter = (token, other) if len(token) > len(other) else (other, token)
    return longer in names and shorter not in names


def _fuzzy_hay(needle: Sequence[str], hay: frozenset[str], names: frozenset[str] = frozenset()) -> frozenset[str]:
    """``hay`` plus every token of ``needle`` that is near some token of ``hay`` (see ``_near``) but not a word
    inside a name (``_word_inside_name``), or that a designation of ``hay`` contains (``_designates``)."""
    missing = set(needle) - hay
    if not missing:
        return hay
    extra = {t for t in missing if t.isalpha() and _near_some(t, hay, names)}
    return hay | extra if extra else hay


def _near_some(token: str, hay: frozenset[str], names: frozenset[str]) -> bool:
    """Whether the word ``token`` (letters only, not in ``hay``) is near a token of ``hay`` that is not a name it
    lies inside, or a designation of ``hay`` contains it (``_fuzzy_hay``). A token of other characters is neither
    (``_near`` and ``_designates`` want letters), and one of fewer than five letters is never near another: each
    (token, hay token) pair then costs one ``startswith``, not two calls."""
    if len(token) < 5:
        return any(h.startswith(token) and h[len(token):].isdigit() for h in hay)  # = _designates(h, token)
    return any(_near(token, h) and not _word_inside_name(token, h, names) or _designates(h, token) for h in hay)


def _designates(designation: str, word: str) -> bool:
    """Whether ``designation`` is ``word`` with a number (``falcon9`` and ``falcon``): a sentence about the
    Falcon 9 mentions a Falcon; one about a Falcon does not mention the Falcon 9 (never the other way)."""
    return designation.startswith(word) and designation[len(word):].isdigit() and word.isalpha()


_UNIT_OPTIONS = ("answer_threshold", "attested_threshold", "relevant_threshold", "nugget_agrees_threshold",
                 "requires_citation_threshold", "repeat_threshold", "answer_question_weight")
_NUMBER_OPTIONS = ("negative_threshold", "number_weight", "entity_weight")


def _checked_options(given: dict[str, Any]) -> dict[str, Any]:
    """The options as given, checked (``judges.options``): a value no heuristic can use is a one-line user
    error naming the flag that sets it, raised before judging rather than as a traceback halfway through."""
    checked = {option: number_option("lexical", option, given[option]) for option in _NUMBER_OPTIONS}
    checked.update((option, number_option("lexical", option, given[option], 0.0, 1.0)) for option in _UNIT_OPTIONS)
    checked["passage_words"], checked["passage_stride"] = passage_options(
        "lexical", given["passage_words"], given["passage_stride"])
    return checked


def _confidence(score: float, threshold: float) -> float:
    """How sure a verdict ``score >= threshold`` is: 0.5 at the threshold, 1.0 at 0 or 1 (rounded)."""
    if score >= threshold:
        span = 1.0 - threshold
        distance = (score - threshold) / span if span > 0 else 1.0
    else:
        distance = (threshold - score) / threshold if threshold > 0 else 1.0
    return round(0.5 + 0.5 * min(1.0, max(0.0, distance)), 4)


def _is_year(number: str) -> bool:
    """A year (1900-2099): news text often leaves it implicit ("on 27 July"), so its absence proves little."""
    return len(number) == 4 and number.isdigit() and 1900 <= int(number) <= 2099


def _fmt(value: float) -> str:
    return f"{value:.2f}"


def _missing_said(missing: Sequence[str], numbers: Sequence[str], designations: Sequence[str]) -> str:
    """What an answer's or a statement's rationale says is not in the sentence: its words (the first six), its
    numbers and its designations (the first three of each)."""
    said = f"; missing {' '.join(missing[:6])}" if missing else ""
    if numbers:
        said += f"; number {' '.join(numbers[:3])} not in sentence"
    if designations:
        said += f"; designation {' '.join(designations[:3])} not in sentence"
    return said


def _identifiers(text_tokens: Sequence[str]) -> set[str]:
    """Tokens that mix letters and digits: designations (``falcon9``, ``f35``, ``covid19``), codes (``co2``).
    (A token of letters alone or digits alone is neither, which ``isalpha``/``isdigit`` tell at C speed.)"""
    return {t for t in text_tokens if not (t.isalpha() or t.isdigit())
            and any(c.isalpha() for c in t) and any(c.isdigit() for c in t)}


_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
"""A lower-case letter followed by a capital: a name however it is placed (``SpaceX``, ``iPhone``, ``YouTube``)."""


@lru_cache(maxsize=65536)
def _entities(text: str, first: bool = False) -> frozenset[str]:
    """Content tokens of capitalized words (names, places); the first word counts only with ``first`` (an
    answer such as "Jafar Panahi" is not a sentence that starts with a capital) or when a capital inside it
    shows it is a name ("SpaceX launched ...")."""
    out: set[str] = set()
    words = text.split()
    for position, word in enumerate(words):
        if word.islower():  # no capital anywhere (most words): none of the tests below can hold
            continue
        stripped = word.strip("\"'([{")
        if ((first or position) and stripped[:1].isupper() or (len(stripped) > 1 and stripped.isupper())
                or _INNER_CAPITAL.search(stripped)):
            out.update(t.text for t in tokens(stripped) if not t.stop and not t.number)
    out.update(_identifiers(content(text)))  # a designation ("Falcon 9", read as one token) is a name
    return frozenset(out)


_NAME_AFFIXES = frozenset(content(
    "AG Inc Ltd Corp Co GmbH SA plc LLC Jr Sr Mr Mrs Ms Dr Prof Sir Dame President Vice Prime Minister "
    "Director Mayor Governor Senator Chancellor Secretary Chairman Chairwoman CEO Chief General King Queen Prince "
    "Princess Pope Judge Justice Captain Coach"))
"""Company forms, generation marks, titles and honorifics: "Bayer" names "Bayer AG" and "Jafar Panahi" names
"Director Jafar Panahi", so a name is whole without them."""

_NAME_PARTICLES = frozenset("de da di del della der den van von la le du bin al el dos das".split())
"""Lower-case words inside a name ("Tour de France", "Ludwig van Beethoven"): they do not end it."""


@lru_cache(maxsize=16384)
def _name_runs(answer: str) -> tuple[frozenset[str], ...]:
    """The names of several words in an answer: runs of capitalized words (the first word counts: an answer
    is a phrase, "Elon Musk"; particles such as "de" inside), ended by another lower-case word or a comma, as
    content tokens; those with at least two tokens besides titles and company forms (``_NAME_AFFIXES``:
    "Elon Musk", "Golden Bear"; not "A Separation", not "Bayer AG")."""
    runs: list[frozenset[str]] = []
    current: list[str] = []

    def close() -> None:
        found = frozenset(content(" ".join(current))) - _NAME_AFFIXES
        if len(found) >= 2 and not any(t.isdigit() for t in found):
            runs.append(found)
        current.clear()

    for word in answer.split():
        stripped = word.strip("\"'([{\u201c\u2018")
        if stripped[:1].isupper():
            current.append(word)
            if word.endswith((",", ";", ":")):
                close()
        elif not (current and stripped in _NAME_PARTICLES):
            close()
    close()
    return tuple(runs)


def _is_statement(answer_tokens: set[str], question_tokens: frozenset[str]) -> bool:
    """Whether a nugget answer is a statement rather than the answer to a question: there is no question, or
    the answer adds no content word to it and restates at least half of it (an SCU given as its own answer,
    or as one of its spelled-out alternatives). "Bayer" for "Was it Bayer or Monsanto that bought the firm?"
    adds nothing either, but restates a fifth of the question: an answer, whose question says what to look
    for."""
    if not question_tokens:
        return True
    return answer_tokens <= question_tokens and 2 * len(answer_tokens) >= len(question_tokens)


_SLASH = re.compile(r"(?<=[^\W\d_])/(?=\w)|(?<=\w)/(?=[^\W\d_])|\s+/\s*|\s*/\s+")
"""A slash between words (not between figures: 9/11, 24/7), with or without spaces around it."""

_DETERMINERS = frozenset("the a an his her its their our my your this that these those".split())
"""Words that open an alternative of more than one word ("Twitter/the social network")."""


def _is_capitalized(word: str) -> bool:
    return word.strip("\"'([{\u201c\u2018")[:1].isupper()


@lru_cache(maxsize=16384)
def _statement_alternatives(statement: str) -> tuple[str, ...]:
    """The readings of a statement that offers alternatives with slashes, as summary content units do
    ("Singer/Bieber arrived", "Candidate / Lynne Abraham is 74", "425/many young women", "Accounts vanished
    from Twitter/the social network"): one statement per alternative, or the statement alone. An
    alternative beside a slash is a run of capitalized words (a name: "Carri Reichert / dominatrix"; "of"
    inside it: "Elizabeth of York") or one word (with its determiner: "the social network"); in a chain
    ("A / B / C") the words between two slashes are one alternative."""
    parts = _SLASH.split(statement)
    if len(parts) < 2 or len(parts) > 5:
        return (statement,)
    words = [part.split() for part in parts]
    if any(not part for part in words):
        return (statement,)
    # the first alternative: the end of the text before the first slash
    first = words[0]
    start = len(first) - 1
    if _is_capitalized(first[start]):
        while start > 0 and (_is_capitalized(first[start - 1])
                             or first[start - 1] in _NAME_PARTICLES | {"of"} and start > 1
                             and _is_capitalized(first[start - 2])):
            start -= 1
    # the last alternative: the start of the text after the last slash
    last = words[-1]
    end = 1
    if _is_capitalized(last[0]):
        while end < len(last) and (_is_capitalized(last[end]) or last[end] in _NAME_PARTICLES | {"of"}
                                   and end + 1 < len(last) and _is_capitalized(last[end + 1])):
            end += 1
    elif last[0].lower() in _DETERMINERS and len(last) > 1:
        end = 2
    before, after = first[:start], last[end:]
    options = [first[start:], *words[1:-1], last[:end]]
    return tuple(" ".join([*before, *option, *after]) for option in options)


_EVENT_VERBS = lexical_tokens.EVENT_VERBS
"""Verbs that only say that an event exists (``lexical_tokens.EVENT_VERBS``): in a statement they are no word
the sentence must share."""


_AGE = re.compile(r"\b(\d+)(?:\s*-\s*|\s+)years?(?:\s*-\s*|\s+)old\b", re.IGNORECASE)
"""An age, "74-year-old" (or "74 - year - old" as tokenized text, "74 years old"): its figure is the age
("Lynne Abraham , 74 ,"), and its "year" no time of the statement ("played last year")."""


@lru_cache(maxsize=65536)
def _day_numbers(text: str) -> frozenset[str]:
    """The numbers a text writes only as the day of a month ("on March 18", "18 March"): a date, which
    states no age, score or count of the same figure."""
    found = tokens(text)
    days: set[str] = set()
    others: set[str] = set()
    for position, token in enumerate(found):
        if not token.number:
            continue
        beside = {found[i].text for i in (position - 1, position + 1) if 0 <= i < len(found)}
        is_day = token.text.isdigit() and 1 <= int(token.text) <= 31 and bool(beside & lexical_tokens.MONTHS)
        (days if is_day else others).add(token.text)
    return frozenset(days - others)


_DENIALS = frozenset({"no", "not", "never", "none", "nobody", "nothing", "neither", "nor", "without", "cannot",
                      "nowhere"})
"""The words that make a statement deny something ("No one was hurt", "He did not play", "never", "without
a fight"); ``n't`` and "no one" are read as ``not`` and ``no`` by the tokenizer."""


_CLAUSES = re.compile(r"\s*(?:,\s*)?\b(?:but|whereas|although|though)\b\s*|\s*;\s*", re.IGNORECASE)
"""Where a statement joins two clauses that each state a fact ("X, but Y"; "X; Y"): "and" is left out, since it
joins the names of one fact as often ("Paul and Laura Elliott ran")."""


def _denies(statement: str) -> bool:
    """Whether a statement denies something: one of its words is a denial (``_DENIALS``, as written or as
    its token: "didn't" is ``not``)."""
    return any(token.raw in _DENIALS or token.text in _DENIALS for token in tokens(statement))


def _dated(text: str) -> bool:
    """Whether a text names a month (a statement with a date may be stated by a sentence's day)."""
    return bool(content_set(text) & lexical_tokens.MONTHS)


def _statement_names(statement: str) -> frozenset[str]:
    """The names of a statement (a sentence, so its first word is capitalized whatever it is): the words
    ``_entities`` reads as names, and the first word too when the second is capitalized as well ("Jane Doe
    was born ...", not "Students found ...")."""
    names = set(_entities(statement))
    words = [word.strip("\"'([{\u201c\u2018") for word in statement.split()[:2]]
    if len(words) == 2 and words[0][:1].isupper() and words[1][:1].isupper():
        names.update(t.text for t in tokens(words[0]) if not t.stop and not t.number)
    return frozenset(names)


_CALENDAR = frozenset(content("monday tuesday wednesday thursday friday saturday sunday january february march "
                              "april may june july august september october november december spring summer autumn "
                              "winter christmas easter"))
"""Capitalized words that are no names: days, months, seasons and feasts ("died on Thursday morning")."""


def _name_groups(statement: str, names: frozenset[str], statement_tokens: set[str]) -> list[frozenset[str]]:
    """The statement's names, each as the set of its content tokens, in the order the statement writes them:
    its names of several words (``_name_runs``) and each other name word, less titles and company forms,
    days, months and seasons."""
    runs = [run & statement_tokens - _CALENDAR for run in _name_runs(statement)]
    runs = [run for run in runs if run]
    inside = set().union(*runs) if runs else set()
    singles = [frozenset({name}) for name in names - inside - _NAME_AFFIXES - _CALENDAR if name in statement_tokens]
    order = {token: position for position, token in reversed(list(enumerate(content(statement))))}
    return sorted(runs + singles, key=lambda group: min(order.get(t, len(order)) for t in group))


def _group_in(group: frozenset[str], hay: frozenset[str]) -> bool:
    """Whether a sentence (its tokens ``hay``) writes some word of a name: as such, as a word with the same
    first four letters (a derivation: Cuba / Cuban, Italy / Italian) or spelled otherwise (``_near``)."""
    if group & hay:
        return True
    return any(len(t) >= 4 and any(h[:4] == t[:4] or _near(t, h) for h in hay) for t in group)


def _leads(statement: str, group: frozenset[str]) -> bool:
    """Whether the name ``group`` is the statement's first words (its subject, what a summary may name by a
    pronoun or a description: "She was forced into Huminski's car" for "Zbigniew Huminski forced Chloe ...")."""
    first = content(statement)[:1]
    return bool(first) and first[0] in group


_JOINS = frozenset({"and", "&"})


def _subject_names(statement: str) -> frozenset[str]:
    """The content tokens of the names a statement starts with, names joined by "and" included: its first word,
    then each word written with a capital or joining two names ("and", "&"), up to the first other word.
    "Paul and Laura Elliott ran across the finish line" is said of both, whom a summary names as "the pair"
    or "they", as it names one subject by a pronoun (``_leads``)."""
    words = statement.split()
    run = words[:1]
    for word in words[1:]:
        if not (word[:1].isupper() or word.lower() in _JOINS):
            break
        run.append(word)
    return frozenset(content(" ".join(run)))


def _inside_other_name(run: frozenset[str], sentence: str, statement_tokens: set[str]) -> bool:
    """Whether ``sentence`` writes a word of the name ``run`` beside a capitalized word that is no part of it,
    nor of the statement, nor a title: another person of the same family or first name ("Kimbal Musk",
    "Pushpa Basu"). A lower-cased sentence shows no capitals, so no other name either."""
    words = [word.strip("\"'([{\u201c\u2018,.;:!?)]}\u201d\u2019") for word in sentence.split()]
    found = [{t.text for t in tokens(word) if not t.stop and not t.number} for word in words]
    for position, word_tokens in enumerate(found):
        if not word_tokens & run:
            continue
        for other in (position - 1, position + 1):
            if 0 <= other < len(words) and words[other][:1].isupper():
                extra = found[other] - run - statement_tokens - _NAME_AFFIXES
                if extra:
                    return True
    return False


_SPLIT_DESIGNATION = re.compile(r"([a-z]+)(\d+)")


@lru_cache(maxsize=65536)
def _designation_forms(sentence: str) -> tuple[frozenset[str], frozenset[str]]:
    """Tokens and figures a sentence states without its tokenizer reading them so: a designation written in
    lower case ("bump 2 breast" is the "Bump 2" of a statement; the tokenizer joins a word and a number only
    after a capital), and the word and figure of a designation read from a capitalized word before a
    number ("Carding 14 - under - par" states 14, which the designation ``carding14`` hides). Only for
    designations whose parts the sentence writes apart: ``f35`` in "the F-35" states no 35."""
    text = sentence.lower()
    ordered = content(sentence)
    extra_tokens: set[str] = set()
    extra_numbers: set[str] = set()
    for word, following in zip(ordered, ordered[1:]):
        if word.isalpha() and following.isdigit() and re.search(rf"\b{word}\w*\s+{following}\b", text):
            extra_tokens.add(word + following)
    for identifier in _identifiers(ordered):
        match = _SPLIT_DESIGNATION.fullmatch(identifier)
        if match and re.search(rf"\b{match[1]}\w*\s+{match[2]}\b", text):
            extra_tokens.update(match.groups())
            extra_numbers.add(match[2])
    return frozenset(extra_tokens), frozenset(extra_numbers)


_FIGURE_WORDS = frozenset({"one", "first"})
"""Number words that are as often no figure as a figure: "one for an engineer", "no one", "pulled one back",
"the first to ...". A statement that writes its 1 only so does not require the figure (it still counts as one
of its words)."""


@lru_cache(maxsize=16384)
def _required_numbers(statement: str) -> frozenset[str]:
    """The figures a sentence must state to state ``statement``: its numbers, less a 1 written only as
    ``one`` or ``first`` (``_FIGURE_WORDS``), and less years (accessory, as for an answer)."""
    found = numbers(statement)
    if "1" in found:
        words = {word.strip(".,;:!?\"'()[]").lower() for word in statement.split()}
        if "1" not in words and words & _FIGURE_WORDS:
            found = found - {"1"}
    return frozenset(n for n in found if not _is_year(n))


_MISSING_NAME_FACTOR = 0.75
"""What a name of the claim that the cited document never writes leaves of the ``attested`` score. Milder than
a missing number's 0.5: on translated news (judge-dev) names are often spelled otherwise than the report spells
them, and halving flipped an answer the reference judged attested."""

_QUOTED = re.compile(r"[\"\u201c]([^\"\u201d]+)[\"\u201d]")
"""A quoted span: the title of a work ("There Is No Evil"), a nickname, a quotation; its capitals are a
title's, and a translated document renders the title in its own words."""


def _missing_names(sentence: str, passages: Sequence[frozenset[str]]) -> list[str]:
    """The names of ``sentence`` (``_entities``, less titles and company forms, less words inside quotation
    marks) that no passage writes, neither as such, nor as a word with the same first four letters (a
    derivation: Iran / Iranian), nor as another spelling (``_near``: Rasoulof / Rasulof)."""
    names = _entities(sentence) - _NAME_AFFIXES
    if not names:
        return []
    for quoted in _QUOTED.findall(sentence):
        names -= set(content(quoted))
    every, prefixes = _token_prefixes(tuple(passages))
    missing = [n for n in names if n not in every and not (len(n) >= 4 and n[:4] in prefixes)]
    return sorted(n for n in missing if not any(_near(n, t) for t in every))


@lru_cache(maxsize=4096)
def _token_prefixes(passages: tuple[frozenset[str], ...]) -> tuple[frozenset[str], frozenset[str]]:
    """Every content token of a document's passages, and the first four letters of those of four or more."""
    every = frozenset().union(*passages)
    return every, frozenset(t[:4] for t in every if len(t) >= 4)


@lru_cache(maxsize=65536)
def _weights(text: str, number_weight: float, entity_weight: float) -> dict[str, float]:
    """The weight of ``text``'s numbers and names (every other token weighs 1); cached per text, so the dict
    is shared: read it, never change it."""
    weights = {t: number_weight for t in numbers(text)}
    for entity in _entities(text):
        weights.setdefault(entity, entity_weight)
    return weights


def _request_text(question: Question) -> str:
    request = question.request
    if request is None:
        return ""
    return " ".join(part for part in (request.title, request.problem_statement, request.background) if part)


@lru_cache(maxsize=32768)
def _document_passages(doc_id: str, title: str, text: str, size: int,
                       stride: int) -> tuple[tuple[frozenset[str], ...], frozenset[str]]:
    """Content-token sets of the document's passages (the windows of ``argue_eval.passages``, title in each) and
    the document's numbers; cached, since a document is cited by many sentences of many runs."""
    title_set = content_set(title) if title.strip() else frozenset()
    windows = word_windows(text, size, stride)
    passages = tuple(words | title_set for words, _ in windows) or ((title_set,) if title_set else ())
    document_numbers = frozenset().union(*(nums for _, nums in windows)) | numbers(title)
    return passages, document_numbers


@lru_cache(maxsize=32768)
def _document_set(doc_id: str, title: str, text: str, size: int, stride: int) -> frozenset[str]:
    """Every content token of one document (its passages together), cached per document."""
    return frozenset().union(*_document_passages(doc_id, title, text, size, stride)[0])


@lru_cache(maxsize=4096)
def _documents_set(documents: tuple[Document, ...], size: int, stride: int) -> frozenset[str] | None:
    """Every content token of the documents (their passages together; ``None`` when all are empty), cached
    per set of documents: the uncited sentences of a report all compare with the documents it cites."""
    sets = [_document_set(d.doc_id, d.title or "", d.text or "", size, stride)
            for d in documents if (d.text or "").strip() or (d.title or "").strip()]
    return frozenset().union(*sets) if sets else None


_PADDED_PHRASES = tuple((phrase, f" {phrase} ") for phrase in NEGATION_PHRASES)
_PADDED_IDIOMS = tuple((idiom, f" {idiom} ") for idiom in _NOT_NEGATIVE)


@lru_cache(maxsize=65536)
def _negation(sentence: str) -> tuple[float, tuple[str, ...]]:
    """``LexicalJudge.negation_score`` of a text (an uncited sentence is asked negative, then requires-citation
    or nugget-agrees: cached per text)."""
    raw_words = [t.raw for t in tokens(sentence)]
    lowered = " " + " ".join(raw_words) + " "
    found: list[str] = []
    score = 0.0
    for word in raw_words:
        if word in NEGATION_CUES:
            found.append(word)
            score += 1.0
    for phrase, padded in _PADDED_PHRASES:
        if padded in lowered:
            found.append(phrase)
            score += 1.0
    for idiom, padded in _PADDED_IDIOMS:
        if padded in lowered:
            found.append(f"-{idiom}")
            score -= 2.0
    return max(0.0, score), tuple(found)


@lru_cache(maxsize=65536)
def _support_weights(sentence: str, number_weight: float, entity_weight: float) -> tuple[tuple[tuple[str, float], ...], float]:
    """The distinct content tokens of ``sentence`` with their weights (in ``set`` order, as ``support_score``
    sums them) and their total: a sentence citing several documents is checked against each."""
    weights = _weights(sentence, number_weight, entity_weight)
    weighted = tuple((token, weights.get(token, 1.0)) for token in set(content(sentence)))
    return weighted, sum(weight for _, weight in weighted)


@lru_cache(maxsize=65536)
def _support_groups(sentence: str, number_weight: float, entity_weight: float
                    ) -> tuple[frozenset[str], tuple[tuple[float, frozenset[str]], ...]] | None:
    """The sentence's distinct content tokens that weigh 1, and the others by weight, when every weight is exact
    (``_exact_weight``): a passage's cover is then its counts per group, the same float as the sum token by token
    (``support_score``); ``None`` otherwise."""
    weighted, _ = _support_weights(sentence, number_weight, entity_weight)
    groups: dict[float, set[str]] = {}
    for token, weight in weighted:
        groups.setdefault(weight, set()).add(token)
    if not all(_exact_weight(weight) for weight in groups):  # checked per weight, not per token: a few weights
        return None
    plain = frozenset(groups.pop(1.0, ()))
    return plain, tuple((weight, frozenset(tokens)) for weight, tokens in groups.items())


AnswerPlan = tuple[bool, tuple[str, ...], frozenset[str], tuple[str, ...], frozenset[str], tuple[str, ...],
                   dict[str, float], frozenset[str], frozenset[str], tuple[str, ...], tuple[tuple[str, ...], ...],
                   tuple[frozenset[str], ...], frozenset[str], frozenset[str], frozenset[str]]
"""What ``LexicalJudge.answer_score`` reads of an answer, its question and its request, whatever the sentence
(``_answer_plan``)."""


@lru_cache(maxsize=16384)
def _answer_plan(answer: str, question_text: str, context_text: str, number_weight: float,
                 entity_weight: float) -> AnswerPlan | None:
    """The sentence-free half of ``LexicalJudge.answer_score``, once per answer (with its question and request)
    rather than once per question: a topic's few nugget answers are compared with thousands of sentences.
    ``None`` for an answer that is a statement (``_is_statement``: ``statement_score`` then). In order: whether
    every token is compared (an answer of function words only), the answer's tokens compared (its informative
    ones, or all) and their set, the informative tokens and their set, the question's tokens the answer does not
    repeat, the answer's weights, its names (for ``_fuzzy_hay``) and its names as an answer names them, the
    relation the question asks, the answer's parts, its several-word names, the question's token set, the
    answer's numbers and designations. Shared: read them, never change them."""
    answer_tokens = content(answer)
    every_token = not answer_tokens
    if every_token:  # an answer of function words only ("Yes", "None of them"): compare every token
        answer_tokens = tuple(t.text for t in tokens(answer))
    question_set = content_set(question_text)
    if _is_statement(set(answer_tokens), question_set):
        return None
    # words the answer repeats from its question ("Who accepted the prize for Rasoulof?" -> "Rasoulof's
    # daughter") prove nothing: a sentence about the question has them anyway
    informative = tuple(t for t in answer_tokens if t not in question_set)
    repeated = set(answer_tokens)
    q_tokens = tuple(t for t in content(question_text) if t not in repeated)
    answer_tokens = informative or answer_tokens
    answer_set = frozenset(answer_tokens)
    # what the question asks of the name: its words other than the request's topic ("Who directed Taxi?"
    # in a report on Jafar Panahi asks "directed" and "Taxi"); all of them when the request has them all
    context_set = content_set(context_text) if context_text else frozenset()
    relation = tuple(t for t in q_tokens if t not in context_set) or q_tokens
    parts = tuple(tuple(t for t in content(part) if t in answer_set) for part in _CONJUNCTION.split(answer))
    return (every_token, answer_tokens, answer_set, informative, frozenset(informative), q_tokens,
            _weights(answer, number_weight, entity_weight), _entities(answer),
            _entities(answer, first=len(answer.split()) > 1), relation, tuple(part for part in parts if part),
            _name_runs(answer), question_set, numbers(answer), frozenset(_identifiers(answer_tokens)))


def forget_texts() -> None:
    """Empty every per-text cache of the lexical judge and its tokenizer (``lexical_tokens.forget_texts``)."""
    lexical_tokens.forget_texts()
    for cached in (_entities, _name_runs, _meta_cue, _summary_cue, _weights, _negation, _support_weights,
                   _support_groups, _document_passages, _document_set, _documents_set, _token_prefixes,
                   _designation_forms, _required_numbers, _statement_alternatives, _day_numbers, _answer_plan):
        cached.cache_clear()


ANSWER_GROUP = 512
"""Answers per group of ``LexicalJudge.iter_answer_groups``."""


class LexicalJudge(JudgeBackend):
    """Answers all seven flowchart questions by token overlap (see the module docstring and docs/judging.md).

    Thresholds are keyword options; ``params()`` returns them, so the cache never reuses an answer made
    under other thresholds. ``version`` changes whenever a heuristic changes.
    """

    name: ClassVar[str] = "lexical"
    version: ClassVar[str] = "11"
    kinds: ClassVar[frozenset[str]] = frozenset(JUDGMENT_KINDS)

    def __init__(
        self,
        *,
        answer_threshold: float = 0.45,
        answer_question_weight: float = 0.4,
        attested_threshold: float = 0.45,
        relevant_threshold: float = 0.5,
        negative_threshold: float = 1.0,
        nugget_agrees_threshold: float = 0.4,
        requires_citation_threshold: float = 0.4,
        repeat_threshold: float = 0.7,
        number_weight: float = 2.0,
        entity_weight: float = 1.5,
        passage_words: int = DEFAULT_PASSAGE_WORDS,
        passage_stride: int = DEFAULT_PASSAGE_STRIDE,
    ) -> None:
        options = _checked_options(locals())  # the options as given, before anything else is bound
        self.answer_threshold: float = options["answer_threshold"]
        self.answer_question_weight: float = options["answer_question_weight"]
        self.attested_threshold: float = options["attested_threshold"]
        self.relevant_threshold: float = options["relevant_threshold"]
        self.negative_threshold: float = options["negative_threshold"]
        self.nugget_agrees_threshold: float = options["nugget_agrees_threshold"]
        self.requires_citation_threshold: float = options["requires_citation_threshold"]
        self.repeat_threshold: float = options["repeat_threshold"]
        self.number_weight: float = options["number_weight"]
        self.entity_weight: float = options["entity_weight"]
        self.passage_words: int = options["passage_words"]
        self.passage_stride: int = options["passage_stride"]
        self._provenance = self.provenance()  # one shared dict: every verdict of this judge has the same
        self._methods: dict[str, Any] = {}  # kind -> the method answering it (``judge``), looked up once

    def use_profile(self, profile: str) -> None:
        super().use_profile(profile)
        self._provenance = self.provenance()  # the verdicts name the profile too

    def params(self) -> dict[str, Any]:
        return {
            "answer_threshold": self.answer_threshold,
            "answer_question_weight": self.answer_question_weight,
            "attested_threshold": self.attested_threshold,
            "relevant_threshold": self.relevant_threshold,
            "negative_threshold": self.negative_threshold,
            "nugget_agrees_threshold": self.nugget_agrees_threshold,
            "requires_citation_threshold": self.requires_citation_threshold,
            "repeat_threshold": self.repeat_threshold,
            "number_weight": self.number_weight,
            "entity_weight": self.entity_weight,
            "passage_words": self.passage_words,
            "passage_stride": self.passage_stride,
        }

    def forget(self) -> None:
        """Empty the per-text caches (tokens, document passages, names): the next topic reads other texts, and
        a round's sentences filled them far beyond one topic's."""
        forget_texts()

    # ------------------------------------------------------------------------------------------------
    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        return [self.judge(question) for question in questions]

    def iter_answer_groups(self, questions: Sequence[Question]) -> Iterator[list[tuple[int, Verdict | None]]]:
        """The answers in groups of ``ANSWER_GROUP`` (a few hundredths of a second of work each): the runner checks
        per group, not per answer, whether to commit and whether a signal asked it to stop (the cache's
        transactions are larger: ``asking``). Each answer depends on its own question only, so the grouping
        changes no answer."""
        for start in range(0, len(questions), ANSWER_GROUP):
            yield [(start + offset, self.judge(question))
                   for offset, question in enumerate(questions[start:start + ANSWER_GROUP])]

    def judge(self, question: Question) -> Verdict | None:
        """The verdict for one question, or ``None`` when the question lacks what this kind needs."""
        method = self._methods.get(question.kind)
        if method is None:
            method = self._methods[question.kind] = getattr(self, f"_{question.kind}", None)
        if method is None:
            return None
        result = method(question)
        if result is None:
            return None
        score, threshold, rationale = result
        value = score >= threshold
        return Verdict(value, self.name, _confidence(score, threshold), rationale, provenance=self._provenance)

    def _verdict_parts(self, score: float, threshold: float, rationale: str) -> tuple[float, float, str]:
        return max(0.0, min(1.0, score)), threshold, rationale

    # ------------------------------------------------------------------------------------------------
    # answers: does the sentence give this nugget answer?
    def answer_score(self, sentence: str, answer: str, question_text: str = "",
                     context_text: str = "") -> tuple[float, str]:
        """Score in [0, 1] that ``sentence`` gives ``answer`` to ``question_text``, with a rationale.

        Answer coverage (its content tokens found in the sentence; numbers weigh double) counts
        ``1 - answer_question_weight``; the share of the question's own content words in the sentence counts
        the rest (an answer word that appears in a sentence about something else is a weaker match). An
        answer number or designation missing from the sentence caps the score below any sensible threshold
        (wrong number, another model); so, less firmly, do a part of the answer or of a name left out, and a
        name in a sentence that does not state what the question asks of it. ``context_text`` is the
        request: question words it shares are the report's topic, not what the question asks.
        """
        plan = _answer_plan(answer, question_text, context_text, self.number_weight, self.entity_weight)
        if plan is None:
            return self.statement_score(sentence, answer)
        (every_token, answer_tokens, answer_set, informative, informative_set, q_tokens, weights, answer_entities,
         answer_names, relation, parts, name_runs, question_set, answer_numbers, answer_identifiers) = plan
        # an answer of function words only ("Yes", "None of them"): compare every token
        sentence_set = frozenset(t.text for t in tokens(sentence)) if every_token else content_set(sentence)
        sentence_entities = _entities(sentence)
        sentence_set = _fuzzy_hay(answer_tokens, sentence_set, answer_entities | sentence_entities)
        a_cov = _cover(answer_tokens, sentence_set, weights)
        q_cov = _cover(q_tokens, sentence_set) if q_tokens else a_cov
        w = self.answer_question_weight
        score = (1.0 - w) * a_cov + w * q_cov
        cap = 0.8 * self.answer_threshold  # a likely but unsure no: a cascade asks a stronger judge
        # a name is a several-word name of the answer ("Jafar Panahi", not "Women"), or a word the sentence
        # writes as a name ("Bayer" inside a sentence)
        names = answer_names | (informative_set & sentence_entities)
        r_cov = _cover(relation, sentence_set)
        names_only = bool(informative) and informative_set <= names and bool(q_tokens) and r_cov == 0
        if names_only:
            # a name alone, in a sentence that states nothing of what the question asks of it ("Who directed
            # Taxi?" / "Panahi was convicted in Iran"): the name is there, the answer to this question is not
            score = min(score, cap)
        partial = len(parts) > 1 and any(_cover(part, sentence_set) < 0.5 for part in parts)
        if partial:
            score = min(score, cap)  # "X and Y" is not given by a sentence with X only
        # a name of several words is given whole or not at all: "Musk's brother Kimbal" or "Kimbal Musk" does
        # not name Elon Musk (words the question already has, titles and company forms are not required)
        partial_names = [run for run in name_runs
                         if run & sentence_set and (run - question_set) - sentence_set]
        if partial_names:
            score = min(score, cap)
        missing_numbers = sorted(answer_numbers - numbers(sentence))
        if answer_numbers - set(missing_numbers):
            # "2 August 2025" is given by "on 2 August": a year beside a matched day or figure is accessory
            missing_numbers = [n for n in missing_numbers if not _is_year(n)]
        if answer_numbers and missing_numbers:
            score = min(score, 0.5 * self.answer_threshold)
        # a designation is a name that must match as exactly as a number: "Falcon 9" is not "Falcon Heavy"
        missing_designations = sorted(answer_identifiers - sentence_set)
        if missing_designations:
            score = min(score, 0.5 * self.answer_threshold)
        missing = sorted(answer_set - sentence_set)
        rationale = f"answer tokens {_fmt(a_cov)} in sentence, question {_fmt(q_cov)}"
        rationale += _missing_said(missing, missing_numbers, missing_designations)
        if partial:
            rationale += "; only part of a two-part answer"
        if partial_names:
            rationale += f"; only part of the name {' '.join(sorted(partial_names[0]))}"
        if names_only:
            rationale += f"; a name in a sentence about something else (none of {' '.join(relation[:4])})"
        return score, rationale

    def statement_score(self, sentence: str, statement: str) -> tuple[float, str]:
        """Score in [0, 1] that ``sentence`` states ``statement`` (a nugget that is a statement, not a question
        with an answer: an SCU, a nuggetizer nugget), with a rationale.

        The statement's content tokens found in the sentence (numbers weigh ``number_weight``, names
        ``entity_weight``) count ``1 - answer_question_weight``; the share of what it says of its names (its
        other content words: the relation) counts the rest, as the question's words do for an answer. A
        statement is mostly its names ("Jane Doe was born in Paris"), and a sentence about the same people
        that says something else ("Jane Doe left Paris") has most of its weighted tokens: the relation's
        weight is what tells the two apart. None of the relation in the sentence does not cap the score:
        the relation is the part a summary paraphrases ("James Rodriguez sold by Porto" / "another player
        off the Porto production line", which people judged present; on REALSumm such a cap turned 164
        present facts into misses for 46 absent ones it kept out). A figure of the statement missing from
        the sentence (``_required_numbers``: not a year, not a 1 written as "one") or a designation caps the
        score at half the threshold, as for an answer; a name of several words given in part inside another
        name ("John Doe" for "Jane Doe", ``_inside_other_name``) at 0.8 x the threshold. Names are read from
        the statement's capitals (``_statement_names``): a lower-cased sentence needs none, and a
        designation may be written in lower case or apart (``_designation_forms``).

        Version 9 (read from REALSumm's disagreements with people): a statement with slashes is each of its
        readings, the best stated deciding (``_statement_alternatives``: "Singer/Bieber arrived"); words that
        only say an event exists ("happened", "took place") and a year the sentence leaves out (when it gives
        no other) are not required; an age is its figure ("74-year-old" = "74", and its "year" is no time);
        a sentence's day of a month ("March 18") states no other figure of the statement; and a name the
        statement says something about (not the subject it starts with, which a summary may give as "she" or
        "the 21-year-old singer"; not a day or a month) missing from the sentence, neither as such nor
        derived ("Cuban" for Cuba), caps the score at 0.8 x the threshold, as a name given in part does:
        "Ronnie Carroll died" does not state "Ronnie Carroll died in London".

        Version 10: a statement that denies ("No one was hurt", ``_denies``) is not stated by a sentence with
        no negation cue, and a statement of two clauses ("X, but Y", ``_CLAUSES``) not by a sentence giving
        less than half of one of them: both cap the score at 0.8 x the threshold.

        Version 11: the subject exempt from the missing-name cap is every name the statement starts with, names
        joined by "and" included (``_subject_names``: "Paul and Laura Elliott ran ..." / "The pair ran ...").
        """
        alternatives = _statement_alternatives(statement)
        if len(alternatives) > 1:
            # "Singer/Bieber arrived ...": each reading is the statement; the best-stated one decides
            scored = [(self._statement_score(sentence, alternative), alternative) for alternative in alternatives]
            (score, rationale), alternative = max(scored, key=lambda item: item[0][0])
            return score, f"{rationale}; reading {alternative!r}"
        return self._statement_score(sentence, statement)

    def _statement_score(self, sentence: str, statement: str) -> tuple[float, str]:
        """``statement_score`` of one reading of the statement (no alternatives left in it)."""
        statement = _AGE.sub(r"\1", _EVENT_VERBS.sub(" ", statement))
        sentence = _AGE.sub(r"\1", sentence)
        statement_tokens = content(statement) or tuple(t.text for t in tokens(statement))
        sentence_numbers = numbers(sentence)
        if not any(_is_year(n) for n in sentence_numbers):
            # a year is accessory: news writes "on Saturday" for "on Saturday 11 April 2015"; a sentence that
            # gives another year still misses the statement's
            statement_tokens = tuple(t for t in statement_tokens if not _is_year(t)) or statement_tokens
        sentence_set = content_set(sentence) if content(statement) else frozenset(t.text for t in tokens(sentence))
        days = _day_numbers(sentence) - _day_numbers(statement) if not _dated(statement) else frozenset()
        if days:
            # "on March 18" gives a day, not the 18 of "Charles Terreni was 18"
            sentence_numbers -= days
            sentence_set -= days
        designations, designation_numbers = _designation_forms(sentence)
        sentence_set |= designations
        names = _statement_names(statement)
        weights = {t: self.number_weight for t in numbers(statement)}
        for name in names:
            weights.setdefault(name, self.entity_weight)
        sentence_set = _fuzzy_hay(statement_tokens, sentence_set, names | _entities(sentence))
        cover = _cover(statement_tokens, sentence_set, weights)
        relation = [t for t in statement_tokens if t not in names]
        r_cov = _cover(relation, sentence_set) if relation else cover
        w = self.answer_question_weight
        score = (1.0 - w) * cover + w * r_cov
        missing_numbers = sorted(_required_numbers(statement) - sentence_numbers - designation_numbers)
        missing_designations = sorted(_identifiers(statement_tokens) - sentence_set)
        if missing_numbers or missing_designations:
            score = min(score, 0.5 * self.answer_threshold)
        # a name given in part is the same person ("Carroll died" for "Ronnie Carroll died": a summary names
        # people in full once) unless the sentence writes that part inside another name ("Pushpa Basu")
        partial_names = [run for run in _name_runs(statement) if run & sentence_set and run - sentence_set
                         and _inside_other_name(run, sentence, set(statement_tokens))]
        if partial_names:
            score = min(score, 0.8 * self.answer_threshold)
        # a name the statement says something about, missing from the sentence, is a fact the sentence does
        # not state ("Ronnie Carroll died in London" / "Ronnie Carroll died ..."), as a missing figure is; the
        # name the statement starts with is its subject, which a summary may name by a pronoun or a
        # description ("She was forced into Huminski's car", "the 21-year-old singer")
        groups = _name_groups(statement, names, set(statement_tokens))
        missing_names = [group for position, group in enumerate(groups) if not _group_in(group, sentence_set)
                         and not (position == 0 and _leads(statement, group))
                         and not group <= _subject_names(statement)]
        if missing_names:
            score = min(score, 0.8 * self.answer_threshold)
        # a statement that denies ("No one was hurt", "He never played for Chelsea") is not stated by a sentence
        # that denies nothing ("one man was hurt", "he played for Chelsea"), however many words they share
        unnegated = _denies(statement) and not _negation(sentence)[0]
        if unnegated:
            score = min(score, 0.8 * self.answer_threshold)
        # "No injuries were reported, but a girl is missing": two facts, each of which the sentence must give
        clauses = [content(clause) for clause in _CLAUSES.split(statement)]
        clauses = [clause for clause in clauses if clause]
        half_stated = len(clauses) > 1 and any(_cover(clause, sentence_set) < 0.5 for clause in clauses)
        if half_stated:
            score = min(score, 0.8 * self.answer_threshold)
        missing = sorted(set(statement_tokens) - sentence_set)
        rationale = f"statement tokens {_fmt(cover)} in sentence, what it says of its names {_fmt(r_cov)}"
        rationale += _missing_said(missing, missing_numbers, missing_designations)
        if partial_names:
            rationale += f"; only part of the name {' '.join(sorted(partial_names[0]))}"
        if missing_names:
            rationale += f"; name {' '.join(sorted(missing_names[0]))} not in sentence"
        if unnegated:
            rationale += "; the statement denies, the sentence does not"
        if half_stated:
            rationale += "; only one of the statement's two clauses"
        return score, rationale

    def _answers(self, question: Question) -> tuple[float, float, str] | None:
        answer = question.answer if question.answer is not None else question.key.answer
        if answer is None or not answer.strip():
            return None
        question_text = question.nugget.question if question.nugget is not None else ""
        score, rationale = self.answer_score(question.sentence, answer, question_text, _request_text(question))
        return self._verdict_parts(score, self.answer_threshold, rationale)

    # ------------------------------------------------------------------------------------------------
    # attested: does the cited document support the sentence?
    def support_score(self, sentence: str, passages: Sequence[frozenset[str]],
                      document_numbers: frozenset[str]) -> tuple[float, str]:
        """Weighted share of the sentence's content tokens in the best passage, with a rationale.

        ``passages`` are the content-token sets of the document's passages (``_document_passages``).
        Numbers weigh ``number_weight`` and names ``entity_weight``: a sentence whose figures or names the
        document never mentions is the typical unsupported claim. A number other than a year absent from
        the whole document halves the score; a name absent from it (``_missing_names``) takes a quarter off:
        the document supports the claim in part at best ("Smith joined Acme in 2019" from a page about Smith
        that never names Acme), but a name has more spellings than a number (a translation, a derivation).
        """
        sentence_tokens = content(sentence)
        if not sentence_tokens:  # nothing to check either way: a yes at the threshold, least confident
            return self.attested_threshold, "no content words to attest"
        weighted, total = _support_weights(sentence, self.number_weight, self.entity_weight)
        groups = _support_groups(sentence, self.number_weight, self.entity_weight)
        best, best_index = 0.0, -1
        for index, passage in enumerate(passages):  # _cover, with the sentence's weights summed once
            if groups is not None:  # by counts per weight: the same float (``_support_groups``)
                plain, heavy = groups
                found = len(plain & passage) + sum([weight * len(tokens & passage) for weight, tokens in heavy])
                cover = found / total
            else:
                cover = sum(weight for token, weight in weighted if token in passage) / total
            if cover > best:
                best, best_index = cover, index
        missing_numbers = sorted(n for n in numbers(sentence) - document_numbers if not _is_year(n))
        missing_names = _missing_names(sentence, passages)
        score = best * (0.5 if missing_numbers else 1.0) * (_MISSING_NAME_FACTOR if missing_names else 1.0)
        rationale = f"best passage {best_index + 1}/{len(passages)} covers {_fmt(best)} of the sentence"
        if missing_numbers:
            rationale += f"; number {' '.join(missing_numbers[:3])} not in document"
        if missing_names:
            rationale += f"; name {' '.join(missing_names[:3])} not in document"
        return score, rationale

    def _passages_of(self, document: Document) -> tuple[tuple[frozenset[str], ...], frozenset[str]]:
        """The document's passage token sets and numbers (``_document_passages``, cached per document)."""
        return _document_passages(document.doc_id, document.title or "", document.text or "",
                                  self.passage_words, self.passage_stride)

    def _attested(self, question: Question) -> tuple[float, float, str] | None:
        document = question.document
        if document is None:
            return None
        passages, document_numbers = self._passages_of(document)
        if not passages:
            return self._verdict_parts(0.0, self.attested_threshold, "cited document is empty")
        score, rationale = self.support_score(question.sentence, passages, document_numbers)
        return self._verdict_parts(score, self.attested_threshold, rationale)

    # ------------------------------------------------------------------------------------------------
    # relevant: does the cited document bear on the request (and the nugget, when one is given)?
    def _relevant(self, question: Question) -> tuple[float, float, str] | None:
        document = question.document
        if document is None or (question.request is None and question.nugget is None):
            return None
        doc_set = content_set(f"{document.title} {document.text}")
        scores: list[tuple[float, str]] = []
        if question.request is not None:
            title = question.request.title or _request_text(question)
            scores.append((_cover(content(title), doc_set), "request title"))
        if question.nugget is not None:
            nugget = question.nugget
            scores.append((_cover(content(nugget.question), doc_set), "nugget question"))
            for answer in nugget.answers:
                score, _ = self.answer_score(f"{document.title} {document.text}", answer.text, nugget.question)
                scores.append((score, f"answer {answer.text[:40]!r}"))
        score, what = max(scores)
        return self._verdict_parts(score, self.relevant_threshold, f"document covers {_fmt(score)} of the {what}")

    # ------------------------------------------------------------------------------------------------
    # negative: does the (uncited) sentence claim that something is absent or not the case?
    def negation_score(self, sentence: str) -> tuple[float, list[str]]:
        """Cue strength: 1 per negation word, 2 per negation phrase; idioms ("not only") cancel their cue."""
        score, found = _negation(sentence)
        return score, list(found)

    def _negative(self, question: Question) -> tuple[float, float, str] | None:
        strength, found = self.negation_score(question.sentence)
        threshold = self.negative_threshold
        # map the cue strength onto [0, 1] around the threshold (0 cues -> 0, threshold -> 0.5, 2x -> 1)
        score = min(1.0, strength / (2 * threshold)) if threshold > 0 else 1.0
        rationale = f"negation cues: {', '.join(found)}" if found else "no negation cue"
        return self._verdict_parts(score, 0.5, rationale)

    # ------------------------------------------------------------------------------------------------
    # nugget_agrees: does this negative nugget record the absence the sentence claims?
    def _nugget_agrees(self, question: Question) -> tuple[float, float, str] | None:
        nugget = question.nugget
        if nugget is None:
            return None
        sentence_set = content_set(question.sentence) - NEGATION_CUES
        q_tokens = [t for t in content(nugget.question) if t not in NEGATION_CUES and t not in _ABOUT_SOURCES]
        q_cov = _cover(q_tokens, sentence_set)
        answer = question.answer if question.answer is not None else question.key.answer
        a_cov = 0.0
        # an answer that only says "no" / "none" names no content: the question carries the absence
        if answer and set(content(answer)) - NEGATION_CUES - {"yes"}:
            a_cov, _ = self.answer_score(question.sentence, answer, nugget.question)
        score = max(q_cov, a_cov)
        strength, _ = self.negation_score(question.sentence)
        if strength == 0:
            score *= 0.5  # a nugget records an absence; a sentence without a negation rarely states one
        return self._verdict_parts(score, self.nugget_agrees_threshold,
                                   f"nugget question {_fmt(q_cov)} in sentence, answer {_fmt(a_cov)}"
                                   + ("" if strength else "; sentence has no negation cue"))

    # ------------------------------------------------------------------------------------------------
    # requires_citation: is the uncited sentence a claim (rather than an introduction or a restatement)?
    def _claim_score(self, sentence: str, request_text: str,
                     document_set: frozenset[str] | None) -> tuple[float, str]:
        """Score that ``sentence`` makes a claim needing a citation, with a rationale; ``document_set``: the
        cited documents' content tokens (``None``: no documents).

        The base is the share of the sentence's content tokens that the request does not contain (a
        restatement of the request is new in nothing). Numbers and names not in the request add 0.25 each
        (up to 0.5); words it shares with cited documents more than with the request add up to 0.25;
        report-talk phrases ("this report", "in summary") subtract 0.4.
        """
        sentence_tokens = content(sentence)
        if not sentence_tokens:
            return 0.0, "no content words"
        request_set = content_set(request_text)
        novelty = 1.0 - _cover(sentence_tokens, request_set)
        new_numbers = numbers(sentence) - numbers(request_text)
        new_entities = _entities(sentence) - request_set
        bonus = min(0.5, 0.25 * (len(new_numbers) + len(new_entities)))
        doc_bonus = 0.0
        if document_set is not None:
            in_docs = _cover(sentence_tokens, document_set)
            in_request = 1.0 - novelty
            doc_bonus = max(0.0, min(0.25, (in_docs - in_request) * 0.5))
        cue = _meta_cue(sentence)
        meta = [cue] if cue else []
        if not meta and self.negation_score(sentence)[0] > 0 and {t.raw for t in tokens(sentence)} & _SOURCE_TALK:
            meta = ["an absence in the sources"]  # "the reports contain no data on ...": about the sources
        score = novelty * 0.75 + bonus + doc_bonus
        if meta:
            score = min(score, 0.2)  # talk about the report or a summary of it: never a claim of its own
        parts = [f"new vs request {_fmt(novelty)}"]
        if new_numbers:
            parts.append(f"numbers {' '.join(sorted(new_numbers)[:3])}")
        if new_entities:
            parts.append(f"names {' '.join(sorted(new_entities)[:3])}")
        if doc_bonus:
            parts.append(f"document overlap +{_fmt(doc_bonus)}")
        if meta:
            parts.append(f"report talk: {meta[0]!r}")
        return score, "; ".join(parts)

    def _requires_citation(self, question: Question) -> tuple[float, float, str] | None:
        # each document's tokens come from the per-document cache that ``attested`` fills: the documents of
        # a report are cited by many of its sentences, and joining their texts would tokenize them anew
        document_set = _documents_set(question.cited_documents, self.passage_words, self.passage_stride)
        score, rationale = self._claim_score(question.sentence, _request_text(question), document_set)
        return self._verdict_parts(score, self.requires_citation_threshold, rationale)

    # ------------------------------------------------------------------------------------------------
    # first_instance: has the claim not appeared earlier in the report?
    def repeat_score(self, sentence: str, earlier: Sequence[str]) -> tuple[float, int]:
        """Highest share of the sentence's content tokens found in one earlier sentence, and its index.

        A sentence whose numbers differ from the earlier one's states a different figure: its share is
        halved (a new claim, however similar the wording).
        """
        sentence_tokens = content(sentence)
        if not sentence_tokens:
            return 0.0, -1
        sentence_numbers = numbers(sentence)
        best, best_index = 0.0, -1
        # ``_cover(sentence_tokens, ...)`` against each earlier sentence, the sentence's distinct tokens taken once
        distinct = set(sentence_tokens)
        size = len(distinct)
        # a summary restates several earlier sentences at once: cover it with all of them, at a small discount
        union: set[str] = set()
        for index, other in enumerate(earlier):
            other_set = content_set(other)
            union |= other_set
            share = len(distinct & other_set) / size
            if sentence_numbers and not sentence_numbers <= numbers(other):
                share *= 0.5
            if share > best:
                best, best_index = share, index
        summary = _summary_cue(sentence)
        # ... and a sentence that announces itself as a summary ("in short", "overall") is one: no discount then
        combined = _cover(sentence_tokens, frozenset(union)) + (0.2 if summary else -0.1)
        if sentence_numbers and not sentence_numbers <= {n for other in earlier for n in numbers(other)}:
            combined *= 0.5
        if combined > best:
            return combined, -1
        return best, best_index

    def _first_instance(self, question: Question) -> tuple[float, float, str] | None:
        if not question.earlier_sentences:
            return self._verdict_parts(1.0, 0.5, "first sentence of the report")
        repeat, index = self.repeat_score(question.sentence, question.earlier_sentences)
        # first instance = not a repeat: the score is 1 - repeat share, compared with 1 - repeat_threshold
        where = f"earlier sentence {index}" if index >= 0 else "the earlier sentences together"
        rationale = f"{where} share {_fmt(repeat)} of the content words"
        score = 1.0 - repeat
        # equal to the threshold counts as a repeat (score >= threshold means first instance)
        threshold = 1.0 - self.repeat_threshold + 1e-9
        return self._verdict_parts(score, threshold, rationale)
