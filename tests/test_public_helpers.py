"""The helpers plugins use are public: listed in ``__all__``, documented, and right on hand-checked examples."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from simpeval.syllables import count_syllables
from simpeval.text import split_sentences, tokenize

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "plugin-authors.md"


def _plugin_imports() -> list[tuple[Path, str, str]]:
    """(file, simpeval module, name) for every ``from simpeval.X import name`` in a plugin package."""
    found = []
    for path in sorted(ROOT.glob("plugins/*/simpeval_*/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simpeval."):
                found += [(path, node.module, alias.name) for alias in node.names]
    return found


def test_plugins_import_only_public_names():
    imports = _plugin_imports()
    assert {module for _, module, _ in imports} >= {"simpeval.text", "simpeval.syllables"}
    for path, module, name in imports:
        public = getattr(importlib.import_module(module), "__all__", None)
        assert public is not None and name in public, f"{path}: {module}.{name} is not in its __all__"


@pytest.mark.parametrize("module", ["simpeval.text", "simpeval.syllables", "simpeval.datasets", "simpeval.encoding",
                                    "simpeval.metrics.composite"])
def test_every_public_helper_is_named_in_the_plugin_guide(module):
    guide = GUIDE.read_text(encoding="utf-8")
    assert f"`{module}`" in guide
    for name in importlib.import_module(module).__all__:
        if not name.startswith("_") and name not in ("AVERAGE", "EASSE_EXCEPTIONS"):
            assert name in guide, f"{module}.{name} is public but the plugin guide does not mention it"


def test_split_sentences_on_a_hand_split_text():
    # Punkt knows "Mr." and "Dr." are not sentence ends; "U.S." inside a sentence neither
    text = "Mr. Smith met Dr. Jones in the U.S. capital. They talked. Then they left!"
    assert split_sentences(text) == ("Mr. Smith met Dr. Jones in the U.S. capital.", "They talked.",
                                     "Then they left!")


@pytest.mark.parametrize("word, syllables", [
    ("cat", 1),  # one vowel group
    ("the", 1),  # EASSE's own exception
    ("mr", 2),  # Lingua's exception list
    ("table", 2),  # "tabl": one group, plus the "[aeiouy]bl$" add pattern
    ("water", 2),  # two groups
    ("beautiful", 4),  # "eau", "i", "u", plus "[aeiou]{3}": the rules' answer, not a dictionary's
    ("simple", 1),  # "simpl": one group, no pattern (EASSE strips every final "e" first)
])
def test_count_syllables_on_hand_applied_rules(word, syllables):
    assert count_syllables(word) == syllables


def test_tokenize_13a_on_a_hand_tokenized_sentence():
    assert tokenize("Hello, world (again).", "13a") == ("Hello", ",", "world", "(", "again", ")", ".")
