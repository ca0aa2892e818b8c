"""The leaderboard names each metric's signature and the preset, in every format (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

from simpeval.leaderboard import render
from simpeval.leaderboard.run import Board, Plan, signatures
from simpeval.registry import load_registry


def test_signatures_and_preset_in_markdown_html_and_json():
    names = signatures(load_registry(autoload=False), ["fkgl", "bleu"])
    assert names["fkgl"].startswith("fkgl|") and names["bleu"].startswith("bleu|")
    board = Board([], [], signatures=names)
    plan = Plan(Path("."), ["fkgl", "bleu"])
    markdown = render.render_markdown(board, plan)
    assert f"- `fkgl: {names['fkgl']}`" in markdown and "preset=none (today's EASSE defaults" in markdown
    assert names["bleu"] in render.render_html(board, plan)
    assert json.loads(render.render_json(board, plan))["signatures"] == names
