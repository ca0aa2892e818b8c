"""Reference-less quality-estimation features, as EASSE's ``corpus_quality_estimation`` computes them.

EASSE (``easse evaluate -q``) normalises originals and outputs (optional lowercasing, then
the 13a tokenizer, tokens joined by spaces) and averages seven features of tseval (Martin et
al. 2018) over the items. simpeval's sub-scores, per item:

- ``qe-compression``: characters of the output / characters of the original;
- ``qe-splits``: Punkt sentences of the output / sentences of the original;
- ``qe-levenshtein``: Levenshtein similarity of the two strings, ``1 - indel distance /
  total length`` (python-Levenshtein's ``ratio``, which tseval calls);
- ``qe-exact-copies``: 1 when the output is the original, else 0;
- ``qe-additions``: tokens of the output not in the original (as multisets) / the longer
  text's token count;
- ``qe-deletions``: tokens of the original not in the output / the longer text's token count;
- ``qe-lexical-complexity``: the third quartile of ``log(1 + rank)`` of the output's words
  (punctuation and stopwords left out, words outside the vocabulary too), or
  ``log(1 + vocabulary size)`` when no word is left.

tseval ranks words by their position in a frequency table read from disk (an English
Wikipedia frequency list, or FastText's vocabulary in later code) cut to the 50,000 most
frequent; simpeval ranks them in ``wordfreq``'s list of the language, ordered by Zipf frequency
(word frequency in a mix of Wikipedia, subtitles, news, books, web text and social media),
cut to ``vocab_size`` (50,000), so lexical complexity is on the same scale but not equal to
EASSE's value. A ratio over an empty original is 0, as tseval's ``safe_division`` makes it.

Other languages (``--lang``): sentences are Punkt's with the language's model (Arabic and Hindi:
Punkt's algorithm untrained, with the language's own sentence marks), ranks wordfreq's list of the language, and stopwords spaCy's list of the language (read from spaCy's data file, spaCy
itself is not imported); English keeps NLTK's list, as tseval. :data:`LANGUAGES` are those with all
three; a language without them is refused in one line naming them. A word of another language is
looked up in the form wordfreq lists it under (:func:`listed_form`: its normal form of the language,
casefolded, so German "straße" is found as "strasse" and Greek "της" as "τησ"), which makes those
languages formula 3; English words are looked up as they are, as tseval does and as formula 2 did,
so English numbers and signatures (``formula:2``) stay as they were.
"""

from __future__ import annotations

import math
import string
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import simpeval
from simpeval.languages import ENGLISH
from simpeval.metrics.base import Metric, Option
from simpeval.text import split_sentences, tokenize
from simpeval.tokenizers import TOKENIZER_NAMES

if TYPE_CHECKING:
    from langcodes import Language

# NLTK's English stopword list (the corpus tseval's stopword filter reads)
STOPWORDS = frozenset("""
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he
him his himself she she's her hers herself it it's its itself they them their theirs themselves what
which who whom this that that'll these those am is are was were be been being have has had having do
does did doing a an the and but if or because as until while of at by for with about against between
into through during before after above below to from up down in out on off over under again further
then once here there when where why how all any both each few more most other some such no nor not
only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain
aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't
ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't
won won't wouldn wouldn't
""".split())
_PUNCTUATION = frozenset(string.punctuation)

#: the languages simpeval splits sentences of (simpeval.sentences) that wordfreq ranks words of and spaCy has
#: stopwords of (tests/test_metric_qe.py checks the list).
LANGUAGES = ("ar", "cs", "da", "de", "el", "en", "es", "fi", "fr", "hi", "it", "nl", "pl", "pt", "ru", "sl", "sv",
             "tr")


@lru_cache(maxsize=None)
def stopwords(lang: str) -> frozenset[str]:
    """The stopwords of ``lang``: NLTK's English list (tseval's), else spaCy's list of the language."""
    if lang == "en":
        return STOPWORDS
    import importlib.util
    import runpy
    from pathlib import Path

    from simpeval.errors import UsageError

    spec = importlib.util.find_spec("spacy")
    path = None if spec is None or spec.origin is None else Path(spec.origin).parent / "lang" / lang / "stop_words.py"
    if path is None or not path.is_file():
        raise UsageError(f'qe in language "{lang}" needs spaCy\'s stopword list of it: pip install spacy')
    return frozenset(runpy.run_path(str(path))["STOP_WORDS"])


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, 0 when the denominator is 0 (tseval's ``safe_division``)."""
    return numerator / denominator if denominator else 0.0


def levenshtein_similarity(a: str, b: str) -> float:
    """``1 - d / (len(a) + len(b))`` with d the edit distance counting a substitution as 2
    (insertions and deletions only): python-Levenshtein's ``ratio``; 1 for two empty strings."""
    from rapidfuzz.distance import Indel

    return Indel.normalized_similarity(a, b)


@lru_cache(maxsize=4)
def word_ranks(vocab_size: int, lang: str = "en") -> dict[str, int]:
    """0-based frequency rank of the ``vocab_size`` most frequent words of ``lang`` in ``wordfreq``."""
    from wordfreq import top_n_list

    return {word: rank for rank, word in enumerate(top_n_list(lang, vocab_size))}


@lru_cache(maxsize=None)
def _wordfreq_language(lang: str) -> Language:
    import langcodes

    return langcodes.get(lang)


@lru_cache(maxsize=1 << 16)
def listed_form(token: str, lang: str) -> str:
    """The form wordfreq's list of ``lang`` holds ``token`` under: its normal form of the language
    (``wordfreq.preprocess.preprocess_text``: casefolded, German "straße" -> "strasse", Greek final
    sigma "ς" -> "σ", Arabic marks dropped). English tokens are looked up as they are (tseval's lookup)."""
    if lang == ENGLISH:
        return token
    from wordfreq.preprocess import preprocess_text

    return preprocess_text(token, _wordfreq_language(lang))


def lexical_complexity(tokens: Sequence[str], vocab_size: int, lang: str = "en") -> float:
    """Third quartile of ``log(1 + rank)`` over the content words of ``tokens`` that have a rank
    (a content word: not all punctuation, not a stopword; its rank: that of :func:`listed_form`)."""
    import numpy as np

    ranks = word_ranks(vocab_size, lang)
    stop = stopwords(lang)
    forms = (t if lang == ENGLISH else listed_form(t, lang)
             for t in tokens if not all(c in _PUNCTUATION for c in t) and t.lower() not in stop)
    kept = [ranks[w] for w in forms if w in ranks]
    if not kept:
        return math.log(1 + len(ranks))
    return float(np.quantile(np.log1p(np.array(kept, dtype=float)), 0.75))


def _changed_tokens(before: Sequence[str], after: Sequence[str]) -> int:
    """How many tokens of ``after`` are not matched by a token of ``before`` (multiset difference)."""
    return sum((Counter(after) - Counter(before)).values())


class QualityEstimation(Metric):
    """EASSE's quality-estimation features of the outputs against their originals (no references)."""

    name = "qe"
    formula_version = "2"  # 2: sentences split exactly as NLTK's Punkt (a 13a '. . .' ends sentences)
    #: the formula of texts in a language other than English: 3, words looked up in wordfreq's normal form
    #: (:func:`listed_form`); English keeps :attr:`formula_version` (its lookup, and so its numbers, unchanged)
    formula_version_other_languages = "3"
    sub_scores = ("qe-compression", "qe-splits", "qe-levenshtein", "qe-exact-copies", "qe-additions",
                  "qe-deletions", "qe-lexical-complexity")
    description = "EASSE's quality-estimation features: compression, splits, Levenshtein, copies, edits, word rank"
    requires_references = False
    options = {
        "tokenizer": Option(str, "13a", "normalising tokenizer", choices=TOKENIZER_NAMES, short="tok"),
        "lowercase": Option(bool, True, "lowercase before normalising (easse evaluate's default)", short="lc"),
        "vocab_size": Option(int, 50000, "words ranked for lexical complexity", short="vocab"),
    }
    lower_is_better = frozenset({"qe-compression", "qe-exact-copies", "qe-lexical-complexity"})
    languages = LANGUAGES
    output_only = frozenset({"qe-lexical-complexity"})  # the output's word ranks alone
    # how much an output was compressed, split, edited: a description, good or bad by the task (PBMT-R's
    # higher Levenshtein similarity was called "better" beside its "worse" exact copies); copies and rare
    # words are worse whatever the task
    no_direction = frozenset({"qe-compression", "qe-splits", "qe-levenshtein", "qe-additions", "qe-deletions"})

    def __init__(self, lang: str = ENGLISH, **settings: Any) -> None:
        super().__init__(lang=lang, **settings)
        if self.lang != ENGLISH:  # the signature and the cache key carry it
            self.formula_version = self.formula_version_other_languages

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        scores: dict[str, list[float]] = {key: [] for key in self.sub_scores}
        for source, output in zip(sources, outputs):
            src_tokens = tokenize(source, self.text_tokenizer, self.lowercase, store=self.store)
            out_tokens = tokenize(output, self.text_tokenizer, self.lowercase, store=self.store)
            src, out = " ".join(src_tokens), " ".join(out_tokens)
            longest = max(len(src_tokens), len(out_tokens))
            scores["qe-compression"].append(_ratio(len(out), len(src)))
            scores["qe-splits"].append(_ratio(len(split_sentences(out, self.lang, store=self.store)),
                                              len(split_sentences(src, self.lang, store=self.store))))
            scores["qe-levenshtein"].append(levenshtein_similarity(src, out))
            scores["qe-exact-copies"].append(float(src == out))
            scores["qe-additions"].append(_ratio(_changed_tokens(src_tokens, out_tokens), longest))
            scores["qe-deletions"].append(_ratio(_changed_tokens(out_tokens, src_tokens), longest))
            scores["qe-lexical-complexity"].append(lexical_complexity(out_tokens, self.vocab_size, self.lang))
        return scores


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [QualityEstimation]
