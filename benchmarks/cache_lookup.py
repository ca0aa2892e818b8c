"""How long the engine takes to look one batch up in a warm score cache.

One batch of ASSET test items (originals, output ``simp.0``, nine references ``simp.1-9``), with
BLEU, SARI and FKGL: every metric's sentence scores and corpus statistics are stored first,
then the engine's lookup (:func:`simpeval.engine.scoring.cached_part`) is timed over several
rounds. The texts of a batch are encoded for its keys once (:class:`simpeval.cache.EntryInputs`),
whatever the number of metrics and kinds of entry.

    python benchmarks/cache_lookup.py [--batch-size 512] [--rounds 20]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from simpeval.cache import SENTENCE, STATISTICS, EntryInputs, MetricEntries, ScoreCache
from simpeval.engine.batches import Batch
from simpeval.engine.metrics import signature_with_nrefs
from simpeval.engine.scoring import cached_part
from simpeval.registry import load_registry
from simpeval.testing import shared_data_dir

METRICS = ("bleu", "sari", "fkgl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    asset = shared_data_dir("references/asset") / "references" / "asset"
    read = lambda name: (asset / name).read_text(encoding="utf-8").splitlines()  # noqa: E731
    n = args.batch_size
    sources, outputs = read("asset.test.orig")[:n], read("asset.test.simp.0")[:n]
    references = [list(r) for r in zip(*(read(f"asset.test.simp.{k}")[:n] for k in range(1, 10)))]
    n = len(sources)
    batch = Batch(0, 0, sources, outputs, references)
    registry = load_registry()
    metrics = [registry.metric_class(name)() for name in METRICS]
    cache = ScoreCache(Path(tempfile.mkdtemp()), warn=print)
    entries = [MetricEntries(cache, m, signature_with_nrefs(m, 9)) for m in metrics]
    inputs = EntryInputs(sources, outputs, references)
    for entry in entries:
        entry.put(SENTENCE, inputs, {sub: [0.5] * n for sub in entry.metric.score_names()}, n_items=n)
        entry.put(STATISTICS, inputs, [1.0, 2.0])
    everything = [True] * len(metrics)
    start = time.perf_counter()
    for _ in range(args.rounds):
        _, _, tasks = cached_part(entries, everything, everything, batch, EntryInputs(*batch.inputs))
        assert not any(tasks), "a stored entry was not found"
    took = (time.perf_counter() - start) / args.rounds
    print(f"{n} items, 9 references, {', '.join(METRICS)}: {took * 1000:.1f} ms per batch lookup "
          f"(sentence scores and statistics of each metric), {args.rounds} rounds; "
          f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
