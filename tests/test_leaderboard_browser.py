"""The leaderboard's HTML page in real headless Chromium, as tests/test_report_browser.py checks the report:
it renders (text, tables and the plot), logs no error and fetches nothing; training-data cells are hatched."""

from __future__ import annotations

import io

from click.testing import CliRunner
from PIL import Image

from simpeval.cli import cli
from simpeval.metrics.fkgl import Fkgl
from simpeval.report.browser import capture, find_chromium

HATCH = (230, 232, 238)  # the darker stripe of a training-data cell (CSS td.trained)


def test_leaderboard_renders_in_chromium_without_errors(data_dir, tmp_path, monkeypatch):
    assert find_chromium(), "Chromium is missing: apt-get install -y chromium (.ci/run does this)"
    monkeypatch.setattr(Fkgl, "trained_on", ("simplicity-da",), raising=False)  # marked on both: wiki-da by overlap
    out = tmp_path / "leaderboard.html"
    done = CliRunner().invoke(cli, ["leaderboard", "--data-dir", str(data_dir), "-m", "bleu,sari,fkgl",
                                    "--dataset", "simplicity-da", "--dataset", "wiki-da", "--bootstrap", "100",
                                    "--format", "html", "-o", str(out)])
    assert done.exit_code == 0, done.output
    page = out.read_text(encoding="utf-8")
    assert page.count('<td class="trained"') == 6  # fkgl on 2 datasets x 3 aspects
    assert "wiki-da: 434/434 items also in simplicity-da" in page
    shot = capture(out, 1200, 1600)
    assert shot.errors == []
    image = Image.open(io.BytesIO(shot.png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20)
    assert len(colours) > 200  # text, tables and the heatmap, not a blank page
    # the heatmap's viridis colours: a green-blue cell somewhere on the page
    assert any(g > 100 and b > 100 and r < 80 for _, (r, g, b) in colours), "no plot drawn"
    assert any(colour == HATCH for _, colour in colours), "no hatched training-data cell drawn"
