"""The metrics on a checkpoint trained for a few steps on a tiny encoder; the trainer end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from sle_testdata import ARTICLES, write_corpus

from simpeval.cli import cli
from simpeval.errors import UsageError
from simpeval.run import Run
from simpeval_sle.inference import Predictor
from simpeval_sle.plugin import Sle, SleDelta, SleDoc
from simpeval_sle.segment import sentences_of
from simpeval_sle.settings import CONFIG_FILE, WEIGHTS_FILE


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_encoder):
    root = tmp_path_factory.mktemp("train")
    data = write_corpus(root / "data")
    output = root / "ckpt"
    result = CliRunner().invoke(cli, ["train", "sle", "--data-dir", str(data), "-o", str(output),
                                      "--encoder", tiny_encoder, "--max-epochs", "3", "--patience", "3",
                                      "--batch-size", "4", "--hidden-size", "8", "--rated-datasets", "none"],
                                env={"SIMPEVAL_CACHE_DIR": str(root / "cache")})
    assert result.exit_code == 0, result.output
    return output, result.output


@pytest.mark.slow
def test_training_writes_a_selected_checkpoint_and_card(trained):
    output, log = trained
    record = json.loads((output / CONFIG_FILE).read_text())["training"]
    history = record["history"]
    assert [h["epoch"] for h in history] == [1, 2, 3]
    best = min(history, key=lambda h: h["valid_document_mae"])
    assert record["best_epoch"] == best["epoch"]
    assert record["best_valid_document_mae"] == best["valid_document_mae"]
    assert [len(record["split"][p]) for p in ("train", "validation", "test")] == [4, 1, 1]
    assert set(record["test_document_mae"]) == {"0", "1", "2", "all"}
    assert (output / WEIGHTS_FILE).stat().st_size < 50_000
    card = (output / "MODEL_CARD.md").read_text()
    assert f"| all | {record['test_document_mae']['all']:.3f} |" in card
    assert record["selected_epoch"] == record["best_epoch"] and "leave_one_dataset_out" not in record  # --rated-datasets none
    assert f"kept epoch {record['best_epoch']}" in log


def test_a_document_level_is_the_mean_of_its_sentence_levels(trained):
    output, _ = trained
    predictor = Predictor(output)
    text = ARTICLES["doctor"][0]
    sentences = sentences_of(text)
    assert len(sentences) == 2
    per_sentence = predictor.sentence_levels(sentences)
    assert predictor.text_levels([text, "", text]) == pytest.approx([sum(per_sentence) / 2, math.nan, sum(per_sentence) / 2],
                                                                     nan_ok=True)


def test_sle_delta_and_sledoc_arithmetic(trained):
    output, _ = trained
    sources = [v[0] for v in ARTICLES.values()]
    outputs = [v[2] for v in ARTICLES.values()]
    run = Run()  # the metrics of one run share the encoder and each sentence's level, as in evaluate
    sle, sle_again, delta_metric = Sle(checkpoint=str(output)), Sle(checkpoint=str(output)), SleDelta(checkpoint=str(output))
    run.bind([sle, sle_again, delta_metric])
    sle, sle_src = sle.sentence_scores(sources, outputs)["sle"], sle_again.sentence_scores(sources, sources)["sle"]
    delta = delta_metric.sentence_scores(sources, outputs)["sle-delta"]
    assert delta == pytest.approx([o - s for o, s in zip(sle, sle_src)])
    targets = [0, 1, 2, 2, 1.5, 0]
    doc = SleDoc(checkpoint=str(output)).sentence_scores(sources, outputs, target=targets)
    assert doc["sledoc-level"] == pytest.approx(sle)
    assert doc["sledoc"] == pytest.approx([abs(level - t) for level, t in zip(sle, targets)])
    fixed = SleDoc(checkpoint=str(output), target="2").corpus_score(sources, outputs, target=targets)
    assert fixed["sledoc"] == pytest.approx(sum(abs(level - 2) for level in sle) / len(sle))


def test_sledoc_without_a_target_says_how_to_give_one(trained):
    output, _ = trained
    with pytest.raises(UsageError, match="sledoc:target=LEVEL"):
        SleDoc(checkpoint=str(output)).sentence_scores(["a"], ["b"])
    with pytest.raises(UsageError, match="sledoc:target=LEVEL"):
        SleDoc(checkpoint=str(output)).sentence_scores(["a", "b"], ["b", "c"], target=[1.0, math.nan])


def test_cli_reads_per_document_targets_from_jsonl(trained, tmp_path):
    output, _ = trained
    orig, system = tmp_path / "orig.jsonl", tmp_path / "sys.jsonl"
    names = list(ARTICLES)[:3]
    orig.write_text("".join(json.dumps({"id": n, "text": ARTICLES[n][0]}) + "\n" for n in names))
    system.write_text("".join(json.dumps({"id": n, "text": ARTICLES[n][2], "target": i}) + "\n"
                              for i, n in enumerate(names)))
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(orig), "--sys", str(system), "-m",
                                      f"sledoc:checkpoint={output}", "--sentence-level", "--format", "json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    levels = Sle(checkpoint=str(output)).sentence_scores([""] * 3, [ARTICLES[n][2] for n in names])["sle"]
    assert payload["ids"] == names
    assert payload["sentences"]["sledoc"] == pytest.approx([abs(level - i) for i, level in enumerate(levels)])
    assert payload["corpus"]["sledoc"] == pytest.approx(sum(payload["sentences"]["sledoc"]) / 3)


def test_a_broken_checkpoint_is_one_line(tmp_path):
    (tmp_path / CONFIG_FILE).write_text("{}")
    with pytest.raises(UsageError, match="cannot load the SLE checkpoint"):
        Sle(checkpoint=str(tmp_path)).sentence_scores(["a"], ["b"])


@pytest.mark.slow
def test_shipped_checkpoint_scores_a_test_article_as_the_trainer_does(data_dir, tmp_path):
    """The metric path (split, embed, head, mean) equals the trainer's (cached features, batched head)
    on a test article, and its Elementary version reads simpler than its Advanced one."""
    from simpeval_sle.corpus import load_corpus
    from simpeval_sle.model import load_checkpoint, predict_embeddings
    from simpeval_sle.plugin import SHIPPED_DIR
    from simpeval_sle.training import document_levels, featurize

    config, head = load_checkpoint(str(SHIPPED_DIR))
    article = config.training["split"]["test"][0]
    documents = [d for d in load_corpus(data_dir) if d.article == article]
    trainer = document_levels(lambda v: predict_embeddings(head, v), featurize(documents, config.encoder, tmp_path))
    metric = Sle().sentence_scores([""] * 3, [d.text for d in documents])["sle"]
    assert metric == pytest.approx(list(trainer), abs=1e-5)
    assert metric[0] < metric[2]


def test_the_signature_names_the_checkpoint_and_its_encoder_by_content(trained, tiny_encoder, tmp_path):
    import shutil

    from simpeval.models import content_hash

    output, _ = trained
    encoder = Path(tiny_encoder)
    signature = SleDoc(checkpoint=str(output), target="1").signature()
    assert signature == (f"sledoc|formula:1|lang:en|target:1.0|checkpoint:ckpt@{content_hash(output)}+{encoder.name}@"
                         f"{content_hash(encoder)}|version:0.1.0")
    with pytest.raises(UsageError, match="does not exist"):
        Sle(checkpoint=str(output / "missing")).signature()
    # editing the encoder a checkpoint names changes the key, so no stale cached level comes back
    copy, encoder_copy = tmp_path / "ckpt", tmp_path / "enc"
    shutil.copytree(output, copy)
    shutil.copytree(encoder, encoder_copy)
    config = json.loads((copy / CONFIG_FILE).read_text())
    (copy / CONFIG_FILE).write_text(json.dumps({**config, "encoder": str(encoder_copy)}))
    before = Sle(checkpoint=str(copy)).signature()
    (encoder_copy / "config.json").write_text((encoder_copy / "config.json").read_text() + "\n")
    assert Sle(checkpoint=str(copy)).signature() != before


def test_sle_metrics_name_what_their_shipped_weights_saw():
    from simpeval_sle.plugin import Sle, SleDelta, SleDoc

    assert Sle.trained_on == SleDelta.trained_on == SleDoc.trained_on == ("onestopenglish",)
