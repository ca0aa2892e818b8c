"""The shared tokenisation cache and the named tokenizers."""

from __future__ import annotations

import pytest

from simpeval import UsageError
from simpeval.store import StatsStore
from simpeval.text import ngram_counts, tokenize, tokenized
from simpeval.tokenizers import TOKENIZER_NAMES, get_tokenizer


def test_tokenizers_by_name() -> None:
    assert set(TOKENIZER_NAMES) == {"none", "13a", "intl", "moses", "nltk", "spacy-de"}
    assert get_tokenizer("13a")("Hello, world.") == "Hello , world ."
    # intl also splits Unicode symbols and quotes off their neighbours
    assert get_tokenizer("intl")("Price: 5€, “ok”.") == "Price : 5 € , “ ok ” ."
    assert get_tokenizer("intl").signature() == "intl"
    # Moses without escaping keeps & and quotes as they are (the metaeval-2021 setting).
    assert get_tokenizer("moses")('He said "no" & left.') == 'He said " no " & left .'
    assert get_tokenizer("none")("  a   b ") == "a b"
    assert get_tokenizer("moses").signature() == "moses"
    assert get_tokenizer("13a") is get_tokenizer("13a")
    with pytest.raises(UsageError, match='unknown tokenizer "penn"'):
        get_tokenizer("penn")


def test_texts_are_tokenized_once() -> None:
    store = StatsStore()
    tokenize("The same text.", "13a", True, store=store)
    ngram_counts("The same text.", "13a", True, store=store)
    ngram_counts("The same text.", "13a", True, store=store)
    tokenize("The same text.", "13a", False, store=store)
    # the lower-cased tokens come from the cased ones, which BLEU then finds in the store
    assert store.count(tokenized) == 2 and store.count(ngram_counts) == 1 and store.misses == 3
    assert ngram_counts("a b a b", "none")[1] == {("a", "b"): 2, ("b", "a"): 1}


@pytest.mark.slow
def test_13a_equals_sacrebleu_on_every_reference_line(data_dir) -> None:
    """Our 13a (written for speed) against sacrebleu's, the oracle, on every line of the data."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as Sacrebleu13a

    from simpeval.tokenizers.mteval import Tokenizer13a

    oracle, ours = Sacrebleu13a(), Tokenizer13a()
    lines = ["a-\nb c\nd", "&quot;x&quot; &amp; &lt;b&gt; &QUOT;", "<skipped> 3-4 -5- 1.5 1,000 a.b ,x. (y) 'z'",
             "", "   ", "é.Ü,ß 12-a x..y,, 3.-4", "İstanbul's\tt\u00a0b {[|]}~`^_"]
    for path in sorted((data_dir / "references").rglob("*")):
        if path.is_file():
            lines += path.read_text(encoding="utf-8").split("\n")
    assert len(lines) > 50_000
    expected = [oracle(line) for line in lines]
    assert [ours(line) for line in lines] == expected
    # the batch (every rule applied once to all the lines joined) tokenizes each line as it is alone
    assert ours.tokens_many(lines) == [tuple(tokens.split()) for tokens in expected]


def test_13a_equals_sacrebleu_on_random_strings_of_the_characters_its_rules_treat() -> None:
    """The period, comma and dash rules depend on which characters earlier matches took; random
    strings of digits, periods, commas, dashes, symbols and spaces exercise every collision."""
    import random

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as Sacrebleu13a

    from simpeval.tokenizers.mteval import Tokenizer13a

    oracle, ours = Sacrebleu13a(), Tokenizer13a()
    rng = random.Random(13)
    alphabet = "ab1 2.,-.,-&;<>'\"()x9\n"
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(30_000)]
    expected = [oracle(line) for line in lines]
    assert [ours(line) for line in lines] == expected
    # in batches, so that every collision also meets the line before and after it
    for start in range(0, len(lines), 15):
        assert ours.tokens_many(lines[start:start + 15]) == [tuple(t.split()) for t in expected[start:start + 15]]
    # a text holding the batch's separator (NUL) is tokenized on its own
    assert ours.tokens_many(["a\x00b.", "1.5,c"]) == [("a\x00b", "."), ("1.5", ",", "c")]
    assert ours.tokens_many([]) == []


def test_tokenize_many_shares_the_store_with_tokenize(data_dir) -> None:
    """The batch path keeps its tokens under :func:`tokenize`'s keys, and finds the same tokens."""
    from simpeval.text import tokenize_many

    lines = (data_dir / "references" / "asset" / "asset.test.simp.0").read_text(encoding="utf-8").split("\n")
    lines += ["&QUOT;Hi&QUOT; <SKIPPED> x", "ΟΔΟΣ.ΒΑΣ, ΑΣ.Β", "A.B,C-1 2-D", "A.B,C-1 2-D", ""]
    for tokenizer in ("13a", "none", "intl"):
        for lowercase in (False, True):
            store = StatsStore()
            assert tokenize_many(lines, tokenizer, lowercase, store=store) == [
                tokenize(line, tokenizer, lowercase) for line in lines]
            misses = store.misses
            assert [tokenize(line, tokenizer, lowercase, store=store) for line in lines] == tokenize_many(
                lines, tokenizer, lowercase, store=None)
            assert store.misses == misses  # every text found in the store


def test_lowercased_13a_tokens_equal_tokenizing_the_lowercased_text(data_dir) -> None:
    """Lower-cased tokens are derived from the cased ones only where that is provably equal;
    entities, ``<skipped>`` and non-ASCII case mappings (the Greek final sigma) take the long way."""
    from simpeval.tokenizers import get_tokenizer

    tokenizer = get_tokenizer("13a")
    lines = ["&QUOT;Hi&QUOT; &AMP; <SKIPPED> x", "ΟΔΟΣ.ΒΑΣ, ΑΣ.Β", "İstanbul KELVIN \u212a", "A.B,C-1 2-D"]
    for path in sorted((data_dir / "references" / "asset").glob("asset.test.*")):
        lines += path.read_text(encoding="utf-8").split("\n")
    store = StatsStore()
    assert [tokenize(line, "13a", True, store=store) for line in lines] == [
        tuple(tokenizer(line.lower()).split()) for line in lines]


def test_lowercasing_commutes_with_13a_for_every_character_python_lowercases() -> None:
    """Where :func:`~simpeval.text.lowercased_13a_is_cased_lowered` holds, 13a's tokens of the lower-cased
    text are the cased tokens lower-cased one by one (as the lower-cased n-gram table takes them):
    every character whose lower case differs, between the characters the rules read, and random mixes."""
    import random

    from simpeval.text import lowercased_13a_is_cased_lowered

    tokenizer = get_tokenizer("13a")
    changed = [chr(c) for c in range(0x110000) if chr(c).lower() != chr(c)]
    rng = random.Random(0)
    texts = [f"{c}.{c},1{c}-{c}2.{c} {c}'{c}" for c in changed]
    texts += ["".join(rng.choice([*changed[:400], *"aB .,-1'\"\u0307\u03c3"]) for _ in range(rng.randint(0, 12)))
              for _ in range(3000)]
    kept = [text for text in texts if lowercased_13a_is_cased_lowered(text)]
    assert len(changed) > 1400 and all("\u03a3" in text for text in set(texts) - set(kept))
    assert len(kept) > len(texts) - 100
    for text in kept:
        assert [token.lower() for token in tokenizer(text).split()] == tokenizer(text.lower()).split(), text
