"""The score cache never serves a wrong score and never fails a run."""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import simpeval
from simpeval import cache as cache_module
from simpeval.cache import ScoreCache, checksum
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics

SOURCES = ["a b", "a b c d", "a"]
OUTPUTS = ["a", "a b", "a"]
EXPECTED = [0.5, 0.5, 1.0]


class Ratio(simpeval.Metric):
    """Output words per source word, and a corpus score of its own (total ratio); counts its calls."""

    name = "ratio"
    sub_scores = ("ratio", "ratio-out")
    corpus_level = True
    calls = 0

    def _score_items(self, sources, outputs, references=None):
        type(self).calls += 1
        return {"ratio": [len(o.split()) / len(s.split()) for s, o in zip(sources, outputs)],
                "ratio-out": [float(len(o.split())) for o in outputs]}

    def _score_corpus(self, sources, outputs, references=None):
        type(self).calls += 1
        return {"ratio": sum(len(o.split()) for o in outputs) / sum(len(s.split()) for s in sources),
                "ratio-out": float(sum(len(o.split()) for o in outputs))}


class Plugin:
    @simpeval.hookimpl
    def simpeval_register_metrics(self):
        return [Ratio]


@pytest.fixture
def requests():
    Ratio.calls = 0
    return resolve_metrics(load_registry(autoload=False, plugins=[Plugin()]), ["ratio"])


def run(requests, cache, **kwargs):
    return evaluate(requests, SOURCES, OUTPUTS, cache=cache, **kwargs)


def entries(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.json"))


def sentence_entry(directory: Path) -> Path:
    [path] = [p for p in entries(directory) if isinstance(json.loads(p.read_text())["value"]["ratio"], list)]
    return path


def rewrite(path: Path, value, keep_checksum: bool = False) -> None:
    """Replace the entry's value; with ``keep_checksum`` the old checksum stays (an edit by hand)."""
    entry = json.loads(path.read_text())
    entry["checksum"] = entry["checksum"] if keep_checksum else checksum(value, path.stem)
    entry["value"] = value
    path.write_text(json.dumps(entry))


def test_entries_carry_a_checksum_of_their_key_and_scores(requests, tmp_path):
    run(requests, ScoreCache(tmp_path))
    path = sentence_entry(tmp_path)
    entry = json.loads(path.read_text())
    assert entry["value"] == {"ratio": EXPECTED, "ratio-out": [1.0, 2.0, 1.0]} and entry["key"] == path.stem
    canonical = json.dumps([path.stem, entry["value"]], sort_keys=True, separators=(",", ":")).encode()
    import hashlib

    assert entry["checksum"] == hashlib.sha256(canonical).hexdigest()


@pytest.mark.parametrize(
    "corrupt, problem",
    [
        (lambda p: rewrite(p, {"ratio": [0.9, 0.5, 1.0], "ratio-out": [1.0, 2.0, 1.0]}, keep_checksum=True),
         "its checksum does not match its scores"),
        (lambda p: rewrite(p, {"ratio": [0.5, 1.0], "ratio-out": [2.0, 1.0]}), "2 ratio scores for 3 items"),
        (lambda p: rewrite(p, {"ratio": ["0.5", "0.5", "1"], "ratio-out": [1.0, 2.0, 1.0]}),
         "a ratio score that is not a finite number"),
        (lambda p: rewrite(p, {"ratio": [0.5, math.inf, 1.0], "ratio-out": [1.0, 2.0, 1.0]}),
         "a ratio score that is not a finite number"),
        (lambda p: rewrite(p, {"ratio-out": [1.0, 2.0, 1.0]}), "no list of ratio scores"),
        (lambda p: rewrite(p, [0.5, 0.5, 1.0]), "a list instead of sub-scores"),
        (lambda p: p.write_text(json.dumps({"ratio": EXPECTED, "ratio-out": [1.0, 2.0, 1.0]})),
         "not a checksummed entry"),
        (lambda p: p.write_text('{"checksum": "ab", "value": {"ratio": [0.5,'), "not JSON"),
        (lambda p: p.write_bytes(b"\xff\xfe"), "not UTF-8 text"),
    ],
)
def test_a_bad_sentence_entry_is_recomputed_with_one_warning(requests, tmp_path, corrupt, problem):
    warnings: list[str] = []
    cache = ScoreCache(tmp_path / "cache", warn=warnings.append)
    run(requests, cache, corpus_level=False)
    path = sentence_entry(tmp_path / "cache")
    corrupt(path)
    result = run(requests, cache, corpus_level=False)
    assert result.sentence_scores["ratio"] == EXPECTED
    assert warnings == [f"ignoring a bad score cache entry ({path}: {problem}); recomputing it"]
    assert Ratio.calls == 2
    run(requests, cache, corpus_level=False)  # the recomputed entry was stored again, and is good
    assert Ratio.calls == 2 and len(warnings) == 1


@pytest.mark.parametrize(
    "value, keep_checksum, problem",
    [
        ({"ratio": 0.9, "ratio-out": 4.0}, True, "its checksum does not match its scores"),
        ({"ratio": "4/7", "ratio-out": 4.0}, False, "no finite ratio score"),
        ({"ratio": True, "ratio-out": 4.0}, False, "no finite ratio score"),
        ({"ratio-out": 4.0}, False, "no finite ratio score"),
    ],
)
def test_a_bad_corpus_entry_is_recomputed_with_one_warning(requests, tmp_path, value, keep_checksum, problem):
    warnings: list[str] = []
    cache = ScoreCache(tmp_path, warn=warnings.append)
    run(requests, cache, sentence_level=False)
    [path] = entries(tmp_path)
    rewrite(path, value, keep_checksum)
    assert run(requests, cache, sentence_level=False).corpus_scores == {"ratio": 4 / 7, "ratio-out": 4.0}
    assert warnings == [f"ignoring a bad score cache entry ({path}: {problem}); recomputing it"]


def test_nan_scores_are_cached_and_read_back(tmp_path):
    cache = ScoreCache(tmp_path)
    cache.put("ab" * 32, {"x": [math.nan, 1.0]})
    value = cache.get("ab" * 32, lambda v: cache_module.check_sentence_scores(v, ["x"], 2))
    assert math.isnan(value["x"][0]) and value["x"][1] == 1.0


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_an_unwritable_cache_warns_once_and_keeps_every_batch(requests, tmp_path, monkeypatch, error):
    def failing(path, text):
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(cache_module, "write_atomic", failing)
    warnings: list[str] = []
    result = run(requests, ScoreCache(tmp_path, warn=warnings.append), batch_size=1)
    assert result.sentence_scores["ratio"] == EXPECTED and result.corpus_scores["ratio"] == 4 / 7
    assert Ratio.calls == 4  # three batches and the corpus score, each computed once
    assert warnings == [
        f"cannot use the score cache in {tmp_path} ({os.strerror(error)}); going on without it "
        "(set SIMPEVAL_CACHE_DIR to a writable directory, or pass --no-cache)"
    ]


def test_a_cache_directory_that_is_a_file_warns_once_on_the_command_line(tmp_path):
    (tmp_path / "orig.txt").write_text("\n".join(SOURCES) + "\n")
    (tmp_path / "sys.txt").write_text("\n".join(OUTPUTS) + "\n")
    (tmp_path / "not-a-dir").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(tmp_path / "orig.txt"),
         "--sys", str(tmp_path / "sys.txt"), "-m", "length,fkgl", "--sentence-level", "--format", "json"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "SIMPEVAL_CACHE_DIR": str(tmp_path / "not-a-dir")},
    )
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        f"Warning: cannot use the score cache in {tmp_path / 'not-a-dir'} (Not a directory); going on without it "
        "(set SIMPEVAL_CACHE_DIR to a writable directory, or pass --no-cache)"
    ]
    uncached = subprocess.run(
        [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(tmp_path / "orig.txt"),
         "--sys", str(tmp_path / "sys.txt"), "-m", "length,fkgl", "--sentence-level", "--format", "json",
         "--no-cache"], capture_output=True, text=True, timeout=120,
    )
    assert json.loads(done.stdout) == json.loads(uncached.stdout)


def test_stale_temporary_files_are_removed_and_fresh_ones_kept(requests, tmp_path):
    run(requests, ScoreCache(tmp_path), corpus_level=False)
    shard = sentence_entry(tmp_path).parent
    stale, fresh = shard / ".x.json.killed.tmp", shard / ".y.json.writing.tmp"
    stale.write_text("{")
    fresh.write_text("{")
    old = time.time() - cache_module.STALE_TEMPORARY_SECONDS - 60
    os.utime(stale, (old, old))
    for path in entries(tmp_path):
        path.unlink()
    run(requests, ScoreCache(tmp_path), corpus_level=False)
    assert not stale.exists() and fresh.exists()


def test_entries_swapped_between_keys_are_not_served(requests, tmp_path):
    """Two runs on different outputs leave two sentence entries; swapping their files must not
    serve one run's scores for the other (each entry is bound to its key)."""
    warnings: list[str] = []
    cache = ScoreCache(tmp_path, warn=warnings.append)
    run(requests, cache, corpus_level=False)
    evaluate(requests, SOURCES, ["a b", "a", "a"], cache=cache, corpus_level=False)
    first, second = [p for p in entries(tmp_path) if isinstance(json.loads(p.read_text())["value"]["ratio"], list)]
    first_text, second_text = first.read_text(), second.read_text()
    first.write_text(second_text)
    second.write_text(first_text)
    calls = Ratio.calls
    assert run(requests, cache, corpus_level=False).sentence_scores["ratio"] == EXPECTED
    assert Ratio.calls == calls + 1
    assert any("it is the entry of another key" in w for w in warnings)


def test_an_edit_with_the_old_style_checksum_recomputed_is_not_served(requests, tmp_path):
    warnings: list[str] = []
    cache = ScoreCache(tmp_path, warn=warnings.append)
    run(requests, cache, corpus_level=False)
    path = sentence_entry(tmp_path)
    forged = {"ratio": [0.9, 0.9, 0.9], "ratio-out": [1.0, 2.0, 1.0]}
    entry = json.loads(path.read_text())
    path.write_text(json.dumps({**entry, "value": forged, "checksum": checksum(forged)}))
    assert run(requests, cache, corpus_level=False).sentence_scores["ratio"] == EXPECTED
    assert warnings == [f"ignoring a bad score cache entry ({path}: its checksum does not match its scores); "
                        "recomputing it"]


@pytest.mark.parametrize("text, problem", [
    ("[" * 100_000 + "]" * 100_000, "not JSON"),
    ('{"key": "k", "checksum": "c", "value": ' + "9" * 4301 + "}", "not JSON"),
])
def test_hostile_json_in_the_cache_is_a_miss(requests, tmp_path, text, problem):
    warnings: list[str] = []
    cache = ScoreCache(tmp_path, warn=warnings.append)
    run(requests, cache, corpus_level=False)
    path = sentence_entry(tmp_path)
    path.write_text(text)
    assert run(requests, cache, corpus_level=False).sentence_scores["ratio"] == EXPECTED
    assert warnings == [f"ignoring a bad score cache entry ({path}: {problem}); recomputing it"]


def test_a_four_hundred_digit_score_in_the_cache_is_a_miss(requests, tmp_path):
    warnings: list[str] = []
    cache = ScoreCache(tmp_path, warn=warnings.append)
    run(requests, cache, corpus_level=False)
    path = sentence_entry(tmp_path)
    rewrite(path, {"ratio": [int("9" * 400), 0.5, 1.0], "ratio-out": [1.0, 2.0, 1.0]})
    assert run(requests, cache, corpus_level=False).sentence_scores["ratio"] == EXPECTED
    assert warnings == [f"ignoring a bad score cache entry ({path}: a ratio score that is not a finite number); "
                        "recomputing it"]


def test_entry_keys_keep_their_format_so_existing_caches_stay_valid():
    """The sha256 of the JSON ``[metric key, kind, sources, outputs, references(, fields)]``, pinned:
    a change here would silently turn every cache cold (the leaderboard's hour of scoring)."""
    sources, outputs, references = ["a é", 'b "q"'], ["c", "d"], [["r1", "r2"], ["r3", "r4"]]
    payload = ["sig", "sentence", sources, outputs, references]
    expected = hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode("utf-8")).hexdigest()
    assert cache_module.input_key("sig", "sentence", sources, outputs, references) == expected
    with_fields = hashlib.sha256(json.dumps(payload + [{"target": [1.5]}], ensure_ascii=False).encode()).hexdigest()
    assert cache_module.input_key("sig", "sentence", sources, outputs, references, {"target": [1.5]}) == with_fields
    inputs = cache_module.EntryInputs(sources, outputs, references)  # encoded once, keyed many times
    assert inputs.key("sig", "sentence") == expected
    assert inputs.key("sig", "sentence", {"target": [1.5]}) == with_fields
    assert inputs.key("sig", "statistics", {}) == cache_module.input_key("sig", "statistics", *payload[2:])


def test_metric_entries_store_only_values_of_the_right_shape(tmp_path):
    metric = load_registry().metric_class("fkgl")()
    entries = cache_module.MetricEntries(ScoreCache(tmp_path), metric, metric.signature())
    inputs = cache_module.EntryInputs(["a b ."], ["a ."], None)
    entries.put(cache_module.SENTENCE, inputs, {"fkgl": [1.0, 2.0]}, n_items=1)  # two scores for one item
    entries.put(cache_module.CORPUS, inputs, {"fkgl": math.inf})
    assert list(tmp_path.rglob("*.json")) == []
    entries.put(cache_module.SENTENCE, inputs, {"fkgl": [1.0]}, n_items=1)
    assert entries.get(cache_module.SENTENCE, inputs, n_items=1) == {"fkgl": [1.0]}
    assert entries.get(cache_module.SENTENCE, inputs, n_items=2) is None  # read back for two items: refused
    assert cache_module.MetricEntries(None, metric, metric.signature()).get(cache_module.SENTENCE, inputs) is None
