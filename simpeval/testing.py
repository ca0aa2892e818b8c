"""Test helpers shared by the core's and every plugin's test suite (conftest files and tests import them).

- :func:`shared_data_dir`: the data the fidelity tests check against lives outside the
  repository, in ``$SIMPEVAL_DATA_DIR``. On a developer's machine a missing directory skips
  those tests with a reason; under CI (``CI=true``, as GitHub Actions, GitLab and most
  runners set it) it fails the run, so a green CI can never mean "checked nothing".
- :func:`save_remote_code_model` writes the attack :mod:`simpeval.models` must refuse: a
  directory whose ``config.json`` has an ``auto_map`` naming a module in the directory,
  which writes a marker file when imported. A test runs a metric on it with ``y`` on stdin
  and checks that the marker never appears.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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
