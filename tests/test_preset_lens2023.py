"""``--preset lens-2023``: textstat 0.7.3's FKGL, NLTK's GLEU and LENS's SARI on hand-checked sentences."""

import pytest
from nltk.tokenize import NLTKWordTokenizer
from nltk.translate.gleu_score import sentence_gleu

from simpeval.lens2023 import formulas as lens2023
from simpeval.lens2023.metrics import GleuNltk, SariLens
from simpeval.metrics import textstat073
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics


@pytest.mark.parametrize(("text", "counts", "grade"), [
    # 6 words of 1 syllable, 1 sentence: 0.39*6 + 11.8*1.0 - 15.59 = -1.45 -> -1.5 (half away from zero)
    ("the cat sat on the mat.", (1, 6, 6), -1.5),
    # "he ran." has at most two words: not a sentence; to-day: 9 syllables / 8 words = 1.125 -> 1.1
    ("he ran. it is a big dog today.", (1, 8, 9), 0.5),
    # beau-ti-ful (3), ex-tra-or-di-nary (5): 10 / 4 = 2.5; the comma is removed
    ("a beautiful, extraordinary day.", (1, 4, 10), 15.5),
    # two sentences of three words: 1.17 + 11.8 - 15.59 = -2.62; textstat rounds with
    # floor(10 x - 0.5) below zero, so -2.62 becomes -2.7
    ("the dog ran. the cat sat.", (2, 6, 6), -2.7),
])
def test_textstat_fkgl_by_hand(text, counts, grade):
    assert textstat073.counts(text) == counts
    assert textstat073.fkgl(text) == grade


def test_textstat_fkgl_of_no_words_is_the_constant():
    assert textstat073.fkgl("...") == pytest.approx(-15.7)  # -15.59, rounded as textstat does


def test_gleu_matches_nltk_on_lowercased_nltk_tokens():
    tokenizer = NLTKWordTokenizer()
    cases = [
        ("The cat is on the mat.", ["The cat sat on the mat.", "A cat is on a mat."]),
        ("the the the the the the the", ["the cat is on the mat"]),
        ("He didn't go, did he?", ["He did not go.", "Didn't he go?"]),
    ]
    for output, refs in cases:
        expected = sentence_gleu([tokenizer.tokenize(r.lower()) for r in refs], tokenizer.tokenize(output.lower()))
        assert lens2023.gleu_from_stats(*lens2023.gleu_stats(output, refs)) == pytest.approx(expected, abs=1e-12)
    # NLTK's documented "the the the" value
    assert lens2023.gleu_from_stats(*lens2023.gleu_stats(*cases[1])) == pytest.approx(0.0909, abs=1e-4)


def test_lens_sari_by_hand():
    # keep F1 per order 0.5783, 0.3077, 0, 0; deletion precision 0.25, 0.4, 0.6, 0.75;
    # addition F1 1/3 ("now"), 0, 0, 0 (worked out n-gram by n-gram; Xu's script gives 0.2683)
    sari, add, keep, delete = lens2023.lens_sari(
        "About 95 species are currently accepted .",
        "About 95 you now get in .",
        ["About 95 species are currently known .", "About 95 species are now accepted .",
         "95 species are now accepted ."],
    )
    assert delete == pytest.approx(50.0)
    assert add == pytest.approx(100 / 12)
    assert keep == pytest.approx(100 * (0.578313253 + 0.307692308) / 4, abs=1e-6)
    assert sari == pytest.approx(26.8278241, abs=1e-6)


def test_lens_sari_ignores_added_ngrams_that_are_in_order_in_the_original():
    # "the sat" is new as a bigram but its words appear in that order in the original: LENS's copy
    # of the script does not count it as a good addition (Xu's original would: add = 25)
    _, add, _, _ = lens2023.lens_sari("the cat sat on the mat", "the sat", ["the sat"])
    assert add == 0.0
    _, add, _, _ = lens2023.lens_sari("the cat sat on the mat", "mat the", ["mat the"])
    assert add == pytest.approx(25.0)


def test_remove_tokenization_artifacts():
    original = "in 2004, suleman's show (on radio) ended."
    assert lens2023.remove_tokenization_artifacts("In 2004 , Suleman 's show ended .", original) == \
        "In 2004, Suleman 's show ended ."
    assert lens2023.remove_tokenization_artifacts("it ended . || it was ( on radio ) .", original) == \
        "it ended. it was (on radio) ."
    assert lens2023.remove_tokenization_artifacts("a <SEP> b", "x") == "a b"


def test_the_preset_maps_each_metric_to_the_one_named_for_its_formula():
    registry = load_registry(autoload=False)
    fkgl = registry.create_metric("fkgl", preset="lens-2023")
    assert fkgl.name == "fkgl-textstat"
    assert fkgl.sentence_scores(["x"], ["the dog ran. the cat sat."]) == {"fkgl-textstat": [-2.7]}
    gleu = registry.create_metric("bleu", preset="lens-2023")
    assert gleu.name == "gleu-nltk"
    bleu = gleu.sentence_scores(["x"], ["the the the the the the the"], [["the cat is on the mat"]])
    assert bleu["gleu-nltk"] == [pytest.approx(1 / 11)]
    sari = registry.create_metric("sari", preset="lens-2023")
    assert sari.name == "sari-lens"
    assert sari.sentence_scores(["the cat sat on the mat"], ["the sat"], [["the sat"]])["sari-lens-add"] == [0.0]
    assert registry.resolve("sari-add", preset="lens-2023") == ("sari-lens-add", {})
    assert registry.resolve("sari-add", preset="metaeval-2021") == ("sari-add", {})


def test_gleu_and_lens_sari_count_through_the_runs_store():
    from simpeval.run import Run
    from simpeval.store import StatsStore
    from simpeval.text import ngram_counts

    source, output = "About 95 species are currently accepted .", "About 95 you now get in ."
    refs = ["About 95 species are now accepted .", "95 species are now accepted ."]
    store = StatsStore()
    assert lens2023.gleu_stats(output, refs, store=store) == lens2023.gleu_stats(output, refs)
    assert store.count(ngram_counts) == 3  # the output and both references, counted once each
    assert lens2023.lens_sari(source, output, refs, store=store) == lens2023.lens_sari(source, output, refs)
    assert store.count(ngram_counts) == 4  # only the source is new
    misses = store.misses
    for metric in (SariLens(), GleuNltk()):
        metric.bind_run(Run(store=store))
        metric.sentence_scores([source], [output], [refs])
    assert store.misses == misses  # both metrics found every count in the run's store


def test_gleu_corpus_score_pools_the_counts_batch_by_batch_as_nltk_corpus_gleu():
    from nltk.translate.gleu_score import corpus_gleu

    tokenizer = NLTKWordTokenizer()
    outputs = ["The cat is on the mat.", "the the the the the the the", "He didn't go, did he?"]
    refs = [["The cat sat on the mat.", "A cat is on a mat."], ["the cat is on the mat"],
            ["He did not go.", "Didn't he go?"]]
    expected = corpus_gleu([[tokenizer.tokenize(r.lower()) for r in rs] for rs in refs],
                           [tokenizer.tokenize(o.lower()) for o in outputs])
    gleu = GleuNltk()
    assert gleu.corpus_score(outputs, outputs, refs) == {"gleu-nltk": pytest.approx(expected, abs=1e-12)}
    result = evaluate(resolve_metrics(load_registry(autoload=False), ["bleu"], preset="lens-2023"),
                      outputs, outputs, refs, batch_size=1)
    assert result.corpus_scores["gleu-nltk"] == pytest.approx(expected, abs=1e-12)
