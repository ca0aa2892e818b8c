"""Code enters the score cache's key: an edited metric or a bumped formula version is never served old scores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types

from simpeval.cache import ScoreCache, metric_key
from simpeval.codehash import code_fingerprint, package_hash
from simpeval.metrics.base import Metric
from simpeval.runner import MetricRequest, evaluate

PLUGIN = '''
from simpeval.metrics.base import Metric


class Tiny(Metric):
    name = "tiny"

    def _score_items(self, sources, outputs, references=None):
        with open(COUNT_FILE, "a") as log:
            log.write("computed\\n")
        return {"tiny": [FACTOR * len(o) for o in outputs]}
'''

SCORE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tinyplug import Tiny
from simpeval.cache import ScoreCache
from simpeval.runner import MetricRequest, evaluate
result = evaluate([MetricRequest(Tiny(), ["tiny"])], ["a", "b"], ["xx", "yyy"], cache=ScoreCache(sys.argv[2]))
print(json.dumps(result.sentence_scores["tiny"]))
"""


def _write_plugin(folder, factor, count_file):
    code = f"COUNT_FILE = {str(count_file)!r}\nFACTOR = {factor}\n" + textwrap.dedent(PLUGIN)
    (folder / "tinyplug.py").write_text(code, encoding="utf-8")


def _score_in_a_fresh_process(folder, cache_dir):
    done = subprocess.run([sys.executable, "-c", SCORE, str(folder), str(cache_dir)], capture_output=True,
                          text=True, check=True, env=os.environ.copy())
    return json.loads(done.stdout)


def test_an_edited_plugin_is_not_served_the_scores_of_its_old_code(tmp_path):
    plugin, cache_dir, count = tmp_path / "plugin", tmp_path / "cache", tmp_path / "count.txt"
    plugin.mkdir()
    _write_plugin(plugin, 1, count)
    assert _score_in_a_fresh_process(plugin, cache_dir) == [2.0, 3.0]
    assert _score_in_a_fresh_process(plugin, cache_dir) == [2.0, 3.0]
    assert count.read_text().count("computed") == 1  # the unchanged code was served from the cache
    _write_plugin(plugin, 10, count)  # same signature, new formula
    assert _score_in_a_fresh_process(plugin, cache_dir) == [20.0, 30.0]
    assert count.read_text().count("computed") == 2


class Counted(Metric):
    """Scores ``factor * len(output)`` and counts its computations."""

    name = "counted"
    factor = 1
    calls = 0

    def _score_items(self, sources, outputs, references=None):
        type(self).calls += 1
        return {"counted": [self.factor * len(o) for o in outputs]}


def test_a_bumped_formula_version_is_not_served_the_old_scores(tmp_path, monkeypatch):
    cache = ScoreCache(tmp_path)

    def scores():
        return evaluate([MetricRequest(Counted(), ["counted"])], ["s", "t"], ["ab", "abc"],
                        cache=cache).sentence_scores["counted"]

    assert scores() == [2.0, 3.0]
    assert scores() == [2.0, 3.0] and Counted.calls == 1
    monkeypatch.setattr(Counted, "factor", 5)  # what a changed formula does ...
    assert scores() == [2.0, 3.0] and Counted.calls == 1  # ... is served stale without a version bump,
    monkeypatch.setattr(Counted, "formula_version", "2", raising=False)  # which is why every change bumps it
    assert scores() == [10.0, 15.0] and Counted.calls == 2


def test_the_key_holds_the_formula_version_and_every_package_of_the_metric():
    from simpeval.metrics.bleu import Bleu

    bleu = Bleu()
    key = metric_key(bleu, bleu.signature())
    assert key.startswith(bleu.signature() + "|formula:")
    assert f"|code:simpeval@{package_hash('simpeval')}" in key
    assert "code" not in bleu.signature()  # the printed signature stays short

    from simpeval_lens.plugin import LensCla

    assert code_fingerprint(LensCla) == (f"simpeval@{package_hash('simpeval')}"
                                         f"+simpeval_lens@{package_hash('simpeval_lens')}")
    assert len(package_hash("simpeval")) == 16 and package_hash("simpeval") != package_hash("simpeval_lens")


def test_layers_that_only_read_scores_stay_out_of_the_core_hash(tmp_path, monkeypatch):
    """Editing the leaderboard's rendering (or a command, or a meta-evaluation statistic) keeps every
    cached score; editing scoring code anywhere else in the package does not."""
    from simpeval import codehash

    package = tmp_path / "simpeval"
    for relative in ("metrics/bleu.py", "leaderboard/render.py", "cli/leaderboard.py", "significance.py",
                     "sub/cli/keep.py"):
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text("A = 1\n", encoding="utf-8")

    def digest():
        return codehash._hash_files(codehash._package_files("simpeval"))

    monkeypatch.setitem(sys.modules, "simpeval", types.SimpleNamespace(__path__=[str(package)]))
    before = digest()
    for relative in ("leaderboard/render.py", "cli/leaderboard.py", "significance.py"):
        (package / relative).write_text("A = 2\n", encoding="utf-8")
    assert digest() == before
    (package / "sub/cli/keep.py").write_text("A = 2\n", encoding="utf-8")  # only top-level layers are left out
    assert digest() != before
    changed = digest()
    (package / "metrics/bleu.py").write_text("A = 2\n", encoding="utf-8")
    assert digest() != changed
