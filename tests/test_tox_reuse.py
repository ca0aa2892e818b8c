"""tox's default environments reuse the README's venv through one .pth line (.ci/reuse_venv.py)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "reuse_venv.py"


def test_a_bare_environment_sees_the_readme_venvs_packages_after_the_pth(tmp_path):
    venv.create(tmp_path / "env", with_pip=False)
    python = tmp_path / "env" / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    probe = [python, "-c", "import click, numpy; print(numpy.__file__)"]
    assert subprocess.run(probe, capture_output=True, text=True, cwd=tmp_path).returncode != 0
    subprocess.run([sys.executable, SCRIPT, site], check=True)
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    assert (Path(site) / "_readme_venv.pth").read_text() == "".join(
        f"import site; site.addsitedir({path!r})\n" for path in ours)
    seen = subprocess.run(probe, capture_output=True, text=True, cwd=tmp_path, check=True).stdout.strip()
    import numpy  # the same numpy this interpreter sees (under tox, itself through the README venv's .pth)

    assert Path(seen) == Path(numpy.__file__)


def test_it_refuses_to_point_an_environment_at_itself():
    done = subprocess.run([sys.executable, SCRIPT, sysconfig.get_paths()["purelib"]], capture_output=True, text=True)
    assert done.returncode == 1 and "is the tox environment's own python" in done.stderr
