"""Model directories for tests of model loading (the core's and the plugins').

:func:`save_remote_code_model` writes the attack :mod:`simpeval.models` must refuse: a
directory whose ``config.json`` has an ``auto_map`` naming a module in the
directory, which writes a marker file when imported. A test runs a metric on it
with ``y`` on stdin and checks that the marker never appears.
"""

from __future__ import annotations

import json
from pathlib import Path

REMOTE_MODULE = "remote_code_model"


def save_remote_code_model(directory: str | Path, marker: str | Path) -> Path:
    """Write a BERT-like config whose ``auto_map`` points at code that creates ``marker``; return the directory."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{REMOTE_MODULE}.py").write_text(
        "import pathlib\n"
        f"pathlib.Path({str(marker)!r}).write_text('remote code ran')\n"
        "from transformers import BertConfig, BertModel, BertForSequenceClassification\n"
        "class RemoteConfig(BertConfig):\n    model_type = 'bert'\n"
        "class RemoteModel(BertModel):\n    config_class = RemoteConfig\n"
        "class RemoteClassifier(BertForSequenceClassification):\n    config_class = RemoteConfig\n",
        encoding="utf-8",
    )
    config = {
        "model_type": "bert", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2,
        "intermediate_size": 37, "vocab_size": 100, "num_labels": 3,
        "auto_map": {
            "AutoConfig": f"{REMOTE_MODULE}.RemoteConfig",
            "AutoModel": f"{REMOTE_MODULE}.RemoteModel",
            "AutoModelForSequenceClassification": f"{REMOTE_MODULE}.RemoteClassifier",
        },
    }
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return directory
