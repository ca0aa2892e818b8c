"""The rubric templates: every aspect, unit, shot count and chat mode renders, and their hashes are pinned."""

from __future__ import annotations

import hashlib
from itertools import product

import pytest

from simpeval_judge import prompts

COMBINATIONS = list(product(prompts.ASPECTS, prompts.UNITS, prompts.SHOTS, (True, False)))


@pytest.mark.parametrize("aspect,unit,shots,chat", COMBINATIONS)
def test_every_template_renders_the_texts_once(aspect, unit, shots, chat):
    text = prompts.template(aspect, unit, shots, chat)
    rendered = prompts.render(text, "SOURCE {x} TEXT", "OUTPUT {y} TEXT")
    assert rendered.count("OUTPUT {y} TEXT") == 1  # braces in a text are kept as they are
    assert rendered.count("SOURCE {x} TEXT") == (0 if aspect == "fluency" else 1)  # fluency reads the output alone
    assert ("Example:" in rendered) == (shots == 1)
    assert rendered.endswith("Rating: ") != chat
    assert "1 to 5" in rendered and ("document" if unit == "document" else "sentence") in text.lower() + unit
    noun = "text" if unit == "document" else "sentence"
    assert noun in rendered


def test_hashes_are_the_sha256_of_the_text_and_all_differ():
    hashes = {combination: prompts.template_hash(*combination) for combination in COMBINATIONS}
    assert len(set(hashes.values())) == len(COMBINATIONS)
    text = prompts.template("meaning", "document", 1, False)
    assert hashes[("meaning", "document", 1, False)] == hashlib.sha256(text.encode()).hexdigest()[:8]


def test_the_default_template_is_pinned():
    """Any edit to the prompt text changes this hash, hence every judge signature and cache key: update it
    knowingly (the scores of the recorded benchmark change with it)."""
    assert prompts.template_hash("simplicity", "sentence", 0, True) == "bcf3683f"
    assert prompts.template("simplicity").startswith(
        "You will be given an original sentence and a simplified version of it, written by a system.\n\n"
        "Your task is to rate the simplified sentence on one criterion: simplicity.")


def test_unknown_settings_have_no_template():
    with pytest.raises(ValueError):
        prompts.template("grammar")
    with pytest.raises(ValueError):
        prompts.template("simplicity", shots=3)
