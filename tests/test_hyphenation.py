"""simpeval.hyphenation's trie against pyphen (the outside oracle): the same breaks in every word.

pyphen's ``Pyphen.positions`` is what textstat counts syllables with, and what simpeval's syllables
must equal; the trie only finds the same patterns faster.
"""

from __future__ import annotations

import random

import pytest

from simpeval.datasets.readability import read_workbook
from simpeval.hyphenation import PatternTrie
from simpeval.metrics import readability
from simpeval.sentences import SENTENCE_LANGUAGES
from simpeval.testing import require_module

pyphen = require_module("pyphen")

#: every language whose syllables simpeval counts with a pyphen dictionary
HYPHENATED = tuple(lang for lang in SENTENCE_LANGUAGES if lang != "en" and pyphen.language_fallback(lang))


def _breaks(hyphenator, words: list[str]) -> list[int]:
    """pyphen's own answer, from an empty memo (so that it hyphenates every word itself)."""
    hyphenator.hd.cache.clear()
    return [len(hyphenator.positions(word)) for word in words]


def _data_words(data_dir, lang: str) -> list[str]:
    """The distinct lower-cased words of the German test originals of DEplain-web, or of ReadMe++'s
    paragraphs in ``lang`` (every split)."""
    if lang == "de":
        texts = (data_dir / "references" / "deplain-web" / "DEplain-web-manual-public.test.org").read_text(
            encoding="utf-8").splitlines()
    else:
        folder = data_dir / "readability" / "readmepp" / lang
        texts = [str(row["Paragraph"]) for split in ("train", "val", "test")
                 for row in read_workbook(folder / f"readme_{lang}_{split}.xlsx", ("Paragraph",))]
    return list(dict.fromkeys(word.lower() for text in texts for word in readability.words(text)))


@pytest.mark.parametrize("lang", ["de", "fr", "ru"])
def test_every_word_of_the_real_texts_breaks_where_pyphen_breaks_it(lang, data_dir):
    hyphenator = pyphen.Pyphen(lang=lang)
    words = _data_words(data_dir, lang)
    assert len(words) > 7000
    trie = PatternTrie(hyphenator)
    assert trie.inside(words) == _breaks(hyphenator, words)
    assert trie.inside(words) == _breaks(hyphenator, words)  # again, on the nodes the first pass made


@pytest.mark.parametrize("lang", HYPHENATED)
def test_random_words_of_each_dictionarys_letters_break_where_pyphen_breaks_them(lang):
    """Words of 1 to 16 characters drawn from the letters of the dictionary's patterns (so that long and
    rare patterns match), with the boundary marks ``.`` never inside a word, as pyphen's callers pass
    them: the short ones test ``left`` and ``right`` at both ends."""
    hyphenator = pyphen.Pyphen(lang=lang)
    letters = sorted({character for pattern in hyphenator.hd.patterns for character in pattern} - {"."})
    generator = random.Random(lang)
    words = ["".join(generator.choices(letters, k=generator.randint(1, 16))) for _ in range(400)]
    # and pieces of the patterns themselves, whole and run together
    patterns = [pattern.strip(".") for pattern in generator.sample(sorted(hyphenator.hd.patterns), 200)]
    words += [word for word in patterns if word] + ["".join(generator.sample(patterns, 3)) for _ in range(200)]
    trie = PatternTrie(hyphenator)
    assert trie.inside(words) == _breaks(hyphenator, words)
    trie.clear()
    assert trie.inside(words[::-1]) == _breaks(hyphenator, words[::-1])


def test_a_trie_past_its_bound_starts_again_and_finds_the_same_breaks(monkeypatch):
    from simpeval import hyphenation

    hyphenator = pyphen.Pyphen(lang="fr")
    words = [pattern.strip(".") for pattern in sorted(hyphenator.hd.patterns)[::10]]
    batches = [words[start:start + 20] for start in range(0, len(words), 20)]
    unbounded = PatternTrie(hyphenator)
    for batch in batches:
        unbounded.inside(batch)
    monkeypatch.setattr(hyphenation, "MOST_NODES", 50)
    bounded = PatternTrie(hyphenator)
    last_batch = PatternTrie(hyphenator)
    last_batch.inside(batches[-1])
    assert [kept for batch in batches for kept in bounded.inside(batch)] == _breaks(hyphenator, words)
    # started again before the last batch: it holds only what that batch and the root made
    assert bounded.made == last_batch.made < unbounded.made


def test_words_shorter_than_left_and_right_have_no_break_and_others_pyphens():
    """pyphen's breaks ``ver-ständ-lich-keit``, ``les-bar-keit-s-in-dex``, ``ab-cd`` (left and right 2)."""
    words = ["", "a", "ab", "abc", "abcd", "verständlichkeit", "lesbarkeitsindex"]
    hyphenator = pyphen.Pyphen(lang="de")
    assert PatternTrie(hyphenator).inside(words) == _breaks(hyphenator, words) == [0, 0, 0, 0, 1, 3, 5]


def test_syllables_are_the_same_from_pyphens_memo_and_from_the_trie(data_dir):
    """simpeval reads pyphen's memo for the words another user of the dictionary hyphenated already, and
    the trie finds the others: the counts of the texts do not depend on how many the memo holds."""
    texts = (data_dir / "references" / "deplain-web" / "DEplain-web-manual-public.test.org").read_text(
        encoding="utf-8").splitlines()[:300]
    hyphenator = readability._hyphenator("de")
    hyphenator.hd.cache.clear()
    readability.clear_syllable_caches()
    from_trie = readability.text_counts_many([(text, "de", True) for text in texts])
    assert not hyphenator.hd.cache  # the trie leaves pyphen's memo as it was
    for share in (texts[::2], texts):  # half the texts' words in the memo, then all
        for text in share:
            for word in readability.words(text):
                hyphenator.positions(word.lower())
        readability.clear_syllable_caches()
        assert readability.text_counts_many([(text, "de", True) for text in texts]) == from_trie
