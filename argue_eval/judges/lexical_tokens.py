"""Text normalization for the lexical judge: tokens that compare equal when they mean the same thing.

A report says "20,919", "3.7 percent" and "in July of 2019"; the nugget bank says "20919", "3.7%" and
"July 2019". Comparing raw strings misses all three. Here every text becomes a sequence of ``Token``s:

- case, accents and curly quotes are folded (NFKC, lower case);
- numbers are canonical: thousands separators dropped (``20,919`` -> ``20919``; not the comma of a date,
  ``April 25,2014`` -> ``25`` ``2014``), trailing decimal zeros
  dropped (``3.70`` -> ``3.7``), scale words applied (``1.2 million`` -> ``1200000``), number words
  read as digits (``three`` -> ``3``, ``third`` -> ``3``), ordinals read as their number (``11th`` -> ``11``);
- a designation, a name made of a word and a number (a word, a hyphen and a number; a capitalized word and
  a whole number), is one name token and no figure: ``COVID-19`` =
  ``Covid 19`` = ``covid19``, ``Falcon 9`` = ``Falcon-9`` = ``falcon9``, ``F-35s`` = ``f35`` (a year, a
  quantity such as "Nearly 300" or "Lund 38 votes", and a date keep their figures: ``_may_designate``);
- ``%``, ``per cent`` and ``percent`` are one token ``percent``; months are one token each (``Jul``, ``July``
  -> ``july``), so a date is its month and year tokens wherever they stand;
- words are stemmed (Snowball English, the ``snowballstemmer`` package: ``suicides`` = ``suicide``,
  ``increased`` = ``increase``) and a few words that name the same group are folded (``female`` = ``women``);
- irregular past forms are their verb (``won`` = ``win``, ``caught`` = ``catch``); a clitic on a function word
  is a function word (``they're``, ``it's``), ``n't`` and ``cannot`` are ``not``, and "no one" is ``no``;
- stopwords are kept in the token stream (negation cues need them) but flagged, and the judge compares
  content tokens only: token order and function words never decide a match.

Everything here is pure and cached per text; it imports no model and reads no file.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import accumulate, chain
from typing import Any, NamedTuple

import snowballstemmer

from ..passages import window_starts

__all__ = ["EVENT_VERBS", "Token", "tokens", "word_windows", "content", "content_set", "numbers", "STOPWORDS", "canonical_number", "stem",
           "forget_texts"]

_STEMMER = snowballstemmer.stemmer("english")

STOPWORDS: frozenset[str] = frozenset("""
a about above after again against all also am an and any are aren as at be because been before being below
between both but by can could did do does doing down during each either few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just let me more most my
myself nor of off on once only or other our ours ourselves out over own same she should so some such than
that the their theirs them themselves then there these they this those through to too under until up upon
very was we were what when where which while who whom whose why will with would you your yours yourself
yourselves via per within among amongst across according said says say stated states state reported
report reports including include includes included however therefore thus also well may might must shall
one's etc e.g i.e
""".split())
"""Function words and reporting verbs ("said", "according", "reported"): they never carry a claim. Negation
words (``no``, ``not``, ``never``) are deliberately absent: ``negative`` reads them, and for content
overlap they are rare enough not to matter."""

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                         "\u2212": "-", "\u2010": "-", "\u2011": "-"})
"""Curly quotes as straight ones; dashes, the minus sign and the Unicode hyphens (``F\u201135``, with a
non-breaking hyphen, is ``F-35``) as the ASCII hyphen."""

_MONTHS = {
    "january": "january", "jan": "january", "february": "february", "feb": "february", "march": "march",
    "mar": "march", "april": "april", "apr": "april", "may": "may", "june": "june", "jun": "june", "july": "july",
    "jul": "july", "august": "august", "aug": "august", "september": "september", "sep": "september",
    "sept": "september", "october": "october", "oct": "october", "november": "november", "nov": "november",
    "december": "december", "dec": "december",
}
MONTHS: frozenset[str] = frozenset(_MONTHS.values())
"""The tokens of the month names (``Jul`` and ``July`` are ``july``)."""
# "may", "march" and "dec" are ordinary words too: they count as months only next to a number (a day or year)
_AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar", "dec", "jan", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
                               "apr", "feb"})

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10,
}
"""Cardinals and ordinals ("the third bleaching" = "3 bleachings"); not "half" or "a dozen", which rarely
state a figure that must match."""
_SCALES = {"thousand": 1e3, "million": 1e6, "millions": 1e6, "billion": 1e9, "billions": 1e9, "trillion": 1e12,
           "k": 1e3, "m": 1e6, "bn": 1e9, "mn": 1e6}

# Words that name the same thing and that no stemmer folds (plural irregulars, adjective = noun groups).
_FOLD = {
    "female": "women", "females": "women", "woman": "women", "male": "men", "males": "men", "man": "men",
    "child": "children", "kid": "children", "kids": "children", "people": "persons", "person": "persons",
    "percentage": "percent", "pct": "percent", "died": "death", "dead": "death", "die": "death",
    "deaths": "death", "killed": "death", "us": "usa", "u.s": "usa", "america": "usa", "american": "usa",
    "americans": "usa", "nobody": "no", "noone": "no",
}

_IRREGULAR_VERBS = """
arise arose arisen | awake awoke awoken | beat beaten | become became | begin began begun | bend bent |
bite bitten | bleed bled | blow blew blown | break broke broken | breed bred | bring brought | build built |
buy bought | catch caught | choose chose chosen | cling clung | come came | creep crept | deal dealt | dig dug |
draw drawn | drink drank drunk | drive drove driven | eat ate eaten | fall fell fallen | feed fed | feel felt |
fight fought | find found | flee fled | fly flew flown | forbid forbade forbidden | forget forgot forgotten |
forgive forgave forgiven | freeze froze frozen | get got gotten | give gave given | go went gone |
grow grew grown | hear heard | hide hid hidden | hold held | keep kept | know knew known | lead led |
leave left | lend lent | lose lost | make made | mean meant | meet met | mistake mistook mistaken |
overcome overcame | pay paid | ride rode ridden | ring rang rung | rise risen | run ran | see saw seen |
seek sought | sell sold | send sent | shake shook shaken | shoot shot | show shown | shrink shrank shrunk |
sing sang sung | sink sank sunk | sit sat | sleep slept | slide slid | speak spoke spoken | spend spent |
spin spun | spring sprang sprung | stand stood | steal stole stolen | stick stuck | sting stung |
strike struck stricken | swear swore sworn | sweep swept | swim swam swum | swing swung | take took taken |
teach taught | tear tore torn | tell told | think thought | throw threw thrown | understand understood |
undertake undertook undertaken | wake woke woken | wear wore worn | weep wept | win won | withdraw withdrew
withdrawn | write wrote written
"""
"""English verbs whose past forms no stemmer relates to their base ("won" / "win", "caught" / "catch", "sold" /
"sell"): base form first, then its past tense and participle. Left out: forms that are as often another word
(a name: "rose", "drew"; a noun: "bit", "lay", "ground", "wound", "bound", "hung", "lit")."""
_FOLD.update((form, group.split()[0]) for group in _IRREGULAR_VERBS.split("|") for form in group.split()[1:])

EVENT_VERBS = re.compile(r"\b(?:happen(?:s|ed|ing)?|occur(?:s|red|ring)?|t(?:ake|akes|ook|aking|aken) place)\b",
                         re.IGNORECASE)
"""Verbs that only say that an event exists ("The fight happened at Spring Garden Station", "The
ceremony took place in Augusta"): a summary reports the event and where or when it was, and never says
that it happened. The lexical judge does not require them of a sentence that states a statement, and
LongRecall's candidate gate does not count them in a fact's coverage."""


_TOKEN = re.compile(
    r"(?P<num>\d+(?:,\d{3}(?!\d))*(?:\.\d+)?|\.\d+)(?P<suffix>%|st|nd|rd|th|s)?"
    r"|(?P<word>[^\W\d_][^\W_]*(?:['\.][^\W_]+)*)"
    , re.UNICODE,
)


_HYPHEN_DESIGNATION = re.compile(r"([^\W\d_]+)-(\d+)(s(?![^\W_]))?")
"""A word, a hyphen and a number: ``COVID-19``, ``F-35``, ``Xianghailin-8`` (``F-35s``: plural)."""


def _is_year_digits(digits: str) -> bool:
    """1900-2099 written with four digits: a date, never the number of a designation (``mid-2020``,
    ``Tokyo 2020``)."""
    return len(digits) == 4 and 1900 <= int(digits) <= 2099


def _designation(match: re.Match[str]) -> str:
    """``covid-19`` -> ``covid19``: a designation is one name token (see ``designation_token``); a year
    after a hyphen (``mid-2020``) stays a date."""
    word, digits = match.group(1), match.group(2)
    if _is_year_digits(digits):
        return match.group(0)
    return word + digits


_NOT_A_NAME_BEFORE_A_NUMBER = frozenset("""
about around approximately approx nearly almost roughly some over under more less fewer least most only just
exactly precisely estimated circa ca another additional extra last past next top since until till total totaling
totalling barely merely fully above below upwards close plus minus than all every each no up down from to between
at in on by for after before during within age aged ages number numbers
monday tuesday wednesday thursday friday saturday sunday
""".split())
"""Capitalized words that introduce a quantity or a date rather than name a thing ("Nearly 300 people",
"Since 2019", "Tuesday 17"): a number after one of them stays a figure."""

_QUANTITY_AFTER = frozenset(_SCALES) | {"percent", "per", "pct", "percentage"} | frozenset(_MONTHS)
"""Words after a number that make it a quantity or a day ("Falcon 2 million", "Model 3 percent", "Friday 17 July")."""

_BARE_INTEGER = re.compile(r"(\d+)[.,;:!?)\]\"']*")
"""A word that is an integer and nothing else but trailing punctuation ("9", "351,", "9.")."""


class Token(NamedTuple):
    """One normalized token: ``text`` is what compares, ``stop`` marks a function word, ``number`` a number."""

    text: str
    raw: str
    stop: bool = False
    number: bool = False


def canonical_number(value: float) -> str:
    """``20919.0`` -> ``20919``, ``3.70`` -> ``3.7``: one spelling per value."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-case word, after folding the few synonyms stemming misses."""
    word = _FOLD.get(word, word)
    return _STEMMER.stemWord(word)


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _plain_number(item: tuple[str, str, int]) -> float | None:
    kind, value, _ = item
    if kind == "num":
        try:
            return float(value)
        except ValueError:
            return None
    if value in _NUMBER_WORDS and value not in ("first", "second"):
        return float(_NUMBER_WORDS[value])
    return None


_SPECIAL_WORDS = frozenset(_NUMBER_WORDS) | frozenset(_MONTHS) | {"per"}
"""Words the tokenizer reads in context (numbers, months, "per cent"); every other word is ``_word_token``."""


@lru_cache(maxsize=131072)
def _word_token(word: str) -> Token:
    """The token of an ordinary word: a flagged stopword (single letters too, except "i"), or its stem."""
    if word in STOPWORDS or (len(word) == 1 and word != "i") or word in _CLITICS:
        return Token(word, word, stop=True)
    if "'" in word:
        if word.endswith("n't"):  # "didn't", "can't", and the "n't" of tokenized text ("did n't"): a "not"
            return Token("not", word)
        base, _, clitic = word.rpartition("'")
        if clitic in _CLITICS and (base in STOPWORDS or base == "i"):  # "they're", "it's", "I've": function words
            return Token(word, word, stop=True)
    if word == "cannot":
        return Token("not", word)
    return Token(stem(word), word)


_CLITICS = frozenset({"s", "re", "ve", "ll", "m", "d"})
"""What an apostrophe joins to a word ("it's", "they're", "we've", "I'll", "I'm", "she'd"), and what tokenized
text writes apart ("they 're"): no word of its own."""


_CONTEXT_WORDS = _SPECIAL_WORDS | frozenset(_SCALES) | {"cent", "centum", "and", "of", "no"}
"""Words read with their neighbours (besides numbers): the special words, and those a neighbour may take
("1.2 million", "per cent", "13 thousand and 400", "one of", "May of 2019", "no one")."""


@lru_cache(maxsize=262144)
def _word_items(word: str) -> tuple[tuple[str, str], ...]:
    """The raw items of one whitespace-separated, folded word: ("num", digits) and ("word", text).

    No token crosses whitespace, so a text's items are its words' items in order: each distinct word is
    matched once per process, however many documents repeat it."""
    items: list[tuple[str, str]] = []
    for num, suffix, text in _TOKEN.findall(_HYPHEN_DESIGNATION.sub(_designation, word)):  # "COVID-19": a name
        if num:
            items.append(("num", num.replace(",", "")))
            if suffix == "%":
                items.append(("word", "percent"))
        else:
            items.append(("word", text.strip(".'")))
    return tuple(items)


@lru_cache(maxsize=262144)
def _plain_tokens(word: str) -> tuple[Token, ...] | None:
    """The tokens of a word that needs no context (no number, no special word), or ``None``.

    A plain word never changes its neighbours' tokens nor is changed by them (``_CONTEXT_WORDS`` holds every
    word a neighbour looks at), which is what lets ``_word_tokens`` copy its tokens without looking around."""
    items = _word_items(word)
    if any(kind == "num" or value in _CONTEXT_WORDS for kind, value in items):
        return None
    return tuple(_word_token(value) for _, value in items)


def _word_tokens(text: str) -> list[tuple[Token, ...]]:
    """The tokens of ``text`` grouped by whitespace-separated word (a word may give none, or several).

    Plain words (most of them) come whole from a per-word cache, mapped at C speed; each stretch of words
    that need context (numbers, number words, months, scale words) is read by ``_tokenize_items``."""
    words = _fold(text).split()
    per_word: list[tuple[Token, ...] | None] = list(map(_plain_tokens, words))
    if None in per_word:
        stretches: list[list[int]] = []
        for index in [i for i, found in enumerate(per_word) if found is None]:
            if stretches and stretches[-1][-1] == index - 1:
                stretches[-1].append(index)
            else:
                stretches.append([index])
        written: list[str] | None = None  # the words as written (case kept), looked up only for a designation
        for stretch in stretches:
            first = stretch[0]
            if first and _may_designate(per_word[first - 1], words, first):
                if written is None:
                    written = _written_words(text, len(words))
                if _is_name_word(written[first - 1]):
                    name = per_word[first - 1][-1].raw  # type: ignore[index]  # a plain word, checked above
                    digits = _BARE_INTEGER.fullmatch(words[first]).group(1)  # type: ignore[union-attr]
                    per_word[first - 1] = per_word[first - 1][:-1]  # type: ignore[index]
                    per_word[first] = (designation_token(name, digits),)
                    stretch = stretch[1:]
                    if not stretch:
                        continue
                    first = stretch[0]
            if len(stretch) == 1:  # a word alone between plain words (most stretches): its tokens are its own
                per_word[first] = _lone_tokens(words[first])
                continue
            raw = [(kind, value, position) for position in stretch for kind, value in _word_items(words[position])]
            out: list[Token] = []
            positions: list[int] = []
            _tokenize_items(raw, out, positions)
            buckets: list[list[Token]] = [[] for _ in stretch]
            for token, position in zip(out, positions):
                buckets[position - first].append(token)
            per_word[first:first + len(stretch)] = [tuple(bucket) for bucket in buckets]
    return per_word  # type: ignore[return-value]  # every None filled above


@lru_cache(maxsize=65536)
def _lone_tokens(word: str) -> tuple[Token, ...]:
    """The tokens of a word that needs context (``_plain_tokens`` is ``None``) read alone: what ``_word_tokens``
    gives such a word between two plain words (or at an end) once it is not a designation's number. Every
    look-around of ``_tokenize_items`` stays inside its stretch, and a plain neighbour answers each as no word
    does, so these tokens depend on the word only: each distinct word is read once per process."""
    out: list[Token] = []
    _tokenize_items([(kind, value, 0) for kind, value in _word_items(word)], out, [])
    return tuple(out)


def designation_token(word: str, digits: str) -> Token:
    """The one token of a designation, a name made of a word and a number (``Falcon 9``, ``Falcon-9``,
    ``F-35``, ``COVID-19``): the word and the digits joined (``falcon9``), a name and never a figure, so
    ``Falcon 9`` is not the quantity 9 and ``Falcon Heavy ... 9 engines`` does not contain it. One token,
    as the hyphenated spelling always was, so that both spellings count once in any comparison."""
    return _word_token(word + digits)


def _may_designate(before: tuple[Token, ...] | None, words: list[str], index: int) -> bool:
    """Whether the number ``words[index]`` (a folded word) may be the number of a designation, as far as the
    folded text tells: an integer alone (no decimals, thousands separator, percent or ordinal), not a year,
    not followed by a scale, a percent or a month, after a plain content word that names a thing rather than
    introduces a quantity (``_NOT_A_NAME_BEFORE_A_NUMBER``). ``_is_name_word`` then checks its case."""
    match = _BARE_INTEGER.fullmatch(words[index])
    if match is None or _is_year_digits(match.group(1)) or not before:
        return False
    last = before[-1]
    if last.stop or last.number or last.raw in _NOT_A_NAME_BEFORE_A_NUMBER or not last.raw.isalpha():
        return False
    if index + 1 < len(words):
        after = _word_items(words[index + 1])
        if after and (after[0][1] in _QUANTITY_AFTER or _counted_noun(after[0][1])):
            return False
    return True


_IRREGULAR_PLURALS = frozenset("people men women children persons police staff crew cattle feet teeth mice".split())


def _counted_noun(word: str) -> bool:
    """A plural noun after a number is what the number counts ("Lund 38 votes ahead", "Falcon 9 rockets"):
    a content word ending in ``s`` (not ``ss``, ``us`` or ``is``: "Falcon 9 success", "Model 3 bonus"), or
    an irregular plural ("people", "children")."""
    if word in _IRREGULAR_PLURALS:
        return True
    return (len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
            and word not in STOPWORDS)


def _is_name_word(word: str) -> bool:
    """A word as written that can end a name before its number: capitalized (``Falcon``, ``Model``), ending
    in a letter (a comma or a full stop in between separates a name from a figure: "in Paris, 9 people"),
    and not a possessive ("SpaceX's 60 satellites" counts satellites)."""
    word = word.lstrip("\"'([{\u201c\u2018")
    if not word[:1].isupper() or not word[-1:].isalpha():
        return False
    return not word.lower().endswith(("'s", "\u2019s"))


def _written_words(text: str, count: int) -> list[str]:
    """The whitespace-separated words of ``text`` as written, aligned with those of ``_fold(text)``.

    Folding keeps ASCII whitespace as it is; a non-ASCII text is folded word by word, so a word that folding
    splits (NFKC can turn a character into a space) gives one written word per piece."""
    if text.isascii():
        return text.split()
    written = [raw for raw in text.split() for _ in _fold(raw).split()]
    return written if len(written) == count else [""] * count  # never misaligned: no designation then


def _tokenize_items(raw: list[tuple[str, str, int]], out: list[Token], positions: list[int]) -> None:
    """Append the tokens of ``raw`` items (kind, value, word position) read in context to ``out``.

    ``raw`` is a stretch of words that need context; the words around it are plain, and every look-around
    below gives the same answer for a plain word as for no word at all."""
    i = 0
    n_raw = len(raw)
    while i < n_raw:
        kind, value, offset = raw[i]
        positions.append(offset)
        if kind == "word" and value not in _SPECIAL_WORDS:  # the common case: an ordinary word
            out.append(_word_token(value))
            i += 1
            continue
        nxt = raw[i + 1] if i + 1 < n_raw else None
        if value == "one" and i and raw[i - 1][1] == "no":  # "no one", "no-one": nobody, no figure
            out.append(Token(value, value, stop=True))
            i += 1
            continue
        if kind == "word" and value in _NUMBER_WORDS and not (value == "one" and nxt and nxt[1] in ("of",)):
            number: float | None = float(_NUMBER_WORDS[value])
            kind = "num"
        elif kind == "num":
            try:
                number = float(value)
            except ValueError:
                number = None
        else:
            number = None
        if kind == "num" and number is not None:
            # "1.2 million", "20 thousand"
            if nxt and nxt[0] == "word" and nxt[1] in _SCALES:
                scale = _SCALES[nxt[1]]
                number *= scale
                i += 1
                # "13 thousand and 400", "2 million 500 thousand": the rest of a number spelled in parts
                j = i + 1
                if j < len(raw) and raw[j][1] == "and":
                    j += 1
                rest = _plain_number(raw[j]) if j < len(raw) else None
                next_scale = _SCALES.get(raw[j + 1][1]) if j + 1 < len(raw) else None
                if next_scale is not None and rest is not None:
                    rest = rest * next_scale if next_scale < scale else None  # "3 million and 2 million": two
                    j += 1
                if rest is not None and scale / 10 <= rest < scale:  # not "3 million and 2 more"
                    number += rest
                    i = j
            out.append(Token(canonical_number(number), value, number=True))
            i += 1
            continue
        word = value
        if word == "per" and nxt and nxt[1] in ("cent", "centum"):
            out.append(Token("percent", "per cent"))
            i += 2
            continue
        if word in _MONTHS:
            prev = raw[i - 1] if i else None
            after = raw[i + 2] if nxt is not None and nxt[1] == "of" and i + 2 < len(raw) else nxt  # "May of 2019"
            near_number = (after is not None and after[0] == "num") or (prev is not None and prev[0] == "num")
            if near_number or word not in _AMBIGUOUS_MONTHS:
                out.append(Token(_MONTHS[word], word))
                i += 1
                continue
        out.append(_word_token(word))
        i += 1


# Sized for a round: every sentence of every run is read by several questions (attested, answers, ...), and a
# 100-run x 50-topic round has ~150,000 sentences, most repeated across runs. An entry is a tuple of shared
# tokens (a few hundred bytes).
@lru_cache(maxsize=131072)
def tokens(text: str) -> tuple[Token, ...]:
    """The normalized tokens of ``text`` in order (see the module docstring for what compares equal)."""
    return tuple(chain.from_iterable(_word_tokens(text)))


def word_windows(text: str, size: int, stride: int) -> list[tuple[frozenset[str], frozenset[str]]]:
    """(content tokens, numbers) of each window of ``size`` words every ``stride`` words of ``text``.

    The windows are those of ``argue_eval.passages.PassageSplitter`` (``window_starts``), but the text is
    tokenized once, not once per overlapping passage: long documents are the judge's main cost.
    """
    per_word = _word_tokens(text)
    found = list(chain.from_iterable(per_word))
    if not found:
        return []
    # the windows count the words as written; folding an ASCII text keeps its whitespace, so its words are these
    starts = window_starts(len(per_word) if text.isascii() else len(text.split()), size, stride)
    before = [0, *accumulate(map(len, per_word))]  # before[w]: the tokens of the words before word w
    last = len(per_word)
    # str, or None for a token a window leaves out (discarded from each window's set below)
    texts: list[Any] = [None if t.stop else t.text for t in found]
    figure_texts: list[Any] = [t.text if t.number else None for t in found]
    # a text without figures (a number's text is never empty) gives every window none
    number_texts = figure_texts if any(figure_texts) else None
    windows = []
    for start in starts:
        lo, hi = before[min(start, last)], before[min(start + size, last)]
        words = set(texts[lo:hi])
        words.discard(None)
        figures: frozenset[str] = _NO_FIGURES
        if number_texts is not None:
            found_figures = set(number_texts[lo:hi])
            found_figures.discard(None)
            figures = frozenset(found_figures)
        windows.append((frozenset(words), figures))
    return windows


_NO_FIGURES: frozenset[str] = frozenset()


@lru_cache(maxsize=131072)
def content(text: str) -> tuple[str, ...]:
    """The content tokens of ``text`` in order (stopwords dropped): what overlap heuristics compare."""
    return tuple(token.text for token in tokens(text) if not token.stop)


@lru_cache(maxsize=131072)
def content_set(text: str) -> frozenset[str]:
    """The set of content tokens of ``text``."""
    return frozenset(content(text))


@lru_cache(maxsize=131072)
def numbers(text: str) -> frozenset[str]:
    """The canonical numbers in ``text`` (``"20,919 people, 3.7%"`` -> ``{"20919", "3.7"}``)."""
    return frozenset(token.text for token in tokens(text) if token.number)


def forget_texts() -> None:
    """Empty the per-text caches (``tokens``, ``content``, ``content_set``, ``numbers``); the per-word ones stay,
    since a vocabulary is shared by every topic of a round while its texts are not."""
    for cached in (tokens, content, content_set, numbers):
        cached.cache_clear()
