"""Write a LENS checkpoint in the authors' exact format around a tiny random RoBERTa, and score it with their package.

Run in a separate environment holding the authors' ``lens-metric`` 0.2.0 (it needs pytorch-lightning 2.0.9):

    python3 -m venv /tmp/lensenv && /tmp/lensenv/bin/pip install lens-metric==0.2.0 torch==2.13.0 "numpy<2" "setuptools<70"
    /tmp/lensenv/bin/python benchmarks/lens_authors/make_checkpoint.py OUT_DIR

It builds the checkpoint with the authors' own classes (``RegressionMetricMultiReference``), saves it
with pytorch-lightning's own ``Trainer.save_checkpoint`` and ``save_hparams_to_yaml`` (the layout the
authors publish: ``checkpoints/model.ckpt`` + ``hparams.yaml``), then scores the inputs of
``inputs.json`` with ``lens.LENS(...).score`` and writes ``package_scores.json`` (scores, command,
versions). simpeval never imports this file: ``benchmarks/lens_authors_parity.py`` reads its output.
"""

from __future__ import annotations

import json
import platform
import sys
from pathlib import Path

HERE = Path(__file__).parent
WORDS = ("the a cat dog sat ran on mat big small house old man woman city was is it he she and quickly slowly "
         "enormous feline tiny municipality subsequently constructed bridge over river built then huge").split()


def tiny_roberta(directory: Path, seed: int) -> Path:
    """A 2-layer RoBERTa (hidden 32) with a byte-level BPE tokenizer trained on a few words, random weights."""
    import torch
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaModel, RobertaTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator([" ".join(WORDS)] * 4, vocab_size=400, min_frequency=1,
                            special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"])
    bpe.save_model(str(directory))
    tokenizer = RobertaTokenizerFast(vocab_file=str(directory / "vocab.json"), merges_file=str(directory / "merges.txt"),
                                     model_max_length=128)
    tokenizer.save_pretrained(str(directory))
    torch.manual_seed(seed)
    config = RobertaConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=130, pad_token_id=tokenizer.pad_token_id,
                           bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    RobertaModel(config, add_pooling_layer=False).save_pretrained(str(directory))
    return directory


def save_like_the_authors(model, directory: Path, gamma: float, hparams: dict) -> Path:
    """Make ``model``'s layer mix matter (it starts uniform: random scalars, scale ``gamma``), then save it as
    the authors publish theirs: ``directory/checkpoints/model.ckpt`` written by pytorch-lightning's own
    ``Trainer.save_checkpoint``, and ``directory/hparams.yaml``. Returns the checkpoint's path."""
    import pytorch_lightning as ptl
    import torch
    from pytorch_lightning.core.saving import save_hparams_to_yaml

    with torch.no_grad():
        for parameter in model.layerwise_attention.scalar_parameters:
            parameter.normal_()
        model.layerwise_attention.gamma.fill_(gamma)
    trainer = ptl.Trainer(logger=False, enable_checkpointing=False, accelerator="cpu", devices=1,
                          enable_progress_bar=False, enable_model_summary=False)
    trainer.strategy.connect(model)
    checkpoint = directory / "checkpoints" / "model.ckpt"
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    trainer.save_checkpoint(str(checkpoint))
    save_hparams_to_yaml(str(directory / "hparams.yaml"), hparams)
    return checkpoint


def build(out: Path, seed: int = 0) -> Path:
    """The authors' model class around the tiny encoder, every weight random, saved as they save it."""
    import torch
    from lens.models import RegressionMetricMultiReference

    encoder = tiny_roberta(out / "tiny-roberta", seed)
    torch.manual_seed(seed + 1)
    model = RegressionMetricMultiReference(
        encoder_model="RoBERTa", pretrained_model=str(encoder), hidden_sizes=[64, 32], activations="Tanh",
        layer="mix", pool="avg", dropout=0.1, batch_size=8, topk=3, train_data=["simpeval_past.csv"],
        validation_data=["simpeval_past_valid.csv"],
    )
    # the class's own hparams leave class_identifier empty (its positional call to the base class skips it),
    # and the package cannot load a checkpoint whose hparams.yaml does not name the class: the published one does
    hparams = dict(model.hparams) | {"class_identifier": "regression_metric_multi_ref"}
    checkpoint = save_like_the_authors(model, out / "lens-tiny", 1.7, hparams)
    print(f"layer norm in the layer mix: {model.layerwise_attention.layer_norm!r}")
    return checkpoint


SPAN_TOKENS = ["deletion", "paraphrase", "split"]


def build_salsa(out: Path, encoder: Path, seed: int = 2) -> Path:
    """LENS-SALSA's class (``UnifiedMetric``, word-level tagging on) around the same tiny encoder, saved likewise."""
    import torch
    from lens.models import UnifiedMetric

    torch.manual_seed(seed)
    model = UnifiedMetric(
        encoder_model="RoBERTa", pretrained_model=str(encoder), sent_layer="mix", layer_transformation="sparsemax",
        layer_norm=True, word_layer=1, hidden_sizes=[48], activations="Tanh", input_segments=["mt", "src"],
        word_level_training=True, word_weights=[0.1, 0.3, 0.3, 0.3], span_tokens=SPAN_TOKENS,
        span_targets=["mt", "src"], score_target="score", train_data=["salsa.csv"], validation_data=["salsa_valid.csv"],
    )
    checkpoint = save_like_the_authors(model, out / "lens-salsa-tiny", 0.8, dict(model.hparams))
    print(f"SALSA mix: {model.layerwise_attention.transform_fn!r}, layer norm {model.layerwise_attention.layer_norm!r}")
    return checkpoint


def main() -> None:
    import lens
    import pytorch_lightning
    import torch
    import transformers

    out = Path(sys.argv[1])
    ckpt = build(out)
    inputs = json.loads((HERE / "inputs.json").read_text(encoding="utf-8"))
    scorer = lens.LENS(str(ckpt), rescale=False)
    scores = scorer.score(inputs["sources"], inputs["outputs"], inputs["references"], batch_size=4)
    rescaled = lens.LENS(str(ckpt), rescale=True).score(inputs["sources"], inputs["outputs"], inputs["references"],
                                                        batch_size=4)
    salsa = lens.LENS_SALSA(str(build_salsa(out, out / "tiny-roberta")))
    salsa_scores, salsa_words = salsa.score(inputs["sources"], inputs["outputs"], batch_size=4)
    record = {
        "command": f"{Path(sys.executable).name} benchmarks/lens_authors/make_checkpoint.py {out}",
        "versions": {"python": platform.python_version(), "lens-metric": "0.2.0", "torch": torch.__version__,
                     "pytorch-lightning": pytorch_lightning.__version__, "transformers": transformers.__version__},
        "scores": scores,
        "rescaled": rescaled,
        "salsa_scores": salsa_scores,
        "salsa_word_probabilities": salsa_words,
        "salsa_tagged": salsa.recover_output(salsa_words),  # the package's own tagged texts (threshold 0.5)
    }
    (out / "package_scores.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record["scores"]))


if __name__ == "__main__":
    main()
