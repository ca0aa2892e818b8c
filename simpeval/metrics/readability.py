"""Readability formulas with each language's published constants, on counts made in that language.

Why one module: every formula here is a function of the same few counts of a text (sentences, words,
syllables, letters, long words, words of one and of three or more syllables), and the counts depend
on the language: sentences are NLTK's Punkt sentences with the language's trained model
(:func:`simpeval.text.split_sentences`), syllables are pyphen's hyphenation points plus one with the
language's hyphenation dictionary (as textstat counts them), except in English, which keeps EASSE's
syllable counter (:func:`simpeval.syllables.count_syllables`, as FKGL). Words are the whitespace
tokens of the text with punctuation removed that keep a letter or a digit; letters are their
alphanumeric characters; a long word has more than six letters.

The counts of a corpus are the sums of its texts' counts, so each formula's corpus score is the
formula of the pooled counts (as FKGL's), and paired tests resample them. A text without words (or
without sentences) has no score (NaN).

The formulas and their sources (each class's docstring repeats its own):

- ``fre``: Flesch Reading Ease with the constants published for the language (``--lang``): English
  Flesch (1948), German Amstad (1978), Spanish Fernández-Huerta (1959), French Kandel & Moles (1958),
  Italian Flesch-Vacca (Franchina & Vacca 1972), Dutch Douma (1960), Russian Oborneva (2006);
  each is also a metric of its own name for its language;
- ``szigriszt-pazos`` (Spanish perspicuity), ``gutierrez-polini`` and ``crawford`` (Spanish);
- ``wiener-sachtextformel-1`` to ``-4`` (German, Bamberger & Vanecek 1984);
- ``gulpease`` (Italian, Lucisano & Piemontese 1988);
- ``lix`` (Björnsson 1968) and ``rix`` (Anderson 1983), for any language simpeval splits sentences of;
- ``osman`` (Arabic, El-Haj & Rayson 2016), a Flesch of its own Arabic counts (:func:`osman_counts`:
  syllables weighted by type from the vowel marks, long, complex and faseeh words).

``tests/test_readability.py`` checks every formula against textstat 0.7 on the same counts, and the
counts themselves on real German, French and Russian texts; docs/metrics.md says where the numbers
differ from textstat's and why.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from itertools import chain, compress, count, islice, repeat
from operator import add, is_, not_, or_, sub
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import ClassVar

import numpy as np

import simpeval
from simpeval.hyphenation import PatternTrie
from simpeval.languages import ENGLISH
from simpeval.metrics.base import Metric
from simpeval.sentences import SENTENCE_LANGUAGES
from simpeval.sentences import sentence_count as _sentences
from simpeval.store import StatsStore, gc_paused, stored
from simpeval.syllables import count_syllables

# punctuation and symbols: what is removed from a token before it counts as a word (``[^\w\s]|_``; the
# underscore, a word character but no letter or digit, is removed first with str.replace: re scans one
# character class faster than an alternation)
_NOT_WORD = re.compile(r"[^\w\s]")
_LONG_WORD = 6  # letters; a long word has more


@dataclass(frozen=True)
class TextCounts:
    """The counts every formula here is a function of (additive over texts)."""

    sentences: int
    words: int
    syllables: int
    letters: int
    long_words: int  # more than six letters
    monosyllables: int  # words of one syllable
    polysyllables: int  # words of three syllables or more

    def __add__(self, other: TextCounts) -> TextCounts:
        return TextCounts(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def as_tuple(self) -> tuple[int, ...]:
        return (self.sentences, self.words, self.syllables, self.letters, self.long_words, self.monosyllables,
                self.polysyllables)


@lru_cache(maxsize=None)
def _hyphenator(lang: str):  # noqa: ANN202 - pyphen is imported on first use
    import pyphen

    return pyphen.Pyphen(lang=pyphen.language_fallback(lang))


def syllables(word: str, lang: str) -> int:
    """Syllables of one word: EASSE's counter in English, else pyphen's hyphenation points + 1 in the
    language's dictionary (textstat's count outside its CMU dictionary)."""
    return _syllable_counts(lang)([word])[0]


@lru_cache(maxsize=None)
def _syllable_counts(lang: str) -> Callable[[list[str]], list[int]]:
    """The syllables of each of a list of words in ``lang``."""
    if lang == ENGLISH:
        return lambda found: list(map(count_syllables, found))
    return _syllable_table(lang).of


class _HyphenatedSyllables:
    """Word -> pyphen's hyphenation points of the lower-cased word in one language's dictionary, plus
    one, with the word's other counts: packed in one int (:data:`_FIELD`), (1, letters, syllables, more
    than six letters, one syllable, three syllables or more), so that the counts of a list of words are
    one sum, in C (:meth:`total`: a word's syllables, and the vocalised Arabic texts of
    :class:`_OsmanWords`). Counted on first sight, for the new words at once, with
    built-ins over the list of them rather than a Python call per word. Bounded by the vocabulary
    (most words of a text are frequent ones), as EASSE's cache: emptied when it would pass
    :data:`_SYLLABLE_WORDS` words.

    Texts (:func:`text_counts_many`) are counted from their whitespace tokens instead (:meth:`text_totals`),
    each token given a row of the counts of the word it holds (zeros: a token of punctuation alone, no
    word): ``str.split`` of the texts and one dictionary operation per token, where :func:`words` would
    first run a regular expression over every text; the punctuation is removed once per new token
    instead, for all of them together. The two give the same words, since removing punctuation from a
    text never joins or splits its whitespace tokens (``re``'s ``\\s`` and ``str.split`` both take
    Python's ``str.isspace``). Measured on the 1,756 Russian texts of benchmarks/readability_textstat.py,
    ``words`` alone cost as much as the split and the token lookups together, and the packed big ints'
    sums per text more than the numpy running sums of all texts."""

    def __init__(self, lang: str) -> None:
        self.codes: dict[str, int] = {}  # a plain dict: read in C, and set differences are made in C
        self._no_tokens(6)  # words, letters, syllables, long words, words of one and of three or more syllables
        hyphenator = _hyphenator(lang)
        # pyphen's Pyphen.positions(word) keeps its dictionary's points (HyphDict.positions, ascending)
        # between ``left`` and ``len(word) - right``: counted here by bisection, not a Python loop
        self.left, self.right = hyphenator.left, hyphenator.right
        self.highest = _HighestPoints(self.left, self.right)
        # HyphDict.positions(word) is its memo of the points of each lower-cased word seen (shared by every
        # user of the dictionary in the process, textstat included); the words it lacks are hyphenated by
        # the patterns' trie, faster than HyphDict.positions (simpeval.hyphenation)
        memo = getattr(hyphenator.hd, "cache", None)
        self.memo = memo if isinstance(memo, dict) else {}
        self.trie = PatternTrie(hyphenator)

    def __getitem__(self, word: str) -> int:
        return self.of([word])[0]

    def of(self, found: Sequence[str]) -> list[int]:
        """The syllables of each word of ``found``."""
        self.total(found)
        return [(code >> _F2) & _FIELD_MASK for code in map(self.codes.__getitem__, found)]

    def total(self, found: Sequence[str]) -> int:
        """The sum of the packed counts of the words of ``found``."""
        codes = self.codes
        try:
            return sum(map(codes.__getitem__, found))
        except KeyError:  # new words: counted together
            self._count(list(set(found).difference(codes)))
            return sum(map(codes.__getitem__, found))

    def _no_tokens(self, columns: int) -> None:
        self.token_ids: dict[str, int] = {}  # whitespace token -> its row in ``rows``
        self.rows = np.zeros((0, columns), dtype=np.int32)  # a token's counts: small
        self.positions = 0  # tokens interned since the last clear_tokens: every row is below this

    def text_totals(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's counts, one row per text, from its whitespace tokens (``str.split``): here its six
        counts (words, letters, syllables, long words, words of one and of three or more syllables).

        Every token of the texts is interned in one pass at C speed (each text's tokens followed by a lone
        NUL, as :class:`simpeval.token_rows.TextRows` does: a token's id is where it first occurred), the
        new ones counted together (:meth:`_token_counts`) into a table of small ints, one row per token id
        (a row of zeros for punctuation alone), and each text's counts are sums of its tokens' rows
        (``np.add.reduceat``: every text's part holds its NUL at least): no Python step per token or per
        text. Bounded: emptied (the table freed) past :data:`_SYLLABLE_WORDS` tokens or ``4 *
        _SYLLABLE_WORDS`` ids."""
        if not texts:
            return np.zeros((0, self.rows.shape[1]), dtype=np.int64)
        ids = self.token_ids
        if len(ids) > _SYLLABLE_WORDS or self.positions > 4 * _SYLLABLE_WORDS:
            self.clear_tokens()
        known, start = len(ids), self.positions
        flat = " \x00 ".join([*texts, ""]).split()
        found = np.fromiter(map(ids.setdefault, flat, count(start)), dtype=np.int64, count=len(flat))
        self.positions += len(flat)
        new = list(islice(ids, known, None))
        if new:
            if self.positions > len(self.rows):  # room for every id: the capacity doubled when full
                grown = np.zeros((max(self.positions, 2 * len(self.rows)), self.rows.shape[1]), dtype=np.int32)
                grown[:len(self.rows)] = self.rows
                self.rows = grown
            self.rows[np.fromiter(islice(ids.values(), known, None), dtype=np.int64, count=len(new))] = \
                self._token_counts(new)
        ends = np.flatnonzero(found == ids["\x00"])
        if len(ends) == len(texts):  # each text's tokens and its NUL (a row of zeros)
            return np.add.reduceat(self.rows[found], np.concatenate(([0], ends[:-1] + 1)), axis=0, dtype=np.int64)
        # a text has a lone NUL of its own: each text's tokens apart (a text may have none)
        found = np.fromiter(map(ids.__getitem__, chain.from_iterable(map(str.split, texts))), dtype=np.int64)
        running = np.zeros((len(found) + 1, self.rows.shape[1]), dtype=np.int64)
        np.cumsum(self.rows[found], axis=0, dtype=np.int64, out=running[1:])
        return np.diff(running[np.concatenate(([0], np.cumsum([len(text.split()) for text in texts])))], axis=0)

    def _token_counts(self, tokens: list[str]) -> np.ndarray:
        """The counts of the word of each token (a row per token, :meth:`text_totals`), with built-ins over
        the list of them and numpy over the counts rather than a Python call per token."""
        found = list(tokens)
        # punctuation removed from the tokens that have some (a token of letters and digits has none: re's
        # \\w is str.isalnum and the underscore), together (a token holds no line break)
        marked = list(compress(range(len(tokens)), map(not_, map(str.isalnum, tokens))))
        if marked:
            bare = _NOT_WORD.sub("", "\n".join(map(tokens.__getitem__, marked)).replace("_", "")).split("\n")
            for index, word in zip(marked, bare):
                found[index] = word
        letters = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
        words_ = letters > 0
        present = list(compress(found, found))
        # lower-cased: a word of lowercase letters and uncased characters (most) is its own lower case (true
        # of every code point, tested), so it is looked up as it is, with the hash interning gave it
        lowered = list(present)
        cased = list(compress(range(len(present)), map(not_, map(str.islower, present))))
        for index, word in zip(cased, map(str.lower, map(present.__getitem__, cased))):
            lowered[index] = word
        syllables = np.zeros(len(found), dtype=np.int64)
        syllables[words_] = np.fromiter(self._inside(lowered), dtype=np.int64, count=len(present)) + 1
        return np.stack([words_, letters, syllables, letters > _LONG_WORD, syllables == 1, syllables >= 3], axis=1)

    def clear_tokens(self) -> None:
        self.token_ids.clear()
        self.rows, self.positions = self.rows[:0].copy(), 0

    def _count(self, new: list[str]) -> None:
        if len(self.codes) + len(new) > _SYLLABLE_WORDS:
            self.codes.clear()
        self.codes.update(zip(new, self._codes(new)))

    def _codes(self, new: list[str]) -> Iterator[int]:
        """The packed counts of each word of ``new``, with built-ins over the list (a Python call per
        word would cost more than the counting)."""
        syllables = map(_SYLLABLE_CODES.__getitem__, self._inside(list(map(str.lower, new))))
        return map(add, map(_LENGTH_CODES.__getitem__, map(len, new)), syllables)

    def _inside(self, lowered: list[str]) -> Iterable[int]:
        """The hyphenation points pyphen keeps inside each lower-cased word of ``lowered`` (its syllables
        less one): read from pyphen's memo for the words another user of the dictionary hyphenated
        already (faster still), found by the patterns' trie for the others."""
        memo = self.memo
        try:  # the memo's points (HyphDict.positions lower-cases again: the same word)
            return self._kept(list(map(memo.__getitem__, lowered)), lowered)
        except KeyError:  # some word no user of the dictionary has hyphenated yet
            if not memo:  # none has: a fresh process
                return self.trie.inside(lowered)
        points = list(map(memo.get, lowered, repeat(_UNSEEN)))  # no points for the unseen words, at first
        inside = list(self._kept(points, lowered))
        unseen = list(compress(range(len(points)), map(is_, points, repeat(_UNSEEN))))
        for index, kept in zip(unseen, self.trie.inside(list(map(lowered.__getitem__, unseen)))):
            inside[index] = kept
        return inside

    def _kept(self, points: list[list[int]], lowered: list[str]) -> Iterator[int]:
        """How many of each word's hyphenation points (ascending) pyphen keeps: at most the highest
        (_HighestPoints) less those below ``left``, counted by bisection with built-ins over the list."""
        return map(sub, map(bisect_right, points, map(self.highest.__getitem__, map(len, lowered))),
                   map(bisect_left, points, repeat(self.left)))

    def clear(self) -> None:
        self.codes.clear()
        self.clear_tokens()
        self.trie.clear()


_UNSEEN = ()  # in place of the points of a word pyphen's memo lacks (:meth:`_HyphenatedSyllables._inside`)


class _HighestPoints(dict):
    """Letters of a lower-cased word -> the highest hyphenation point pyphen keeps in it, ``len(word) -
    right``, but never below ``left - 1``: a word shorter than ``left + right`` keeps none, and with
    this bound counting the points up to it less those below ``left`` gives 0 there without a ``max``
    per word."""

    def __init__(self, left: int, right: int) -> None:
        super().__init__()
        self.left, self.right = left, right

    def __missing__(self, length: int) -> int:
        highest = self[length] = max(length - self.right, self.left - 1)
        return highest


# A word's counts packed in one int, _FIELD bits each (the first the lowest), so that a text's counts
# are one sum over its words, in C: no count of a text comes near 2**_FIELD (a trillion).
_FIELD = 40
_FIELD_MASK = (1 << _FIELD) - 1
_F1, _F2, _F3, _F4, _F5, _F6 = (_FIELD * index for index in range(1, 7))  # where the second to seventh go


def _unpacked(total: int, fields: int) -> list[int]:
    return [(total >> (_FIELD * index)) & _FIELD_MASK for index in range(fields)]


class _LengthCodes(dict):
    """Letters of a word -> its packed (1, letters, 0, more than six letters, 0, 0)."""

    def __missing__(self, length: int) -> int:
        code = self[length] = 1 + (length << _F1) + ((length > _LONG_WORD) << _F3)
        return code


class _SyllableCodes(dict):
    """Hyphenation points inside a word -> its packed (0, 0, syllables, 0, one syllable, three or more):
    syllables are the points plus one."""

    def __missing__(self, points: int) -> int:
        count = points + 1
        code = self[points] = (count << _F2) + ((count == 1) << _F4) + ((count >= 3) << _F5)
        return code


_LENGTH_CODES, _SYLLABLE_CODES = _LengthCodes(), _SyllableCodes()


_SYLLABLE_WORDS = 1 << 16


_SYLLABLE_TABLES: dict[str, _HyphenatedSyllables] = {}


def _syllable_table(lang: str) -> _HyphenatedSyllables:
    table = _SYLLABLE_TABLES.get(lang)
    if table is None:
        table = _SYLLABLE_TABLES[lang] = _HyphenatedSyllables(lang)
    return table


def hyphenated_syllables(lang: str, word: str) -> int:
    """pyphen's hyphenation points of lower-cased ``word`` in ``lang``'s dictionary, plus one."""
    return _syllable_table(lang)[word]


def clear_syllable_caches() -> None:
    """Forget every word's syllables counted so far (benchmarks time counting from cold)."""
    for table in (*_SYLLABLE_TABLES.values(), _VOCALISED_WORDS, _UNVOCALISED_WORDS):
        table.clear()


@lru_cache(maxsize=None)
def has_hyphenation(lang: str) -> bool:
    """Whether pyphen has a hyphenation dictionary for ``lang`` (English: EASSE's counter needs none)."""
    import pyphen

    return lang == ENGLISH or pyphen.language_fallback(lang) is not None


def words(text: str) -> list[str]:
    """The words of ``text``: whitespace tokens without punctuation that keep a letter or digit."""
    return _NOT_WORD.sub("", text.replace("_", "")).split()  # split() gives no empty token


@stored
def text_counts(text: str, lang: str, with_syllables: bool = True, *, store: StatsStore | None = None) -> TextCounts:
    """The counts of one text in language ``lang`` (memoised in the run's store); without
    ``with_syllables`` the three syllable counts are not made (0), for formulas that read none of them
    in languages without a hyphenation dictionary."""
    return text_counts_many([(text, lang, with_syllables)], store=store)[0]


def text_counts_many(args_list: Sequence[tuple[str, str, bool]], *,
                     store: StatsStore | None = None) -> list[TextCounts]:
    """:func:`text_counts` of many texts (``[(text, lang, with_syllables), ...]``, memoised in the run's
    store under the same keys): the new words of the texts counted together."""
    with gc_paused():  # no reference cycle made; the collections would walk every object of the process
        if store is None:
            return _text_counts_many(list(args_list), store=None)
        return store.get_many(text_counts.__wrapped__, args_list, compute=_text_counts_many)


def _text_counts_many(args_list: list[tuple[str, str, bool]], *, store: StatsStore | None = None) -> list[TextCounts]:
    out: list[TextCounts | None] = [None] * len(args_list)
    # Arabic without syllables (lix, rix): its words are Osman's without their marks, whose letters and
    # long words arabic_totals counts with Osman's (one tokenisation, shared in the store)
    arabic = [index for index, (_, lang, with_syllables) in enumerate(args_list) if lang == "ar" and not with_syllables]
    for index, totals in zip(arabic, arabic_totals_many([args_list[index][:1] for index in arabic], store=store)):
        out[index] = TextCounts(totals[7], totals[0], 0, totals[5], totals[6], 0, 0)
    # languages with a hyphenation dictionary (most calls): every text's counts from its tokens' rows
    # (_HyphenatedSyllables.text_totals), with built-ins and numpy over the texts rather than a loop per text
    hyphenated: dict[str, list[int]] = {}
    for index, (_, lang, with_syllables) in enumerate(args_list):
        if out[index] is None and with_syllables and lang != ENGLISH:
            hyphenated.setdefault(lang, []).append(index)
    for lang, indices in hyphenated.items():
        table = _syllable_table(lang)
        for chunk in _batched(indices):
            texts = [args_list[index][0] for index in chunk]
            found, letters, syllables_, long_words, monosyllables, polysyllables = table.text_totals(texts).T.tolist()
            # one text_counts per text in a store: its sentences are not stored apart
            sentences = [_sentences(text, lang) if words_ else 0 for text, words_ in zip(texts, found)]
            for index, counts in zip(chunk, map(TextCounts, sentences, found, syllables_, letters, long_words,
                                                monosyllables, polysyllables)):
                out[index] = counts
    for chunk in _batched([index for index, counts in enumerate(out) if counts is None]):
        for index in chunk:
            text, lang, with_syllables = args_list[index]
            words_ = words(text)
            sentences = _sentences(text, lang) if words_ else 0
            lengths = list(map(len, words_))  # counted with built-ins, not a Python loop
            per_word = _syllable_counts(lang)(words_) if with_syllables else []
            few = per_word.count(0) + per_word.count(1) + per_word.count(2)
            out[index] = TextCounts(sentences, len(words_), sum(per_word), sum(lengths),
                                    len(lengths) - sum(map(lengths.count, range(_LONG_WORD + 1))), per_word.count(1),
                                    len(per_word) - few)
    return out  # type: ignore[return-value]


# ----------------------------------------------------------------------
# The formulas (of counts; None when a count they divide by is 0)
# ----------------------------------------------------------------------

def _defined(formula: Callable[[TextCounts], float]) -> Callable[[TextCounts], float]:
    """``formula`` that answers NaN for a text without words or sentences."""
    def guarded(counts: TextCounts) -> float:
        return math.nan if counts.words == 0 or counts.sentences == 0 else formula(counts)

    guarded.__doc__ = formula.__doc__
    return guarded


def flesch(base: float, per_sentence_length: float, per_syllable: float) -> Callable[[TextCounts], float]:
    """A Flesch Reading Ease: ``base - per_sentence_length * words/sentences - per_syllable * syllables/words``."""
    return _defined(lambda c: base - per_sentence_length * c.words / c.sentences - per_syllable * c.syllables / c.words)


#: Flesch Reading Ease per language: (constants, source). Fernández-Huerta's 0.60 per 100 syllables
#: is 60 per syllable per word.
FRE_CONSTANTS: dict[str, tuple[tuple[float, float, float], str]] = {
    "en": ((206.835, 1.015, 84.6), "Flesch (1948), A new readability yardstick, J. Applied Psychology 32(3)"),
    "de": ((180.0, 1.0, 58.5), "Amstad (1978), Wie verständlich sind unsere Zeitungen? Dissertation, Zürich"),
    "es": ((206.84, 1.02, 60.0), "Fernández Huerta (1959), Medidas sencillas de lecturabilidad, Consigna 214"),
    "fr": ((207.0, 1.015, 73.6), "Kandel & Moles (1958), Application de l'indice de Flesch à la langue "
                                  "française, Cahiers Études de Radio-Télévision 19"),
    "it": ((217.0, 1.3, 60.0), "Franchina & Vacca (1972), Taratura dell'indice di Flesch su testo bilingue "
                                "italiano-inglese, Linguaggi 3 (Flesch-Vacca)"),
    "nl": ((206.835, 0.93, 77.0), "Douma (1960), De leesbaarheid van landbouwbladen, Bulletin 17, "
                                   "Landbouwhogeschool Wageningen"),
    "ru": ((206.835, 1.3, 60.1), "Oborneva (2006), Automated estimation of complexity of educational texts on "
                                  "the basis of statistical parameters (dissertation, Moscow)"),
}


@_defined
def szigriszt_pazos(c: TextCounts) -> float:
    """Szigriszt Pazos (1993) perspicuity: ``206.835 - 62.3 * syllables/words - words/sentences``."""
    return 206.835 - 62.3 * c.syllables / c.words - c.words / c.sentences


@_defined
def gutierrez_polini(c: TextCounts) -> float:
    """Gutiérrez de Polini (1972) comprehensibility: ``95.2 - 9.7 * letters/words - 0.35 * words/sentences``."""
    return 95.2 - 9.7 * c.letters / c.words - 0.35 * c.words / c.sentences


@_defined
def crawford(c: TextCounts) -> float:
    """Crawford (1984) years of schooling: ``-0.205 * sentences per 100 words + 0.049 * syllables per 100
    words - 3.407``."""
    return -0.205 * 100 * c.sentences / c.words + 0.049 * 100 * c.syllables / c.words - 3.407


def wiener_sachtextformel(variant: int) -> Callable[[TextCounts], float]:
    """Bamberger & Vanecek (1984), Lesen-Verstehen-Lernen-Schreiben: the n-th Wiener Sachtextformel, a
    school grade from MS (% words of 3+ syllables), SL (words per sentence), IW (% words of more than
    6 letters) and ES (% words of one syllable)."""
    grade = {1: lambda ms, sl, iw, es: 0.1935 * ms + 0.1672 * sl + 0.1297 * iw - 0.0327 * es - 0.875,
             2: lambda ms, sl, iw, es: 0.2007 * ms + 0.1682 * sl + 0.1373 * iw - 2.779,
             3: lambda ms, sl, iw, es: 0.2963 * ms + 0.1905 * sl - 1.1144,
             4: lambda ms, sl, iw, es: 0.2744 * ms + 0.2656 * sl - 1.693}[variant]

    def formula(c: TextCounts) -> float:
        return grade(100 * c.polysyllables / c.words, c.words / c.sentences, 100 * c.long_words / c.words,
                     100 * c.monosyllables / c.words)

    return _defined(formula)


@_defined
def gulpease(c: TextCounts) -> float:
    """Lucisano & Piemontese (1988), GULPEASE: una formula per la predizione della difficoltà dei testi in
    lingua italiana, Scuola e Città 3: ``89 + (300 * sentences - 10 * letters) / words``."""
    return 89 + (300 * c.sentences - 10 * c.letters) / c.words


@_defined
def lix(c: TextCounts) -> float:
    """Björnsson (1968), Läsbarhet: ``words/sentences + 100 * long words/words`` (long: more than 6 letters)."""
    return c.words / c.sentences + 100 * c.long_words / c.words


@_defined
def rix(c: TextCounts) -> float:
    """Anderson (1983), Lix and Rix: variations on a little-known readability index, J. of Reading 26(6):
    ``long words / sentences``."""
    return c.long_words / c.sentences


# ----------------------------------------------------------------------
# Osman (Arabic): its own counts
# ----------------------------------------------------------------------

_FATHA, _DAMMA, _KASRA, _SHADDA = "\u064e", "\u064f", "\u0650", "\u0651"
_SHORT_VOWELS = frozenset(_FATHA + _DAMMA + _KASRA)
_STRESS_MARKS = frozenset("\u064b\u064c\u064d" + _SHADDA)  # tanween fath, damm, kasr; shadda
_LONG_VOWEL_LETTERS = frozenset("\u0627\u0648\u064a\u0649")  # alef, waw, yaa, alef maqsura
_FASEEH_LETTERS = frozenset("\u0621\u0626\u0624\u0630\u0638")  # hamza, on yaa, on waw; thal; dhaa
_FASEEH_ENDINGS = ("\u0648\u0627", "\u0648\u0646")  # -uu-a (waw al-jamaa with alef), -uun
# punctuation and symbols, not Arabic's vowel and stress marks (U+064B-U+065F, U+0670: no \\w)
_NOT_ARABIC_WORD = re.compile(r"[^\w\s\u064b-\u065f\u0670]")  # and the underscore, removed first as for _NOT_WORD
_ARABIC_MARKS = re.compile(r"[\u064b-\u065f\u0670]")
_LONE_MARKS = re.compile(r"(?:^| )[\u064b-\u065f\u0670]+(?: |$)")  # a token of marks alone


@dataclass(frozen=True)
class OsmanCounts:
    """The counts Osman is a function of (additive over texts)."""

    sentences: int
    words: int
    syllables: int  # short + 2 * (long + stress); see arabic_syllables
    long_words: int  # more than five letters
    complex_words: int  # more than five syllables
    faseeh_words: int  # complex words written as formal Arabic is (faseeh letters or endings)

    def __add__(self, other: OsmanCounts) -> OsmanCounts:
        return OsmanCounts(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def as_tuple(self) -> tuple[int, ...]:
        return (self.sentences, self.words, self.syllables, self.long_words, self.complex_words,
                self.faseeh_words)


def arabic_words(text: str) -> list[str]:
    """The words of Arabic ``text`` with their vowel and stress marks: whitespace tokens without
    punctuation that keep a letter or digit."""
    tokens = _NOT_ARABIC_WORD.sub("", text.replace("_", "")).split()
    # every token has a letter or digit, the usual case, unless one is marks alone (then the text has marks)
    if not _ARABIC_MARKS.search(text) or not _LONE_MARKS.search(" ".join(tokens)):
        return tokens
    return [token for token in tokens if any(c.isalnum() for c in token)]


def arabic_syllables(word: str, vocalised: bool = True) -> int:
    """El-Haj & Rayson's (2016) weighted syllable count of one Arabic word.

    Of a vocalised word (written with its short vowels): a short vowel (fatha, damma, kasra) whose next
    letter is a long-vowel letter (alef, waw, yaa, alef maqsura) opens a long syllable, any other a
    short one; a shadda (a doubled consonant) or a tanween is a stress syllable; long and stress
    syllables count twice: ``short + 2 * (long + stress)``. Of an unvocalised word (``vocalised``
    False: the marks that tell the syllables apart are not written): its consonant letters, every
    letter but alef, alef maqsura and alef wasla, as if each carried a short vowel and the alefs
    lengthened the one before, which is the weighted count of a word of open syllables (``kataba``
    3, ``kitaab`` 1 + 2)."""
    if not vocalised:
        return _consonants(_bare(word))
    short = long = stress = 0
    for index, c in enumerate(word):
        if c in _STRESS_MARKS:
            stress += 1
        elif c in _SHORT_VOWELS:
            following = next((d for d in word[index + 1:] if not _ARABIC_MARKS.match(d)), "")
            if following in _LONG_VOWEL_LETTERS:
                long += 1
            else:
                short += 1
    return short + 2 * (long + stress)


def is_vocalised(found: Sequence[str]) -> bool:
    """Whether Arabic words are written with their vowels: at least half of them carry a short vowel."""
    return 2 * (len(found) - sum(map(_SHORT_VOWELS.isdisjoint, found))) >= len(found) > 0


def _consonants(bare: str) -> int:
    """The letters of a word without marks or tatweel (:func:`_bare`) but alef, alef maqsura, alef wasla."""
    return sum(map(str.isalpha, bare)) - sum(map(bare.count, _ALEFS))


_MARKS_AND_TATWEEL = dict.fromkeys([*range(0x064B, 0x0660), 0x0670, 0x0640])
_TATWEEL = "\u0640"  # what _bare removes beside the marks (_ARABIC_MARKS), for many words at once
_ALEFS = "\u0627\u0649\u0671"  # alef, alef maqsura, alef wasla: no consonant
_ALEF_LETTERS = re.compile(f"[{_ALEFS}]")


def _bare(word: str) -> str:
    """``word`` without its vowel and stress marks and without tatweel (a stretch, no letter)."""
    return word.translate(_MARKS_AND_TATWEEL)


@stored
def osman_counts(text: str, *, store: StatsStore | None = None) -> OsmanCounts:
    """The counts of Arabic ``text`` that Osman reads (memoised in the run's store).

    The text is vocalised when at least half its words carry a short vowel; otherwise (most Arabic in
    print and online) every word's syllables are estimated from its consonants (:func:`arabic_syllables`),
    so a stray mark (a shadda to tell two words apart) does not turn the count of one word into a
    count of marks. Sentences are simpeval's Arabic sentences (Punkt's algorithm with ``؟``)."""
    return osman_counts_many([(text,)], store=store)[0]


def osman_counts_many(args_list: Sequence[tuple[str]], *, store: StatsStore | None = None) -> list[OsmanCounts]:
    """:func:`osman_counts` of many texts (``[(text,), ...]``, memoised in the run's store under the same
    keys): the new words of the unvocalised ones (most) counted together (:func:`_batched`)."""
    with gc_paused():
        if store is None:
            return _osman_counts_many(list(args_list), store=None)
        return store.get_many(osman_counts.__wrapped__, args_list, compute=_osman_counts_many)


def _osman_counts_many(args_list: list[tuple[str]], *, store: StatsStore | None = None) -> list[OsmanCounts]:
    return [OsmanCounts(totals[7], *totals[:5]) if totals[0] else OsmanCounts(0, 0, 0, 0, 0, 0)
            for totals in arabic_totals_many(args_list, store=store)]


@stored
def arabic_totals(text: str, *, store: StatsStore | None = None) -> tuple[int, ...]:
    """Of Arabic ``text``: its :func:`arabic_words`, their Osman syllables, long, complex and faseeh words
    (:func:`osman_counts`), the letters and the words of more than six letters of the same words
    without their marks, which are its :func:`words` (:func:`text_counts`; the marks are punctuation
    there, and a token of marks alone is in neither), and its sentences (0 without words). Memoised in the
    run's store: Osman and the other formulas share one tokenisation of the text."""
    return arabic_totals_many([(text,)], store=store)[0]


def arabic_totals_many(args_list: Sequence[tuple[str]], *, store: StatsStore | None = None) -> list[tuple[int, ...]]:
    """:func:`arabic_totals` of many texts (``[(text,), ...]``, under the same keys in the store): the new
    words of the unvocalised ones (most) counted together."""
    with gc_paused():
        if store is None:
            return _arabic_totals_many(list(args_list), store=None)
        return store.get_many(arabic_totals.__wrapped__, args_list, compute=_arabic_totals_many)


def _arabic_totals_many(args_list: list[tuple[str]], *, store: StatsStore | None = None) -> list[tuple[int, ...]]:
    out = []
    for chunk in _batched(args_list):
        texts = [text for text, in chunk]
        # every text's counts from its tokens' rows as if unvocalised (most are: _OsmanWords.text_totals)
        totals = _UNVOCALISED_WORDS.text_totals(texts).tolist()
        for index, text in enumerate(texts):
            # vocalised: a short vowel on half the words at least, so at least half as many short vowels as words
            if totals[index][0] and 2 * sum(map(text.count, _SHORT_VOWELS)) >= totals[index][0]:
                found = arabic_words(text)
                if is_vocalised(found):
                    totals[index] = _unpacked(_VOCALISED_WORDS.total(found), 7)
        out += [(*counts, _sentences(text, "ar") if counts[0] else 0) for text, counts in zip(texts, totals)]
    return out


_BATCH = 1024  # texts whose new words are counted together


def _batched(items: list) -> list[list]:  # noqa: ANN001
    return [items[start:start + _BATCH] for start in range(0, len(items), _BATCH)]


class _OsmanWords(_HyphenatedSyllables):
    """Word -> its Osman counts packed (:data:`_FIELD`): (1, syllables, long, complex, faseeh), then the
    letters of the word without its marks and whether they are more than six (:func:`arabic_totals`), made
    on first sight for many words at once, as :class:`_HyphenatedSyllables`, and bounded the same way.
    Texts are counted from their whitespace tokens' rows of the same seven counts (:meth:`text_totals`,
    each token's word as :func:`arabic_words` finds it), as if unvocalised: the vocalised texts (few) are
    counted word by word (:func:`_arabic_totals_many`)."""

    def __init__(self, vocalised: bool) -> None:  # noqa: D107 - no dictionary to load
        self.codes: dict[str, int] = {}
        self.vocalised = vocalised
        # words, syllables, long, complex, faseeh words, letters without marks, more than six of them
        self._no_tokens(7)

    def of(self, found: Sequence[str]) -> list[tuple[int, int, int, int]]:
        """The (syllables, long, complex, faseeh) counts of each word of ``found``."""
        self.total(found)
        return [tuple(_unpacked(code, 5)[1:]) for code in map(self.codes.__getitem__, found)]

    def _count(self, new: list[str]) -> None:
        if len(self.codes) + len(new) > _SYLLABLE_WORDS:
            self.codes.clear()
        syllables, long, faseeh, letters = self._fields(new)
        # each word's code looked up by its (syllables, long, faseeh) as one small int, not made anew
        keys = (4 * syllables + 2 * long + faseeh).tolist()
        self.codes.update(zip(new, map(add, map(_OSMAN_CODES.__getitem__, keys),
                                       map(_PLAIN_CODES.__getitem__, letters.tolist()))))

    def _fields(self, new: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Of each word of ``new``: its syllables, whether it is long and faseeh, and its letters without
        its marks, with built-ins over the list of them and numpy over the counts."""
        # each word without its marks (its letters in words()), then without tatweel too (_bare), in one pass
        # over them all (a word has no line break: it is a whitespace token)
        plain = _ARABIC_MARKS.sub("", "\n".join(new))
        bare = plain.replace(_TATWEEL, "")
        words_ = bare.split("\n")
        if self.vocalised:
            syllables = np.fromiter(map(arabic_syllables, new), dtype=np.int64, count=len(new))
        else:  # _consonants of each: the letters of it without its alefs (letters too), alefs removed in one pass
            syllables = np.array(_counted(_ALEF_LETTERS.sub("", bare).split("\n"), str.isalpha), dtype=np.int64)
        long = np.array(_counted(words_, str.isalnum), dtype=np.int64) > 5
        faseeh = np.zeros(len(new), dtype=bool)  # complex words only (a sixth of them)
        complex_words = np.flatnonzero(syllables > 5).tolist()
        if complex_words:
            found = list(map(words_.__getitem__, complex_words))
            faseeh[complex_words] = np.fromiter(map(or_, map(not_, map(_FASEEH_LETTERS.isdisjoint, found)),
                                                    map(str.endswith, found, repeat(_FASEEH_ENDINGS))),
                                                dtype=bool, count=len(found))
        return syllables, long, faseeh, np.fromiter(map(len, plain.split("\n")), dtype=np.int64, count=len(new))

    def _token_counts(self, tokens: list[str]) -> np.ndarray:
        """The counts of the word of each token (:meth:`text_totals`): :func:`arabic_words` of the token,
        punctuation removed (from the tokens that have some, together), and a word if a letter or digit
        is left (not marks alone)."""
        found = list(tokens)
        words_ = np.ones(len(tokens), dtype=bool)  # a token of letters and digits alone is a word
        marked = list(compress(range(len(tokens)), map(not_, map(str.isalnum, tokens))))
        if marked:
            bare = _NOT_ARABIC_WORD.sub("", "\n".join(map(tokens.__getitem__, marked)).replace("_", ""))
            for index, word in zip(marked, bare.split("\n")):
                found[index] = word
            # what is left of it but marks is letters and digits (\\w but the underscore), if anything
            words_[marked] = np.fromiter(map(len, _ARABIC_MARKS.sub("", bare).split("\n")), dtype=np.int64,
                                         count=len(marked)) > 0
        present = list(compress(found, words_))
        rows = np.zeros((len(found), 7), dtype=np.int64)
        if present:
            syllables, long, faseeh, letters = self._fields(present)
            rows[words_] = np.stack([np.ones(len(present), dtype=np.int64), syllables, long, syllables > 5, faseeh,
                                     letters, letters > _LONG_WORD], axis=1)
        return rows

    def clear(self) -> None:
        self.codes.clear()
        self.clear_tokens()


def _counted(words_: list[str], test: Callable[[str], bool]) -> list[int]:
    """How many characters of each word pass ``test`` (``str.isalpha``, ``str.isalnum``): with built-ins
    over the list, and a Python loop over the words that fail it as a whole only (few)."""
    counts = list(map(len, words_))
    for index in compress(range(len(words_)), map(not_, map(test, words_))):
        counts[index] = sum(map(test, words_[index]))
    return counts


class _OsmanCodes(dict):
    """``4 * syllables + 2 * long + faseeh`` of a word -> its packed Osman counts (1, syllables, long,
    complex: more than five syllables, faseeh)."""

    def __missing__(self, key: int) -> int:
        count, long, faseeh = key >> 2, (key >> 1) & 1, key & 1
        code = self[key] = 1 + (count << _F1) + (long << _F2) + ((count > 5) << _F3) + (faseeh << _F4)
        return code


class _PlainCodes(dict):
    """Letters of an Arabic word without its marks -> its packed (0, 0, 0, 0, 0, letters, more than six)."""

    def __missing__(self, letters: int) -> int:
        code = self[letters] = (letters << _F5) + ((letters > _LONG_WORD) << _F6)
        return code


_OSMAN_CODES, _PLAIN_CODES = _OsmanCodes(), _PlainCodes()
_VOCALISED_WORDS, _UNVOCALISED_WORDS = _OsmanWords(True), _OsmanWords(False)


@_defined
def osman(c: OsmanCounts) -> float:
    """El-Haj & Rayson (2016), OSMAN: A Novel Arabic Readability Metric, LREC 2016, pp. 250-255:
    Flesch's form with Arabic counts, ``200.791 - 1.015 * words/sentences - 24.181 * (long words +
    syllables + complex words + faseeh words) / words`` (higher = easier). Long words have more than
    five letters, complex words more than five syllables, faseeh words are complex words with a letter
    that informal writing drops or changes (hamza alone, on yaa or waw; thal; dhaa) or a formal ending
    (-uu with its silent alef, -uun); syllables are weighted by type (:func:`arabic_syllables`)."""
    return 200.791 - 1.015 * c.words / c.sentences - 24.181 * (
        c.long_words + c.syllables + c.complex_words + c.faseeh_words) / c.words


# ----------------------------------------------------------------------
# The metrics
# ----------------------------------------------------------------------

class Readability(Metric):
    """A readability formula of the output's counts in its language (no references); the corpus score is
    the formula of the pooled counts. Subclasses set ``formulas`` (language -> formula)."""

    formulas: ClassVar[dict[str, Callable[[TextCounts], float]]] = {}
    syllables: ClassVar[bool] = True  # whether the formulas read syllables
    counts_type: ClassVar[type] = TextCounts
    requires_references = False
    level = "document"  # splits texts into sentences itself
    corpus_level = True

    def _formula(self) -> Callable[[TextCounts], float]:
        return self.formulas.get(self.lang) or self.formulas["*"]

    def counts(self, texts: Sequence[str]) -> list[TextCounts]:
        store, lang = self.store, self.lang
        # formulas without syllables count them too where a dictionary has them: one count for all formulas
        with_syllables = self.syllables or has_hyphenation(lang)
        return text_counts_many([(text, lang, with_syllables) for text in texts], store=store)

    def _score_items(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        formula = self._formula()
        return {self.name: [formula(c) for c in self.counts(outputs)]}

    def _score_corpus(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        zero = self.counts_type(*[0] * len(fields(self.counts_type)))
        return {self.name: self._formula()(sum(self.counts(outputs), start=zero))}

    def _item_statistics(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        return [c.as_tuple() for c in self.counts(outputs)]

    def _score_from_totals(self, totals):  # noqa: ANN001, ANN201
        return {self.name: self._formula()(self.counts_type(*(int(t) for t in totals)))}


class Osman(Readability):
    """El-Haj & Rayson (2016), OSMAN (Open Source Metric for Measuring Arabic Narratives), LREC 2016:
    Flesch Reading Ease remade for Arabic, with syllables weighted by type (short; long and stress
    twice), long words (more than five letters), complex words (more than five syllables) and faseeh
    words (complex words of formal written Arabic); higher = easier. See :func:`osman` and
    :func:`osman_counts`."""

    name = "osman"
    description = "Osman: Arabic Flesch with weighted syllables, long, complex and faseeh words (higher = easier)"
    formulas = {"ar": osman}
    languages = ("ar",)
    counts_type = OsmanCounts
    output_only = frozenset({"osman"})
    higher_is_better = True

    def counts(self, texts: Sequence[str]) -> list[OsmanCounts]:
        return osman_counts_many([(text,) for text in texts], store=self.store)


def _metric(name: str, formulas: dict[str, Callable[[TextCounts], float]], description: str,
            higher_is_better: bool, doc: str) -> type[Readability]:
    """A :class:`Readability` metric named ``name`` for the languages of ``formulas`` (each has a pyphen
    hyphenation dictionary and a Punkt model); ``*``: a formula without syllables, for every language
    simpeval splits sentences of."""
    languages = SENTENCE_LANGUAGES if "*" in formulas else tuple(formulas)
    return type(_class_name(name), (Readability,), {
        "__doc__": doc, "__module__": __name__, "name": name, "formulas": formulas, "languages": languages,
        "syllables": "*" not in formulas, "description": description, "output_only": frozenset({name}), "higher_is_better": higher_is_better})


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name))


def _fre_doc() -> str:
    return "Flesch Reading Ease with the language's published constants (higher = easier):\n\n" + "\n".join(
        f"- {lang}: {base} - {asl} * words/sentences - {asw} * syllables/words; {source}"
        for lang, ((base, asl, asw), source) in FRE_CONSTANTS.items())


_FRE_NAMES = {"de": "amstad", "es": "fernandez-huerta", "fr": "kandel-moles", "it": "flesch-vacca",
              "nl": "douma", "ru": "oborneva"}

METRICS: tuple[type[Readability], ...] = (
    _metric("fre", {lang: flesch(*constants) for lang, (constants, _) in FRE_CONSTANTS.items()},
            "Flesch Reading Ease with the language's constants (de: Amstad, es: Fernández-Huerta, ...)",
            True, _fre_doc()),
    *(_metric(name, {lang: flesch(*FRE_CONSTANTS[lang][0])}, f"Flesch Reading Ease for {lang} "
              f"({FRE_CONSTANTS[lang][1].split(' (')[0]}; higher = easier)", True,
              f"Flesch Reading Ease with {FRE_CONSTANTS[lang][1]} (``fre --lang {lang}``).")
      for lang, name in _FRE_NAMES.items()),
    Osman,
    _metric("szigriszt-pazos", {"es": szigriszt_pazos}, "Szigriszt Pazos perspicuity, Spanish (higher = easier)",
            True, szigriszt_pazos.__doc__),
    _metric("gutierrez-polini", {"es": gutierrez_polini}, "Gutiérrez de Polini comprehensibility, Spanish "
            "(higher = easier)", True, gutierrez_polini.__doc__),
    _metric("crawford", {"es": crawford}, "Crawford's years of schooling, Spanish (lower = easier)", False,
            crawford.__doc__),
    *(_metric(f"wiener-sachtextformel-{n}", {"de": wiener_sachtextformel(n)},
              f"Wiener Sachtextformel {n}, German school grade (lower = easier)", False,
              wiener_sachtextformel.__doc__.replace("the n-th", f"the {n}th"))
      for n in (1, 2, 3, 4)),
    _metric("gulpease", {"it": gulpease}, "Gulpease index, Italian (0-100, higher = easier)", True,
            gulpease.__doc__),
    _metric("lix", {"*": lix}, "LIX: words per sentence + % long words (lower = easier)", False, lix.__doc__),
    _metric("rix", {"*": rix}, "RIX: long words per sentence (lower = easier)", False, rix.__doc__),
)


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return list(METRICS)


__all__ = ["FRE_CONSTANTS", "METRICS", "Osman", "OsmanCounts", "Readability", "TextCounts", "arabic_syllables",
           "arabic_words", "osman_counts", "text_counts", "syllables", "words"]
