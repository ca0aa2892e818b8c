"""The token views: NLTK ``word_tokenize`` semantics, offline."""

import pytest

from simpeval_cescore.text import analyse, split_sentences, word_tokenize


def test_sentences_split_offline_with_punkt_abbreviations():
    # the core's cached Punkt splitter, shared with FKGL and the other core metrics
    assert split_sentences("Dr. Smith went home. He was tired.") == (
        "Dr. Smith went home.", "He was tired.",
    )


def test_word_tokenize_is_treebank_per_sentence():
    # The period after "home" is split off because Punkt ends a sentence there.
    assert word_tokenize("He went home. She can't.") == [
        "He", "went", "home", ".", "She", "ca", "n't", ".",
    ]


def test_views_of_a_two_sentence_text():
    view = analyse("He cannot go. The cat, 2 years old, sleeps!")
    # words: lowercased alphanumeric Treebank tokens ("," "." "!" dropped, "cannot" split)
    assert view.words == ("he", "can", "not", "go", "the", "cat", "2", "years", "old", "sleeps")
    assert view.units == view.words
    assert view.sentence_units == (
        ("he", "can", "not", "go"), ("the", "cat", "2", "years", "old", "sleeps"),
    )
    # GScore's tokens: lowercased whitespace tokens, punctuation attached
    assert view.sentence_tokens == (
        ("he", "cannot", "go."), ("the", "cat,", "2", "years", "old,", "sleeps!"),
    )


def test_one_character_sentences_are_not_sentence_units():
    assert split_sentences("Go home. A") == ("Go home.", "A")
    assert analyse("Go home. A").sentence_units == (("go", "home"),)


def test_a_period_inside_a_punkt_sentence_stays_on_its_word():
    # Punkt keeps "Mr." inside the sentence; Treebank splits only the final period, so "mr." is not
    # alphanumeric and is dropped, while "home." loses its period.
    assert split_sentences("Mr. Smith went home. Now go.") == ("Mr. Smith went home.", "Now go.")
    assert analyse("Mr. Smith went home. Now go.").sentence_units == (("smith", "went", "home"), ("now", "go"))



@pytest.mark.slow
def test_word_by_word_retokenising_equals_tokenising_the_joined_text():
    # every alphanumeric word of SUBTLEX-US and Brysbaert, 500 to a line, both ways
    from simpeval_cescore.lexicons import percent_known, zipf
    from simpeval_cescore.text import normalise, retokenise

    words = sorted({w.lower() for w in (*zipf(), *percent_known()) if w.isalnum()})
    for start in range(0, len(words), 500):
        chunk = tuple(words[start : start + 500])
        assert retokenise(chunk) == normalise(word_tokenize(" ".join(chunk)))
    assert retokenise(("i", "cannot", "gonna")) == ("i", "can", "not", "gon", "na")


@pytest.mark.slow
def test_tokenizer_loads_without_all_of_nltk_and_equals_nltks_own():
    """The Treebank tokenizer loads without ``import nltk`` (over a second), on stdlib ``re``;
    NLTK imported afterwards is whole and tokenises the same."""
    import subprocess
    import sys

    text = "I can't say \"gonna\" -- (U.S.) e-mail's 3.5% of 'em... wanna? «Oui»"
    code = (
        "import sys; from simpeval_cescore.text import _word_tokenizer; "
        f"ours = _word_tokenizer().tokenize({text!r}); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('nltk', 'scipy', 'sklearn') "
        "and m not in ('nltk.redos', 'nltk.internals', 'nltk.pathsec', 'nltk.termsec', "
        "'nltk.tokenize.api', 'nltk.tokenize.util', 'nltk.tokenize.destructive', "
        "'nltk.tokenize._contractions'))); "
        "import nltk; from nltk.tokenize import NLTKWordTokenizer; "
        f"print(ours == NLTKWordTokenizer().tokenize({text!r}), len(ours), hasattr(nltk, 'FreqDist'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "True 26 True"]
