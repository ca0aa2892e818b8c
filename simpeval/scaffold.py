"""``simpeval plugin new NAME``: write a ready-to-install metric plugin distribution.

The skeleton is the plugin guide's example (docs/plugin-authors.md) as files: a ``pyproject.toml``
with the ``simpeval`` entry point, a package whose ``plugin.py`` registers one metric, and a test
that scores two sentences through simpeval's registry and runner, so ``pip install -e DIR`` and
``pytest DIR`` work before a line is changed.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from simpeval.errors import UsageError

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{dist}"
version = "0.1.0"
description = "The {metric} metric for simpeval"
requires-python = ">=3.11"
dependencies = ["simpeval"]

[project.optional-dependencies]
test = ["pytest"]

# simpeval finds the plugin through this entry point: group "simpeval", any name, the module
# holding the hook implementations.
[project.entry-points.simpeval]
{metric} = "{package}.plugin"

[tool.setuptools]
packages = ["{package}"]
'''

PLUGIN = '''\
"""The {metric} metric: output words per source word (replace with your metric)."""

from importlib.metadata import PackageNotFoundError, version

import simpeval


def _version() -> str:
    """This distribution's version: it goes into every signature and keys simpeval's score cache."""
    try:
        return version("{dist}")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


class {cls}(simpeval.Metric):
    """Output words per source word."""

    name = "{metric}"  # the -m name and the key of the primary score
    requires_references = False
    higher_is_better = False
    version = _version()
    formula_version = "1"  # bump whenever a score can change: it renews the score cache's keys
    options = {{"min_words": simpeval.Option(int, default=1, help="floor of the denominator")}}

    def _score_items(self, sources, outputs, references=None):
        # inputs arrive checked: callers use the template Metric.sentence_scores, never this step
        return {{"{metric}": [len(o.split()) / max(self.min_words, len(s.split()))
                             for s, o in zip(sources, outputs)]}}


@simpeval.hookimpl
def simpeval_register_metrics():
    return [{cls}]
'''

TEST = '''\
"""{cls} through simpeval's registry and runner, on hand-counted sentences."""

import pytest

from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics

from {package} import plugin


def test_{func}_scores_hand_counted_sentences():
    registry = load_registry(autoload=False, plugins=[plugin])
    result = evaluate(resolve_metrics(registry, ["{metric}:min_words=2"]),
                      ["one two three four", "five"], ["one two", "five six"])
    assert result.sentence_scores["{metric}"] == [0.5, 1.0]  # 2/4 words; 2/max(2, 1)
    assert result.corpus_scores["{metric}"] == pytest.approx(0.75)
    assert result.signatures["{metric}"].startswith("{metric}|formula:1|lang:en|min_words:2|version:")
'''

README = '''\
# {dist}

The `{metric}` metric for [simpeval](https://pypi.org/project/simpeval/).

```bash
pip install -e '.[test]'
simpeval metrics list                     # shows {metric}, provided by {dist} 0.1.0
simpeval evaluate --orig orig.txt --sys sys.txt -m {metric}:min_words=3
pytest
```

Bump `version` in `pyproject.toml` whenever a score can change: the version is part of every
signature, and simpeval's score cache is keyed by signatures.
'''


MAX_NAME_LENGTH = 64
"""The longest plugin name: it becomes file and directory names (``simpeval-NAME``, ``test_NAME.py``),
which most file systems limit to 255 bytes, and a metric name typed on command lines."""


def plugin_files(name: str) -> dict[str, str]:
    """The skeleton of plugin ``name`` (a metric name such as ``length-ratio``): relative path -> text."""
    if len(name) > MAX_NAME_LENGTH:
        raise UsageError(f"plugin name of {len(name)} characters: give one of at most {MAX_NAME_LENGTH}")
    if not _NAME.fullmatch(name):
        raise UsageError(f'plugin name "{name}" is not lowercase words joined by "-": try e.g. length-ratio')
    package = "simpeval_" + name.replace("-", "_")
    fields = {
        "metric": name, "dist": f"simpeval-{name}", "package": package, "func": name.replace("-", "_"),
        "cls": "".join(part.capitalize() for part in name.split("-")),
    }
    return {
        "pyproject.toml": PYPROJECT.format(**fields),
        "README.md": README.format(**fields),
        f"{package}/__init__.py": f'"""simpeval plugin: the {name} metric (see plugin.py)."""\n',
        f"{package}/plugin.py": PLUGIN.format(**fields),
        f"tests/test_{fields['func']}.py": TEST.format(**fields),
    }


def write_plugin(name: str, directory: Path, taken: Collection[str] = ()) -> list[Path]:
    """Write plugin ``name``'s skeleton into ``directory``, which must not exist yet (nothing is overwritten).

    :param taken: the metric and sub-score names installed already: the new metric could not
        register under one of them (the registry refuses a name taken), so it is refused here.
    """
    files = plugin_files(name)
    if name in taken:
        raise UsageError(f'"{name}" is already the name of an installed metric or sub-score (see `simpeval metrics '
                         "list`): pick another name")
    if directory.exists():
        raise UsageError(f"{directory} already exists: pick a new directory with --directory")
    written = []
    try:
        for relative, text in files.items():
            path = directory / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise UsageError(f"cannot write {directory}: {exc.strerror}: pick another --directory") from None
    return written
