"""simpeval's ``lens`` and ``lens-salsa`` against the authors' ``lens-metric`` 0.2.0 on checkpoints in their exact format.

The real LENS weights cannot be downloaded here, so ``lens_authors/make_checkpoint.py`` builds a
checkpoint with the authors' own classes around a tiny random RoBERTa, in a separate environment
holding their package, and scores ``lens_authors/inputs.json`` with it. This script runs that,
scores the same checkpoint with simpeval (no pytorch-lightning, no code from the checkpoint),
writes ``docs/reproduced/lens-authors-parity.md`` and ``benchmarks/results/lens_authors_parity.json``,
and copies the checkpoint (without the encoder's weights, which simpeval never reads) into
``plugins/simpeval-lens/tests/data/`` for the test that keeps the recorded values:

    /tmp/lensenv/bin/pip install lens-metric==0.2.0 torch==2.13.0 "numpy<2" "setuptools<70" "transformers<4.46"
    python benchmarks/lens_authors_parity.py --authors-python /tmp/lensenv/bin/python

``--rescore`` scores the committed checkpoints with simpeval again and keeps the package's side as the
results file records it (when simpeval's side changed, e.g. its signatures, and no lens-metric environment is at hand).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import authors_side  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "lens_authors"
FIXTURE = ROOT / "plugins" / "simpeval-lens" / "tests" / "data" / "lens-authors-tiny"
RESULT = ROOT / "benchmarks" / "results" / "lens_authors_parity.json"
PAGE = ROOT / "docs" / "reproduced" / "lens-authors-parity.md"
TOLERANCE = 1e-5


def main() -> None:
    args = authors_side.parse(__doc__.splitlines()[0], "lens-metric 0.2.0", RESULT)
    package, command = authors_side.authors_scores(args, script=HERE / "make_checkpoint.py", result=RESULT,
                                                   recorded_key="authors", install=install_checkpoints)
    ours = simpeval_scores(FIXTURE)
    word_difference = max(abs(a[1] - b[1]) for tag, items in package["salsa_word_probabilities"].items()
                          for x, y in zip(items, ours["salsa_word_probabilities"][tag]) for a, b in zip(x, y))
    record = {
        "command": command,
        "authors": package,
        "simpeval": ours | {"versions": versions()},
        "max_abs_difference": {key: max(abs(a - b) for a, b in zip(package[key], ours[key]))
                               for key in ("scores", "rescaled", "salsa_scores")},
    }
    record["max_abs_difference"]["salsa_word_probabilities"] = word_difference
    record["tag_disagreements"] = sum(a != b for x, y in zip(package["salsa_tagged"], ours["salsa_spans"])
                                      for a, b in zip(*aligned_labels(x["mt_tagged"], y)))
    RESULT.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    PAGE.write_text(page(record), encoding="utf-8")
    print(json.dumps(record["max_abs_difference"]))
    if max(record["max_abs_difference"].values()) > TOLERANCE or record["tag_disagreements"]:
        sys.exit(f"simpeval differs from lens-metric by more than {TOLERANCE}, or tags words otherwise")


def aligned_labels(tagged: str, spans: list) -> tuple[list, list]:
    """Per non-space character, its tag: in the package's ``<tag>word</tag>`` output text and in simpeval's spans.

    The package leaves a tag open at the end of the output (it closes tags only where the next one
    starts) and writes the text lower-cased, so characters are compared lower-cased, with their tags.
    """
    import re

    theirs, current = [], None
    for piece in re.split(r"(</?[A-Za-z_]+>)", tagged):
        closing = re.fullmatch(r"</([A-Za-z_]+)>", piece)
        opening = re.fullmatch(r"<([A-Za-z_]+)>", piece)
        if closing:
            current = None
        elif opening:
            current = opening.group(1)
        else:
            theirs += [(c, current) for c in piece if not c.isspace()]
    ours = [(c.lower(), label) for label, text in spans for c in text if not c.isspace()]
    if len(theirs) != len(ours):
        sys.exit(f"the package tagged {len(theirs)} characters and simpeval {len(ours)}: {tagged!r}")
    return theirs, ours


def install_checkpoints(out: Path) -> None:
    """The authors' LENS and LENS-SALSA checkpoints, and their encoder without its weights (never read)."""
    if FIXTURE.exists():
        shutil.rmtree(FIXTURE)
    shutil.copytree(out / "lens-tiny", FIXTURE / "lens")
    shutil.copytree(out / "lens-salsa-tiny", FIXTURE / "lens-salsa")
    shutil.copytree(out / "tiny-roberta", FIXTURE / "encoder", ignore=shutil.ignore_patterns("*.safetensors"))


def simpeval_scores(fixture: Path) -> dict:
    from simpeval_lens.plugin import Lens, LensSalsa

    inputs = json.loads((HERE / "inputs.json").read_text(encoding="utf-8"))
    texts = (inputs["sources"], inputs["outputs"], inputs["references"])
    scores = {}
    for key, rescale in (("scores", False), ("rescaled", True)):
        metric = Lens(checkpoint=str(fixture / "lens"), encoder=str(fixture / "encoder"), rescale=rescale)
        scores[key] = metric.sentence_scores(*texts)["lens"]
        scores[f"signature_{key}"] = metric.signature()
    salsa = LensSalsa(checkpoint=str(fixture / "lens-salsa"), encoder=str(fixture / "encoder"))
    scores["salsa_scores"] = salsa.sentence_scores(inputs["sources"], inputs["outputs"])["lens-salsa"]
    words = salsa.word_tags(inputs["sources"], inputs["outputs"])
    scores["salsa_word_probabilities"] = {tag: [[[t, p[tag]] for t, p in item] for item in words]
                                          for tag in salsa.model().span_tokens}
    scores["salsa_spans"] = salsa.label_words(inputs["sources"], inputs["outputs"])
    scores["signature_salsa"] = salsa.signature()
    return scores


def versions() -> dict:
    import platform

    import torch
    import transformers

    import simpeval

    return {"python": platform.python_version(), "simpeval": simpeval.__version__, "torch": torch.__version__,
            "transformers": transformers.__version__}


def page(record: dict) -> str:
    authors, ours = record["authors"], record["simpeval"]
    rows = [f"| {i} | {a:.6f} | {b:.6f} | {abs(a - b):.1e} |" for i, (a, b) in enumerate(zip(authors["scores"], ours["scores"]))]
    salsa = [f"| {i} | {a:.6f} | {b:.6f} | {abs(a - b):.1e} |"
             for i, (a, b) in enumerate(zip(authors["salsa_scores"], ours["salsa_scores"]))]
    return "\n".join([
        "# LENS: simpeval against the authors' package",
        "",
        "Written by `benchmarks/lens_authors_parity.py`; do not edit by hand.",
        "",
        "A checkpoint in the authors' exact format (pytorch-lightning `checkpoints/model.ckpt` + `hparams.yaml`,",
        "class `regression_metric_multi_ref`) built with the authors' own classes around a tiny random RoBERTa",
        "(2 layers, hidden 32; estimator 224-64-32-1; random layer-mix weights), scored on",
        "`benchmarks/lens_authors/inputs.json` by `lens.LENS(path).score` and by simpeval's `lens`.",
        "",
        "| item | lens-metric 0.2.0 | simpeval `lens` | difference |",
        "|---|---|---|---|",
        *rows,
        "",
        f"Largest difference: {record['max_abs_difference']['scores']:.1e} (raw x 100), "
        f"{record['max_abs_difference']['rescaled']:.1e} (`rescale=True`); tolerance {TOLERANCE:g}.",
        "",
        "## LENS-SALSA",
        "",
        "The same encoder inside the authors' `UnifiedMetric` (word-level tagging on, span tokens deletion,",
        "paraphrase, split; estimator 32-48-1), scored reference-free by `lens.LENS_SALSA(path).score(complex,",
        "simple)` and by simpeval's `lens-salsa` (its `word_tags` for the word-level probabilities).",
        "",
        "| item | lens-metric 0.2.0 | simpeval `lens-salsa` | difference |",
        "|---|---|---|---|",
        *salsa,
        "",
        f"Largest difference: {record['max_abs_difference']['salsa_scores']:.1e} (scores), "
        f"{record['max_abs_difference']['salsa_word_probabilities']:.1e} (word-level tag probabilities).",
        "",
        "The words each tag marks (a token takes the tag whose probability exceeds 0.5), as the package's",
        "`LENS_SALSA.recover_output` writes them and as simpeval's `label_words` gives them to the report's",
        f"word colouring; {record['tag_disagreements']} of the outputs' characters are tagged differently:",
        "",
        "| item | lens-metric 0.2.0 `mt_tagged` | simpeval `label_words` |",
        "|---|---|---|",
        *(f"| {i} | `{a['mt_tagged']}` | `{tagged(b)}` |" for i, (a, b) in enumerate(zip(authors["salsa_tagged"],
                                                                                     ours["salsa_spans"]))),
        "",
        f"- Command: `{record['command']}`",
        f"- Authors' side: `{authors['command']}` with " + ", ".join(f"{k} {v}" for k, v in authors["versions"].items()),
        "  (lens-metric 0.2.0 needs `transformers<4.46`: with transformers 5 its RoBERTa encoder fails to unpack",
        "  the model's outputs, and `numpy<2` for its pandas 1.5)",
        "- simpeval side: " + ", ".join(f"{k} {v}" for k, v in ours["versions"].items()),
        f"- Signatures: `{ours['signature_scores']}`, `{ours['signature_salsa']}`",
        "",
    ])


def tagged(spans: list) -> str:
    """simpeval's spans written as the package writes tags."""
    return "".join(text if label is None else f"<{label}>{text}</{label}>" for label, text in spans)


if __name__ == "__main__":
    main()
