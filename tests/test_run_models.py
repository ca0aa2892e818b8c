"""Models are kept by content, never by path: weights replaced in place between two evaluations in one
process are scored with the new weights, and the score cache only ever holds correct entries."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import simpeval
from simpeval.registry import load_registry
from simpeval.run import Run
from simpeval.runner import evaluate, resolve_metrics
from simpeval.testing import save_tiny_bert

ORIG = ["the cat sat on the mat .", "a dog ran in the park ."]
SYS = ["the cat sat .", "a dog ran ."]
REFS = [["a cat sat on a mat .", "the dog ran ."]]
WORDS = sorted({w for text in ORIG + SYS + REFS[0] for w in text.split()})

SCORE = """
import json, sys
import simpeval
result = simpeval.evaluate(*json.loads(sys.argv[1]), metrics="bertscore:model=" + sys.argv[2], cache=sys.argv[3],
                           sentence_level=True)
print(json.dumps([result.sentence_scores["bertscore"], result.corpus_scores["bertscore"]]))
"""


def _tiny_bert(directory, seed):
    """:func:`save_tiny_bert` with the model's length limit in its tokenizer's config (bertscore truncates to it)."""
    save_tiny_bert(directory, WORDS, seed=seed)
    config_file = directory / "tokenizer_config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config_file.write_text(json.dumps({**config, "model_max_length": 128}), encoding="utf-8")
    return directory


def _scores(model, cache):
    result = simpeval.evaluate(ORIG, SYS, REFS, metrics=f"bertscore:model={model}", cache=cache, sentence_level=True)
    return [result.sentence_scores["bertscore"], result.corpus_scores["bertscore"]], result.signatures["bertscore"]


def _fresh_process(model, cache):
    done = subprocess.run([sys.executable, "-c", SCORE, json.dumps([ORIG, SYS, REFS]), str(model), str(cache)],
                          capture_output=True, text=True, check=True, env=os.environ.copy())
    return json.loads(done.stdout), done.stderr


def _truth(model, tmp_path, name):
    """The scores of ``model``'s current weights, from a copy at another path and no cache."""
    copy = shutil.copytree(model, tmp_path / name)
    return _scores(copy, False)[0]


def test_weights_replaced_between_two_evaluations_are_scored_with_the_new_weights(tmp_path):
    model, cache = tmp_path / "model", tmp_path / "cache"
    _tiny_bert(model, seed=0)
    old, old_signature = _scores(model, cache)
    assert old == _truth(model, tmp_path, "old-copy")
    _tiny_bert(model, seed=1)  # same directory, new weights
    new, new_signature = _scores(model, cache)
    truth = _truth(model, tmp_path, "new-copy")
    assert new == truth and new[1] != pytest.approx(old[1], abs=1e-4)
    assert new_signature != old_signature
    # the cache holds only correct entries: a fresh process is served each from it (no model loads)
    served, stderr = _fresh_process(model, cache)
    assert served == truth and "loading" not in stderr
    _tiny_bert(model, seed=0)
    served, stderr = _fresh_process(model, cache)
    assert served == old and "loading" not in stderr


def test_one_run_loads_a_model_again_when_its_weights_change(tmp_path, capsys):
    model = _tiny_bert(tmp_path / "model", seed=0)
    registry = load_registry(autoload=False)
    references = [list(item) for item in zip(*REFS)]

    def score(run):
        requests = resolve_metrics(registry, [f"bertscore:model={model}"])
        return evaluate(requests, ORIG, SYS, references, run=run).corpus_scores["bertscore"]

    with Run() as run:
        first = score(run)
        assert score(run) == first
        assert capsys.readouterr().err.count("loading model ...") == 1  # the run kept the model
        _tiny_bert(model, seed=1)
        second = score(run)
        assert capsys.readouterr().err.count("loading model ...") == 1  # new content: loaded again
    with Run() as fresh:
        assert second == score(fresh) != first


def test_the_memory_budget_bounds_what_a_run_keeps_and_never_changes_a_score(tmp_path):
    model = _tiny_bert(tmp_path / "model", seed=0)
    words = WORDS * 3
    outputs = [" ".join(words[i : i + 4 + i % 5]) for i in range(24)]  # 24 distinct texts
    sources = [" ".join(words[i + 1 : i + 9]) for i in range(24)]
    references = [[" ".join(words[i + 2 : i + 7])] for i in range(24)]
    registry = load_registry(autoload=False)

    def score(run):
        requests = resolve_metrics(registry, [f"bertscore:model={model}"])
        return evaluate(requests, sources, outputs, references, batch_size=8, run=run).sentence_scores["bertscore"]

    with Run() as roomy:
        expected = score(roomy)
        everything = roomy.memory.bytes
        encoder_entries = len(roomy.memory)
    assert encoder_entries == len(set(outputs) | {r for refs in references for r in refs})
    with Run(memory_budget_mb=everything / 3 / (1 << 20) * 4 / 3) as tight:  # a third of it for embeddings
        assert score(tight) == expected
        assert tight.memory.peak_bytes <= tight.memory.budget < everything / 2
        assert 0 < len(tight.memory) < encoder_entries
