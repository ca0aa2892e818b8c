"""The Run: one object that owns a run's statistics store, kept resources and memory budget."""

from __future__ import annotations

import pytest

from simpeval.errors import UsageError
from simpeval.metrics.bleu import Bleu
from simpeval.metrics.combined import IBleu
from simpeval.run import DEFAULT_MEMORY_BUDGET_MB, MEMORY_BUDGET_ENV, Memory, Run, memory_budget_bytes
from simpeval.store import StatsStore

MB = 1 << 20


def test_budget_comes_from_the_argument_then_the_environment_then_the_default(monkeypatch):
    monkeypatch.delenv(MEMORY_BUDGET_ENV, raising=False)
    assert memory_budget_bytes() == DEFAULT_MEMORY_BUDGET_MB * MB
    monkeypatch.setenv(MEMORY_BUDGET_ENV, "32")
    assert Run().memory_budget == 32 * MB
    assert Run(memory_budget_mb=0.5).memory_budget == MB // 2
    for bad in ("lots", "-1", "nan", "inf"):
        monkeypatch.setenv(MEMORY_BUDGET_ENV, bad)
        with pytest.raises(UsageError, match=MEMORY_BUDGET_ENV):
            Run()


def test_the_budget_is_shared_by_the_store_and_the_kept_resources():
    run = Run(memory_budget_mb=32)
    assert run.memory.budget == 24 * MB  # three quarters in bytes ...
    assert run.store.max_entries == 8 * MB // 2048  # ... one quarter in store entries of 2 KB
    assert Run(memory_budget_mb=0).store.max_entries == 1
    assert Run().store.max_entries == 1 << 16  # the default budget keeps the store's usual bound


def test_sized_resources_stay_within_the_budget_least_recently_used_first():
    run = Run(memory_budget_mb=1)  # 768 KB for resources
    builds = []

    def block(name):
        def build():
            builds.append(name)
            return bytearray(300 * 1024)
        return build

    a = run.resource("a", block("a"), nbytes=len)
    run.resource("b", block("b"), nbytes=len)
    assert run.resource("a", block("a"), nbytes=len) is a  # kept: a is now the most recent
    run.resource("c", block("c"), nbytes=len)  # 900 KB > 768 KB: b, the least recent, goes
    assert run.memory.bytes == 600 * 1024 <= run.memory.budget
    run.resource("b", block("b"), nbytes=len)
    assert builds == ["a", "b", "c", "b"]
    assert run.memory.peak_bytes <= run.memory.budget
    run.resource("huge", lambda: bytearray(MB), nbytes=len)  # larger than the budget: never kept
    assert ("resource", "huge") not in run.memory


def test_unsized_resources_are_held_until_close_and_then_rebuilt():
    builds = []
    with Run(memory_budget_mb=0) as run:
        model = run.resource(("model", "x@abc"), lambda: builds.append(1) or object())
        assert run.resource(("model", "x@abc"), lambda: builds.append(1) or object()) is model
    assert builds == [1]
    assert run.resource(("model", "x@abc"), lambda: builds.append(2) or object()) is not model
    assert builds == [1, 2]


def test_memory_counts_and_clears_by_namespace():
    memory = Memory(100)
    memory.put(("enc1", "a"), 1, 30)
    memory.put(("enc1", "b"), 2, 30)
    memory.put(("enc2", "a"), 3, 30)
    memory.put(("enc1", "a"), 4, 30)  # replaced, not counted twice
    assert (memory.count("enc1"), memory.count("enc2"), memory.bytes) == (2, 1, 90)
    memory.clear("enc1")
    assert (memory.count("enc1"), len(memory), memory.bytes, memory.get(("enc2", "a"))) == (0, 1, 30, 3)


def test_binding_reaches_component_metrics_and_store_follows_the_run():
    run = Run()
    ibleu = IBleu()
    run.bind([ibleu])
    components = [value for value in vars(ibleu).values() if isinstance(value, Bleu)]
    assert components and all(c.run is run and c.store is run.store for c in components)
    assert ibleu.run is run and ibleu.store is run.store


def test_an_unbound_metric_gets_a_private_run_and_pickles_without_it():
    import pickle

    bleu = Bleu()
    run = bleu.run
    assert isinstance(run, Run) and bleu.run is run and bleu.store is run.store
    assert "_run" not in pickle.loads(pickle.dumps(bleu)).__dict__
    with pytest.raises(TypeError, match="stays in its process"):
        pickle.dumps(run)


def test_reference_files_replaced_while_a_process_lives_are_read_again(tmp_path):
    from simpeval.datasets.references import test_set_references

    folder = tmp_path / "references" / "asset"
    folder.mkdir(parents=True)

    def write(word):
        for k in range(10):
            (folder / f"asset.test.simp.{k}").write_text("\n".join(f"{word} {k} {i}" for i in range(359)) + "\n")

    write("old")
    assert test_set_references(tmp_path, "asset")[0][:2] == ["old 0 0", "old 1 0"]
    write("newer")  # replaced in place: another size, so another stamp even within one mtime tick
    assert test_set_references(tmp_path, "asset")[0][:2] == ["newer 0 0", "newer 1 0"]
