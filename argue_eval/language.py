"""Which language a report is written in, offline: ``validate``'s report-language check.

RAGTIME and NeuCLIR ask for reports in English written from documents in other languages; a system that copies or
fails to translate leaves sentences (or a whole report) in the documents' language, and the judges then read text
the assessors never would. ``py3langid`` (a modernized langid.py: a naive Bayes model over byte n-grams, 4.4 MiB,
numpy only, deterministic) names each sentence's language; a report is in a language by the share of its characters
that sit in sentences identified as that language. It was chosen by ``bench/bench_language.py``: on 1,961 English
report sentences of real and sample runs it calls 99.85% English (the three misses are number-heavy sentences it
reads as Nigerian Pidgin), on 3,343 news and wiki sentences in Chinese, Persian, Russian, Arabic, German, French and
Spanish it calls none English, and it gets every report right both ways, with lingua (95 MiB), pycld2, langdetect
and fastText's compressed lid.176 model measured beside it.

A sentence counts as the language wanted when the identifier gives that language a probability of at least
``LIKELY`` (0.2), even if another comes first: py3langid's model knows English-based Nigerian Pidgin, and reads
number-heavy English (``In October 2020 alone, 879 women died by suicide.``: Pidgin 0.67, English 0.30) as it; with
the rule no English report sentence of the bench is missed, and no non-English one is taken for English. A sentence
without a letter (a number, a date, punctuation) tells nothing and is left out of the share, and so is a report with
fewer than ``MIN_LETTERS`` letters in all: too short to tell.
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["LANGUAGE_NAMES", "LIKELY", "MIN_LETTERS", "ReportLanguage", "identify", "language_name", "report_language"]

MIN_LETTERS = 20
"""Fewer letters than this in a whole report: its language is not judged."""
LIKELY = 0.2
"""A sentence is in the wanted language when the identifier gives that language at least this probability."""

LANGUAGE_NAMES = {
    "en": "English", "zh": "Chinese", "fa": "Persian", "ru": "Russian", "ar": "Arabic", "de": "German",
    "fr": "French", "es": "Spanish", "ja": "Japanese", "ko": "Korean", "uk": "Ukrainian", "it": "Italian",
    "pt": "Portuguese", "nl": "Dutch", "tr": "Turkish", "hi": "Hindi", "ur": "Urdu", "vi": "Vietnamese",
}
"""ISO 639-1 codes the messages spell out; others are printed as their codes."""


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def identify(text: str, wanted: str | None = None) -> str | None:
    """The ISO 639-1 code of ``text``'s language (NFKC-normalized first), or ``None`` when it has no letter;
    ``wanted`` when the identifier gives that language at least ``LIKELY``."""
    text = unicodedata.normalize("NFKC", text)
    if not any(character.isalpha() for character in text):
        return None
    ranked = _identifier().rank(text)
    if wanted is not None and any(code == wanted and probability >= LIKELY for code, probability in ranked[:5]):
        return wanted
    return str(ranked[0][0])


@dataclass(frozen=True)
class ReportLanguage:
    """A report's languages: characters per language (sentences with letters only), and each sentence's language."""

    characters: Counter[str]
    sentences: tuple[str | None, ...]
    letters: int

    @property
    def judged(self) -> bool:
        """Whether the report has enough letters (``MIN_LETTERS``) for its language to be told."""
        return self.letters >= MIN_LETTERS

    def share(self, code: str) -> float:
        """The share of the identified characters in sentences of language ``code`` (0 with nothing identified)."""
        total = sum(self.characters.values())
        return self.characters[code] / total if total else 0.0

    @property
    def main(self) -> str | None:
        """The language most of the identified characters are in."""
        return self.characters.most_common(1)[0][0] if self.characters else None


def report_language(texts: Sequence[str], wanted: str | None = None) -> ReportLanguage:
    """Identify each sentence of a report (``identify``, ``wanted`` as there) and add up its characters by language."""
    characters: Counter[str] = Counter()
    languages = []
    letters = 0
    for text in texts:
        code = identify(text, wanted)
        languages.append(code)
        if code is not None:
            characters[code] += len(unicodedata.normalize("NFKC", text))
            letters += sum(character.isalpha() for character in text)
    return ReportLanguage(characters, tuple(languages), letters)
