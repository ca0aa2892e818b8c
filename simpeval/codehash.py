"""Fingerprints of the installed code behind a metric: what the score cache's key adds to its signature.

Why: a signature names a metric's settings and models, but not the code that computes it
(every signature said ``version:0.1.0`` through many formula changes), so an upgraded or
edited simpeval or plugin would be served the scores its old code cached. The cache key
therefore also holds the metric's ``formula_version`` and a hash of every file of every
package its class comes from (the class and its bases, and simpeval's core, which every
metric calls): sources and the data files shipped with them, whether the package is
installed, installed in editable mode, or on ``PYTHONPATH``.

Left out of simpeval's own hash: the layers that only read scores (commands, meta-evaluation,
pages, significance tests and rankings; :data:`READ_ONLY_LAYERS`). No metric imports them, and a
score's inputs are in its key already, so editing a page's rendering or a meta-evaluation
statistic must not throw away every cached score (``simpeval leaderboard`` re-renders from them).

Each package is hashed once per process, on the first lookup of one of its metrics (never
at start-up): the code a process runs is the code it imported, so a file edited while it
runs takes effect, and gets a new key, in the next process.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["code_fingerprint", "package_hash", "parts_hash"]

HASH_LENGTH = 16
#: Parts of a package that compute no score (see the module docstring), relative to its directory.
READ_ONLY_LAYERS: dict[str, frozenset[str]] = {
    "simpeval": frozenset({"cli", "leaderboard", "metaeval", "report", "reproduce", "allpairs.py", "ranks.py",
                           "significance.py"}),
}
_PACKAGES: dict[str, str] = {}


def code_fingerprint(metric_class: type) -> str:
    """``package@hash+...`` for simpeval and every package defining ``metric_class`` or one of its bases."""
    packages = {"simpeval"}
    packages.update(top for top in (cls.__module__.partition(".")[0] for cls in metric_class.__mro__)
                    if top not in sys.stdlib_module_names)  # builtins, abc (Metric is an ABC)
    return "+".join(f"{package}@{package_hash(package)}" for package in sorted(packages))


def package_hash(package: str) -> str:
    """A hash of the relative path and content of every file of the imported module or package ``package``."""
    cached = _PACKAGES.get(package)
    if cached is None:
        cached = _PACKAGES[package] = _hash_files(_package_files(package))
    return cached


def parts_hash(package: str, parts: tuple[str, ...]) -> str:
    """A hash of the files under ``parts`` (sub-packages or modules, relative to the package's
    directory) of ``package``: for results computed *from* scores by a read-only layer (a
    leaderboard cell's correlations and clusters), whose cache keys need that layer's code."""
    key = f"{package}:{','.join(sorted(parts))}"
    cached = _PACKAGES.get(key)
    if cached is None:
        root, _ = _package_files(package)
        files = sorted(f for part in parts for f in ([root / part] if (root / part).is_file() else
                                                    (root / part).rglob("*.py")) if "__pycache__" not in f.parts)
        cached = _PACKAGES[key] = _hash_files((root, files))
    return cached


def _package_files(package: str) -> tuple[Path, list[Path]]:
    """The package's directory and its files (compiled, hidden and ``__pycache__`` ones left out),
    or a lone module's file."""
    module = sys.modules.get(package)
    if module is None:
        import importlib

        module = importlib.import_module(package)
    locations = list(getattr(module, "__path__", None) or [])
    if not locations:
        file = Path(module.__file__)
        return file.parent, [file]
    root = Path(locations[0])
    skip = READ_ONLY_LAYERS.get(package, frozenset())
    files = []
    for directory, subdirectories, names in os.walk(root):
        top = Path(directory) == root
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d != "__pycache__"
                                   and not (top and d in skip))
        files.extend(Path(directory) / name for name in names
                     if not name.startswith(".") and not name.endswith((".pyc", ".pyo")) and not (top and name in skip))
    return root, sorted(files)


def _hash_files(found: tuple[Path, list[Path]]) -> str:
    root, files = found
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.relative_to(root).as_posix().encode("utf-8") + b"\0")
        with file.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()[:HASH_LENGTH]
