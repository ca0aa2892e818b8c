"""The HTML report in real headless Chromium: it renders (not blank, plots drawn) and logs no error.

Chromium runs with every network request sent to an unroutable proxy, so a page that needs
anything from outside logs a failed load, which fails the test. ``.ci/run`` installs Debian's
``chromium`` package when it is missing.
"""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from simpeval.cli import cli
from simpeval.report.browser import capture, find_chromium

SYSTEMS = "system_outputs/turkcorpus/test"
PLOT_BLUE = (0x4C, 0x72, 0xB0)  # the first system's box colour (75% opaque on white)


def test_chromium_catches_console_errors_and_network_use(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><p>x</p><script>console.error("boom")</script><img src="https://example.org/a.png">')
    errors = capture(page, 400, 300).errors
    assert "boom" in errors
    assert any("Failed to load resource" in e and "example.org" in e for e in errors)


def test_report_renders_in_chromium_without_errors(data_dir, tmp_path):
    assert find_chromium(), "Chromium is missing: apt-get install -y chromium (.ci/run does this)"
    out = tmp_path / "report.html"
    done = CliRunner().invoke(cli, ["report", "-t", "asset_test", "--data-dir", str(data_dir), "-m", "sari",
                                    "--sys", str(data_dir / SYSTEMS / "ACCESS"),
                                    "--sys", str(data_dir / SYSTEMS / "DMASS-DCSS"), "-o", str(out)])
    assert done.exit_code == 0, done.output
    shot = capture(out, 1200, 1600)
    assert shot.errors == []
    image = Image.open(io.BytesIO(shot.png)).convert("RGB")
    assert image.size == (1200, 1600)
    colours = image.getcolors(maxcolors=1 << 20)
    assert len(colours) > 200  # text, tables and plots, not a blank page
    white = sum(count for count, rgb in colours if min(rgb) > 245)
    assert white < 0.9 * 1200 * 1600
    blended = tuple(round(0.75 * c + 0.25 * 255) for c in PLOT_BLUE)
    assert any(max(abs(a - b) for a, b in zip(rgb, blended)) <= 6 for _, rgb in colours), "no plot drawn"
