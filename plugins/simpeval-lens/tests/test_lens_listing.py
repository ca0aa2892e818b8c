"""``simpeval metrics list`` finds the shipped checkpoints: no false "weights missing"."""

from __future__ import annotations

from simpeval.registry import load_registry
from simpeval_lens import plugin


def _trained_here():
    """The metrics with shipped checkpoints (lens and lens-salsa need the authors' weights)."""
    return [cls for cls in plugin.simpeval_register_metrics() if cls.options["checkpoint"].default == "shipped"]


def test_shipped_checkpoints_are_located_where_the_plugin_keeps_them():
    registry = load_registry(autoload=False, plugins=[plugin])
    names = [cls.name for cls in _trained_here()]
    assert names and all(name in registry.metrics for name in names)
    for name in names:
        cls = registry.metrics[name]
        assert cls.locate_model("checkpoint", "shipped").is_dir()
        assert cls.missing_weights() == [], name
    assert registry.info(plugin.__name__).notes == []


def test_a_missing_checkpoint_directory_is_still_reported(monkeypatch, tmp_path):
    monkeypatch.setattr(plugin, "CHECKPOINTS", tmp_path)
    assert all(cls.missing_weights() == ["shipped"] for cls in _trained_here())
