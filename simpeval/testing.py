"""Test helpers shared by the core's and every plugin's test suite (conftest files and tests import them).

- :func:`shared_data_dir`: the data the fidelity tests check against lives outside the
  repository, in ``$SIMPEVAL_DATA_DIR``. On a developer's machine a missing directory skips
  those tests with a reason; under CI (``CI=true``, as GitHub Actions, GitLab and most
  runners set it) it fails the run, so a green CI can never mean "checked nothing".
- :func:`save_remote_code_model` writes the attack :mod:`simpeval.models` must refuse: a
  directory whose ``config.json`` has an ``auto_map`` naming a module in the directory,
  which writes a marker file when imported. A test runs a metric on it with ``y`` on stdin
  and checks that the marker never appears.
- :func:`require_module`: ``pytest.importorskip`` that fails under CI instead of skipping.
- :func:`simd_variants` and :func:`run_pytest_under_simd_variants`: re-run tests (the reproduced-page
  regenerations) with numpy's SIMD dispatch switched off by ``NPY_DISABLE_CPU_FEATURES``, so a published
  number that depends on the CPU (AVX2, AVX-512) fails on any machine, not only on the one that differs.
  :func:`check_independent_of_simd_dispatch` is the whole check a page test makes with them.
  :func:`model_score_cache` is where a page test keeps its models' scores, and the rerun finds them.
- :func:`no_network`: a block in which opening a connection or resolving a host name fails and is
  recorded, and that fails when anything tried: "fails at once, no download" checked by what the
  code does rather than by the wall clock (which a loaded machine stretches).
- :func:`load_script`: import a script of ``benchmarks/`` (not a package) by its path, as the page tests do.
- :data:`GOLDEN_SOURCES`, :data:`GOLDEN_OUTPUTS`, :data:`GOLDEN_REFERENCES`, :func:`golden_scores` and
  :func:`assert_golden_scores`: the golden-value tests (a few scores of every metric pinned with its
  ``formula_version``, so that numbers never change without a version bump, which renews the score cache's keys).
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from simpeval.datadir import DATA_DIR_ENV

REMOTE_MODULE = "remote_code_model"
REMOTE_MODEL_TYPE = "simpeval-remote-bert"
"""An architecture transformers does not include, so only the directory's own code can load it
(for a known ``model_type`` transformers would ignore ``auto_map`` and never ask)."""


def in_ci() -> bool:
    """True when ``$CI`` is set to a true value (``true``, ``1``, ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def shared_data_dir(required: str = "metaeval") -> Path:
    """``$SIMPEVAL_DATA_DIR`` when ``required`` (a path inside it) exists there.

    Otherwise skip the calling test, or fail it under CI.
    """
    import pytest

    value = os.environ.get(DATA_DIR_ENV)
    if value and Path(value, required).exists():
        return Path(value)
    reason = f"{DATA_DIR_ENV} is not set to a directory holding {required} (laid out like ../shared/data)"
    if in_ci():
        pytest.fail(f"CI=true but {reason}: CI must not pass without its data", pytrace=False)
    pytest.skip(reason)


def save_remote_code_model(directory: str | Path, marker: str | Path) -> Path:
    """Write a BERT-like config whose ``auto_map`` points at code that creates ``marker``; return the directory.

    Loaded by transformers with ``trust_remote_code`` unset, this asks ``[y/N]`` on stdin and, given ``y``,
    imports the module.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{REMOTE_MODULE}.py").write_text(
        "import pathlib\n"
        f"pathlib.Path({str(marker)!r}).write_text('remote code ran')\n"
        "from transformers import BertConfig, BertModel, BertForSequenceClassification\n"
        f"class RemoteConfig(BertConfig):\n    model_type = {REMOTE_MODEL_TYPE!r}\n"
        "class RemoteModel(BertModel):\n    config_class = RemoteConfig\n"
        "class RemoteClassifier(BertForSequenceClassification):\n    config_class = RemoteConfig\n",
        encoding="utf-8",
    )
    config = {
        "model_type": REMOTE_MODEL_TYPE, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2,
        "intermediate_size": 37, "vocab_size": 100, "num_labels": 3,
        "auto_map": {
            "AutoConfig": f"{REMOTE_MODULE}.RemoteConfig",
            "AutoModel": f"{REMOTE_MODULE}.RemoteModel",
            "AutoModelForSequenceClassification": f"{REMOTE_MODULE}.RemoteClassifier",
        },
    }
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return directory


def save_tiny_bert(directory: str | Path, words: Iterable[str], seed: int = 0) -> Path:
    """Write a 2-layer BERT (hidden size 32) with a word-level vocabulary of ``words``; return the directory.

    Plugins' tests train and score on it in seconds, offline (no real weights are installable for
    most encoders here).
    """
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *dict.fromkeys(words)]
    (directory / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizer(vocab_file=str(directory / "vocab.txt")).save_pretrained(str(directory))
    torch.manual_seed(seed)
    config = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                        vocab_size=len(vocab), max_position_embeddings=128)
    BertModel(config).save_pretrained(str(directory))
    return directory


def require_module(name: str):
    """Import and return module ``name``; without it skip the calling test, or fail it under CI
    (``pytest.importorskip`` alone would let CI pass while checking nothing)."""
    import importlib

    import pytest

    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if in_ci():
            pytest.fail(f"CI=true but {name} cannot be imported ({exc}): install the README's requirements",
                        pytrace=False)
        pytest.skip(f"{name} is not installed", allow_module_level=True)


def simd_variants() -> dict[str, list[str]]:
    """``{"baseline": features to disable}``: every SIMD target numpy dispatches to at run time on this CPU
    (AVX2 and AVX-512 alike), so that only the build's baseline is left; empty when numpy dispatches to
    nothing beyond its baseline here. Every machine then compares its own dispatch (AVX-512, AVX2, ...)
    with none, which is where tie orders and reductions differ. Names are numpy's own (``AVX2``,
    ``AVX512_SKX`` before numpy 2.4; ``X86_V3``, ``X86_V4``, ``AVX512_ICL`` from 2.4 on)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    active = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    return {"baseline": active} if active else {}


def run_pytest_under_simd_variants(args: Sequence[str], cwd: str | Path) -> dict[str, list[str]]:
    """Run ``python -m pytest ARGS`` once per :func:`simd_variants` entry with ``NPY_DISABLE_CPU_FEATURES``
    set, fail the calling test with pytest's output when a run fails or numpy did not drop the features,
    and return the variants run. Each run first checks, in its own process, that the features are off."""
    import pytest

    check = ("from simpeval.testing import simd_variants; import os, sys; "
             "off = os.environ['NPY_DISABLE_CPU_FEATURES'].split(); "
             "left = [f for f in off if f in simd_variants().get('baseline', [])]; "
             "sys.exit(f'numpy still dispatches to {left}' if left else 0)")
    variants = simd_variants()
    for name, features in variants.items():
        env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": " ".join(features), MODEL_SCORES_ENV: _model_scores_dir()}
        probe = subprocess.run([sys.executable, "-c", check], env=env, cwd=cwd, capture_output=True, text=True)
        if probe.returncode:
            pytest.fail(f"{name}: NPY_DISABLE_CPU_FEATURES had no effect: {probe.stderr.strip()}", pytrace=False)
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                             env=env, cwd=cwd, capture_output=True, text=True)
        if run.returncode:
            pytest.fail(f"with numpy's {' '.join(features)} dispatch disabled ({name}):\n{run.stdout[-4000:]}",
                        pytrace=False)
    return variants


MODEL_SCORES_ENV = "SIMPEVAL_TEST_MODEL_SCORES"
_model_scores: list[str] = []


def _model_scores_dir() -> str:
    """``$SIMPEVAL_TEST_MODEL_SCORES`` (a rerun's, set by :func:`run_pytest_under_simd_variants`), else this
    process's own temporary directory, removed at exit."""
    if os.environ.get(MODEL_SCORES_ENV):
        return os.environ[MODEL_SCORES_ENV]
    if not _model_scores:
        _model_scores.append(tempfile.mkdtemp(prefix="simpeval-model-scores-"))
        atexit.register(shutil.rmtree, _model_scores[0], ignore_errors=True)
    return _model_scores[0]


def model_score_cache():
    """The score cache a page test gives the torch models it runs (LENS, SIERA, SLE), shared with its
    reruns under :func:`run_pytest_under_simd_variants`: the rerun takes their scores from it and computes
    again everything numpy computes (correlations, tie handling, the classic metrics).

    Why that checks as much as running the models again: ``NPY_DISABLE_CPU_FEATURES`` changes numpy's
    dispatch only; a model's forward pass is torch's (its own CPU dispatch, untouched by the variable) and
    the scoring around it is torch and Python arithmetic, so the models' scores are the same bits in
    both runs. Give it only metrics whose scores numpy does not compute."""
    from simpeval.cache import ScoreCache

    return ScoreCache(_model_scores_dir())


def check_independent_of_simd_dispatch(test: str, cwd: str | Path, required: str) -> None:
    """Re-run pytest node ``test`` (``FILE::NAME``) under every :func:`simd_variants` entry and fail when a run
    fails. Skip (or fail under CI) without ``required`` in the data directory, as :func:`shared_data_dir`;
    skip when numpy dispatches to nothing beyond its baseline on this CPU (nothing to vary)."""
    import pytest

    shared_data_dir(required)
    if not simd_variants():
        pytest.skip("numpy dispatches to no SIMD target beyond its baseline on this CPU: nothing to vary")
    assert "baseline" in run_pytest_under_simd_variants([test], cwd=cwd)


@contextmanager
def no_network() -> Iterator[list[tuple]]:
    """Run the block with every connection attempt and host-name lookup refused (an ``OSError``, as an
    unreachable network gives) and recorded; fail when the block tried any, even one the code caught
    and recovered from (a retry loop, a fallback to a local copy). Yields the list of attempts."""
    attempts: list[tuple] = []

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise OSError("simpeval.testing.no_network: network access refused")

    saved = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo, socket.create_connection
    socket.socket.connect = socket.socket.connect_ex = refuse
    socket.getaddrinfo = socket.create_connection = refuse
    try:
        yield attempts
    finally:
        socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo, socket.create_connection = saved
    if attempts:
        raise AssertionError(f"the network was touched {len(attempts)} time(s), first: {attempts[0]}")


def load_script(path: str | Path) -> ModuleType:
    """Import the Python file at ``path`` as a module named after it (registered in ``sys.modules``, so that
    its dataclasses and pickling work) and return it."""
    path = Path(path)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GOLDEN_SOURCES = [
    "About 95 species are currently accepted in the genus.",
    "The committee, which met on Tuesday, postponed its decision until further notice. It will meet again in May.",
    "He didn't go to the market because it was raining heavily.",
]
GOLDEN_OUTPUTS = [
    "About 95 species are accepted.",
    "The committee met on Tuesday. It put off its decision. It will meet again in May.",
    "He did not go to the market . . . It was raining.",  # a 13a-tokenised ellipsis ends a sentence (Punkt)
]
"""The outputs the core's golden values are pinned on (``tests/test_golden_values.py``)."""
GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS = [*GOLDEN_OUTPUTS[:2], "He did not go to the market. It was raining."]
""":data:`GOLDEN_OUTPUTS` before the 13a ellipsis was added: the plugins' golden values are pinned on these."""
GOLDEN_REFERENCES = [
    ["About 95 species are now accepted.", "95 species are accepted in the genus."],
    ["The committee met on Tuesday and delayed its decision. It meets again in May.",
     "On Tuesday the committee put off deciding."],
    ["He did not go to the market because of the heavy rain.", "It rained a lot, so he stayed home."],
]

GoldenScores = Mapping[str, tuple[Sequence[float], float]]
"""``{sub-score: ([sentence scores], corpus score)}``."""


def golden_scores(metric, outputs: Sequence[str] = GOLDEN_OUTPUTS,
                  references: Sequence[Sequence[str]] | None = None) -> dict[str, tuple[list[float], float]]:
    """``{sub-score: (sentence scores, corpus score)}`` of ``metric`` on :data:`GOLDEN_SOURCES` and ``outputs``."""
    extra = () if references is None else (references,)
    sentences = metric.sentence_scores(GOLDEN_SOURCES, outputs, *extra)
    corpus = metric.corpus_score(GOLDEN_SOURCES, outputs, *extra)
    return {key: (values, corpus[key]) for key, values in sentences.items()}


def assert_golden_scores(metric, scores: GoldenScores, pinned_version: str, pinned: GoldenScores, *,
                         setting: str | None = None, tolerance: float = 1e-9,
                         update: str = "write the new values into GOLDEN") -> None:
    """Fail when ``metric``'s ``formula_version`` is not ``pinned_version``, or when ``scores`` (of
    :func:`golden_scores`) differ from ``pinned`` (beyond ``tolerance``, relative and absolute) while it is.
    ``setting`` names the metric in the messages (default its name); ``update`` says how to write new values."""
    setting = setting or metric.name
    version = type(metric).formula_version
    assert version == pinned_version, (
        f"{setting}: formula_version is {version!r}, the golden values are of {pinned_version!r}: {update}")
    changed = [
        f"{key}: {values} / {corpus} (pinned {pinned[key][0]} / {pinned[key][1]})"
        for key, (values, corpus) in scores.items()
        if key not in pinned or len(values) != len(pinned[key][0])
        or not all(math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance)
                   for a, b in zip([*values, corpus], [*pinned[key][0], pinned[key][1]]))
    ]
    changed += [f"{key}: not scored (pinned {pinned[key][0]} / {pinned[key][1]})"
                for key in pinned if key not in scores]
    assert not changed, (
        f"{setting}: scores changed but formula_version is still {version!r}: bump "
        f"{type(metric).__name__}.formula_version and {update}: " + "; ".join(changed))
