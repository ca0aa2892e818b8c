"""Let a tox environment reuse the packages of the virtual environment that runs this script.

tox calls it with the README's venv's python (``.venv/bin/python``) and the tox
environment's site-packages: it writes a ``.pth`` file there whose line adds this interpreter's
site-packages through ``site.addsitedir``, so their own ``.pth`` files (the editable installs of the
core and the plugins) are processed too. Nothing is installed or copied: the tox environment is a
bare virtualenv that sees what ``pip install -r requirements.txt`` installed.

    python .ci/reuse_venv.py TOX_ENV_SITE_PACKAGES
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

PTH_NAME = "_readme_venv.pth"


def main() -> None:
    target = Path(sys.argv[1])
    paths = sysconfig.get_paths()
    sites = dict.fromkeys((paths["purelib"], paths["platlib"]))
    if any(Path(site).resolve() == target.resolve() for site in sites):
        sys.exit(f"{sys.executable} is the tox environment's own python: run this with the README venv's")
    target.mkdir(parents=True, exist_ok=True)
    lines = [f"import site; site.addsitedir({site!r})" for site in sites]
    (target / PTH_NAME).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
