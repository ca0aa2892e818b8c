"""The evaluation engine: every evaluation (``simpeval evaluate``, ``report``, ``meta-evaluate``,
:func:`simpeval.evaluate`, :func:`simpeval.evaluate_files`) is a :class:`~simpeval.engine.plan.Plan`
run by :func:`simpeval.engine.execute.execute` in a :class:`~simpeval.run.Run`.

- :mod:`~simpeval.engine.plan`: what to score (metrics, one or several systems, paired test) and
  where the result goes.
- :mod:`~simpeval.engine.metrics`: ``-m`` specs to metric requests; signatures with ``nrefs``.
- :mod:`~simpeval.engine.sources`: items from lists in memory, streamed line files
  (:mod:`~simpeval.engine.linefiles`) or documents, in lock-step batches.
- :mod:`~simpeval.engine.batches`: batches and tasks, and scoring one batch (here or in a worker).
- :mod:`~simpeval.engine.scoring`: the batch loop: cache (:mod:`simpeval.cache` says what an entry is),
  executor, input order, bounded memory.
- :mod:`~simpeval.engine.results`: per-item and corpus scores with their signatures.
- :mod:`~simpeval.engine.parallel`: where batches are scored: here, ``--jobs N`` local processes or a
  ``--dask`` cluster, with the same numbers.
- :mod:`~simpeval.engine.compare`: several systems on the same inputs and their paired tests, on the
  statistics the batches collected.
- :mod:`~simpeval.engine.execute`: runs a plan.

Nothing is imported here, so ``import simpeval.engine.metrics`` (the command line's start-up) stays light.
"""
