"""``lens``: the authors' published checkpoint format, scored as their ``lens-metric`` 0.2.0 scores it.

``tests/data/lens-authors-tiny`` was written by ``benchmarks/lens_authors_parity.py`` with the
authors' own classes (a tiny random RoBERTa inside); the values below are what their package
gave on it (``benchmarks/results/lens_authors_parity.json``).
"""

import json
import shutil
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval_lens.plugin import Lens

DATA = Path(__file__).parent / "data" / "lens-authors-tiny"
SOURCES = [
    "The municipality subsequently constructed an enormous bridge over the river.",
    "The old man ran quickly to the house.",
    "The tiny feline sat on the big mat and the dog ran.",
    "She was in the old city.",
]
OUTPUTS = ["The city then built a big bridge over the river.", "The old man ran quickly to the house.",
           "The cat sat. The dog ran.", "city the was"]
REFERENCES = [
    ["The city then built a big bridge over the river.", "The city built a huge bridge.", "Then the town built a bridge."],
    ["The man ran to the house.", "An old man ran home."],
    ["The small cat sat on the mat. The dog ran."],
    ["She was in the city.", "She was in the old town.", "She lived in the old city.", "She was there."],
]
# lens.LENS(path).score(...) and lens.LENS(path, rescale=True).score(...), lens-metric 0.2.0
AUTHORS = [-6.175902485847473, -7.666744291782379, -2.349996380507946, -12.393859028816223]
AUTHORS_RESCALED = [47.53773672954669, 46.944405253545234, 49.062573367862896, 45.068194892914576]


@pytest.mark.parametrize("rescale,expected", [(False, AUTHORS), (True, AUTHORS_RESCALED)])
def test_scores_equal_the_authors_package(rescale, expected):
    metric = Lens(checkpoint=str(DATA / "lens"), encoder=str(DATA / "encoder"), rescale=rescale, batch_size=3)
    assert metric.sentence_scores(SOURCES, OUTPUTS, REFERENCES)["lens"] == pytest.approx(expected, abs=1e-5)


def test_the_ckpt_file_itself_and_the_hub_cache_layout_load_too(tmp_path, monkeypatch):
    ckpt = DATA / "lens" / "checkpoints" / "model.ckpt"
    direct = Lens(checkpoint=str(ckpt), encoder=str(DATA / "encoder")).sentence_scores(SOURCES[:1], OUTPUTS[:1], REFERENCES[:1])
    assert direct["lens"] == pytest.approx(AUTHORS[:1], abs=1e-5)
    snapshot = tmp_path / "hub" / "models--davidheineman--lens" / "snapshots" / "abc123"
    shutil.copytree(DATA / "lens", snapshot)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    metric = Lens(encoder=str(DATA / "encoder"))
    assert metric.signature().startswith("lens|formula:1|lang:en|checkpoint:davidheineman/lens@")
    assert Lens.missing_weights() == []
    assert metric.sentence_scores(SOURCES[3:], OUTPUTS[3:], REFERENCES[3:])["lens"] == pytest.approx(AUTHORS[3:], abs=1e-5)


def test_the_signature_follows_the_checkpoint_and_encoder_content(tmp_path):
    shutil.copytree(DATA, tmp_path / "copy")
    settings = {"checkpoint": str(tmp_path / "copy" / "lens"), "encoder": str(tmp_path / "copy" / "encoder")}
    before = Lens(**settings).signature()
    assert before == Lens(checkpoint=str(DATA / "lens"), encoder=str(DATA / "encoder")).signature()
    hparams = tmp_path / "copy" / "lens" / "hparams.yaml"
    hparams.write_text(hparams.read_text() + "\n")
    after = Lens(**settings).signature()
    assert before != after and str(tmp_path) not in after


def test_missing_weights_are_one_line_with_where_to_put_them(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    (tmp_path / "o.txt").write_text("The cat sat.\n")
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(tmp_path / "o.txt"), "--sys", str(tmp_path / "o.txt"),
                                      "--refs", str(tmp_path / "o.txt"), "-m", "lens"])
    assert result.exit_code == 2
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert "lens:checkpoint=DIR" in message and str(tmp_path / "models--davidheineman--lens") in message
    assert "hparams.yaml" in message and "lens-mini" in message
    assert Lens.missing_weights() == ["davidheineman/lens"]


def test_a_checkpoint_without_hparams_or_of_another_class_is_refused(tmp_path):
    shutil.copytree(DATA / "lens", tmp_path / "x")
    (tmp_path / "x" / "hparams.yaml").unlink()
    with pytest.raises(simpeval.UsageError, match="hparams.yaml is missing"):
        Lens(checkpoint=str(tmp_path / "x"), encoder=str(DATA / "encoder")).signature()
    (tmp_path / "x" / "hparams.yaml").write_text((DATA / "lens" / "hparams.yaml").read_text().replace(
        "regression_metric_multi_ref", "unified_metric"))
    with pytest.raises(simpeval.UsageError, match="not LENS"):
        Lens(checkpoint=str(tmp_path / "x"), encoder=str(DATA / "encoder")).sentence_scores(["a"], ["b"], [["c"]])


def test_the_old_meaning_warns_and_points_to_lens_mini():
    from simpeval_lens.plugin import LensCla, LensClaMini, LensMini

    with pytest.warns(FutureWarning, match="lens-mini"):
        old = Lens(checkpoint="shipped")
    texts = (["The cat sat on the mat."], ["A cat sat."], [["A cat sat on the mat."]])
    assert old.sentence_scores(*texts)["lens"] == LensMini().sentence_scores(*texts)["lens-mini"]
    with pytest.warns(FutureWarning, match="lens-cla-mini"):
        cla = LensCla()
    assert cla.sentence_scores(*texts)["lens-cla"] == LensClaMini().sentence_scores(*texts)["lens-cla-mini"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LensMini(), LensClaMini()  # the new names do not warn


def test_metrics_list_marks_only_the_authors_weights_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    result = CliRunner().invoke(cli, ["metrics", "list", "--format", "json"])
    rows = {row["name"]: row["status"] for row in json.loads(result.output)["metrics"]}
    assert rows["lens"] == rows["lens-salsa"] == "weights missing"
    assert rows["lens-mini"] == rows["lens-cla-mini"] == "ok"


def test_metrics_show_prints_the_training_data():
    result = CliRunner().invoke(cli, ["metrics", "show", "lens-mini"])
    assert result.exit_code == 0 and "trained on: simpeval-past" in result.output
    assert "MODEL_CARD.md" in result.output


# lens.LENS_SALSA(path).score(SOURCES, OUTPUTS): sentence scores and some word-level tag probabilities
SALSA = [-7.508721202611923, -7.531728595495224, -7.545628398656845, -7.497044652700424]
SALSA_WORDS = {("deletion", 0, 0): ("the", 0.08882132917642593), ("deletion", 0, 2): ("Ġthen", 0.16388170421123505),
               ("split", 3, 13): ("Ġcity", 0.11282362043857574), ("split", 3, 14): (".", 0.23085759580135345)}


def test_lens_salsa_equals_the_authors_package_reference_free():
    from simpeval_lens.plugin import LensSalsa

    metric = LensSalsa(checkpoint=str(DATA / "lens-salsa"), encoder=str(DATA / "encoder"), batch_size=3)
    assert not LensSalsa.requires_references
    assert metric.sentence_scores(SOURCES, OUTPUTS)["lens-salsa"] == pytest.approx(SALSA, abs=1e-5)
    tags = metric.word_tags(SOURCES, OUTPUTS)
    assert [len(t) for t in tags] == [24, 24, 23, 15]
    for (tag, item, position), (token, probability) in SALSA_WORDS.items():
        assert tags[item][position][0] == token and tags[item][position][1][tag] == pytest.approx(probability, abs=1e-6)
    assert metric.signature().startswith("lens-salsa|formula:1|lang:en|checkpoint:lens-salsa@")


def test_each_class_refuses_the_others_checkpoint():
    from simpeval_lens.plugin import LensSalsa

    with pytest.raises(simpeval.UsageError, match="not LENS-SALSA"):
        LensSalsa(checkpoint=str(DATA / "lens"), encoder=str(DATA / "encoder")).sentence_scores(["a"], ["b"])
    with pytest.raises(simpeval.UsageError, match="not LENS "):
        Lens(checkpoint=str(DATA / "lens-salsa"), encoder=str(DATA / "encoder")).sentence_scores(["a"], ["b"], [["c"]])


def test_lens_salsa_without_weights_says_where_to_put_them(tmp_path, monkeypatch):
    from simpeval_lens.plugin import LensSalsa

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(simpeval.UsageError, match="-m lens-salsa:checkpoint=DIR") as caught:
        LensSalsa().signature()
    assert str(tmp_path / "models--davidheineman--lens-salsa") in str(caught.value) and "\n" not in str(caught.value)
    assert LensSalsa.missing_weights() == ["davidheineman/lens-salsa"]


# lens.LENS_SALSA(path).recover_output(...)["mt_tagged"] on the outputs (threshold 0.5): only these words are tagged
SALSA_TAGGED = [
    [(None, "The city then built a "), ("paraphrase", "big"), (None, " bridge over "), ("paraphrase", "the"),
     (None, " river.")],
    [(None, "The old man ran quickly to "), ("paraphrase", "the"), (None, " house.")],
    [(None, "The cat sat. The "), ("paraphrase", "dog"), (None, " ran.")],
    [(None, "city the was")],
]


def test_lens_salsa_labels_the_words_the_package_tags():
    from simpeval_lens.plugin import LensSalsa

    metric = LensSalsa(checkpoint=str(DATA / "lens-salsa"), encoder=str(DATA / "encoder"))
    assert list(metric.word_labels()) == ["deletion", "paraphrase", "split"]
    assert metric.label_words(SOURCES, OUTPUTS) == SALSA_TAGGED  # laid over the outputs as written, not lower-cased


def test_the_report_colours_lens_salsa_tags_with_a_legend(tmp_path):
    paths = {}
    for name, lines in (("orig", SOURCES), ("sys", OUTPUTS)):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n")
    spec = f"lens-salsa:checkpoint={DATA / 'lens-salsa'},encoder={DATA / 'encoder'}"
    result = CliRunner().invoke(cli, ["report", "--orig", str(paths["orig"]), "--sys", str(paths["sys"]), "-m", spec,
                                      "--samples", "4", "-o", str(tmp_path / "r.html"), "--no-cache"])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r.html").read_text()
    assert "coloured by the labels of <code>lens-salsa</code>" in page
    legend = "LENS-SALSA&#x27;s &lt;deletion&gt; tag (probability above 0.5)"
    assert f'<span class="wl0" title="{legend}">deletion</span>' in page
    assert ('The city then built a <span class="wl1" title="paraphrase">big</span> bridge over '
            '<span class="wl1" title="paraphrase">the</span> river.') in page
    assert 'The cat sat. The <span class="wl1" title="paraphrase">dog</span> ran.' in page
