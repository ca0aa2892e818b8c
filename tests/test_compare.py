"""Several systems compared through the engine: the baseline's interval follows ``--paired-n``,
and every name ``compare.py`` uses is defined."""

from __future__ import annotations

import ast
import builtins
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import simpeval.engine.compare
from simpeval import significance
from simpeval.cli import cli
from simpeval.allpairs import statistics
from simpeval.registry import load_registry
from simpeval.runner import compare_systems, resolve_metrics

SOURCES = [f"The old committee approved plan number {i} after a very long debate ." for i in range(40)]
BASE = [" ".join(source.split()[: 3 + i % 7]) + " ." for i, source in enumerate(SOURCES)]  # items differ
BETTER = [" ".join(source.split()[1 : 8 + i % 5]) + " ." for i, source in enumerate(SOURCES)]
REFERENCES = [[f"The committee approved plan {i} after a long debate ."] for i in range(40)]


@pytest.mark.parametrize("n", [50, 200])
def test_the_baseline_interval_uses_the_paired_bootstrap_s_resample_count(n):
    requests = resolve_metrics(load_registry(autoload=False), ["bleu"])
    comparison = compare_systems(requests, SOURCES, [("base", BASE), ("better", BETTER)], REFERENCES,
                                 test="bs", n_resamples=n, seed=7)
    stats, scorer = statistics(requests[0], comparison.baseline.result)
    [expected] = significance.bootstrap_interval(stats, scorer, np.random.default_rng(7), n)
    [thousand] = significance.bootstrap_interval(stats, scorer, np.random.default_rng(7), 1000)
    assert comparison.baseline.intervals["bleu"] == expected
    assert comparison.baseline.intervals["bleu"] != thousand  # the fixed count this replaces
    # the baseline's interval is the one the paired bootstrap draws for it: same resamples, same count
    assert comparison.n_resamples == n


def test_approximate_randomization_keeps_bootstrap_intervals_of_the_default_size():
    requests = resolve_metrics(load_registry(autoload=False), ["bleu"])
    comparison = compare_systems(requests, SOURCES, [("base", BASE), ("better", BETTER)], REFERENCES,
                                 test="ar", n_resamples=300, seed=7)
    stats, scorer = statistics(requests[0], comparison.baseline.result)
    [expected] = significance.bootstrap_interval(stats, scorer, np.random.default_rng(7),
                                                 significance.BOOTSTRAP_SAMPLES)
    assert comparison.baseline.intervals["bleu"] == expected  # as the other systems' intervals are drawn
    assert comparison.n_resamples == 300


def test_the_command_s_baseline_interval_follows_paired_n(tmp_path):
    paths = {}
    for name, lines in (("orig", SOURCES), ("base", BASE), ("better", BETTER), ("ref", [r[0] for r in REFERENCES])):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    intervals = {}
    for n in ("60", "1000"):
        done = CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), "--sys", str(paths["base"]),
                                        "--sys", str(paths["better"]), "--refs", str(paths["ref"]), "-m", "bleu",
                                        "--paired-bs", "--paired-n", n, "--format", "json", "--no-cache"])
        assert done.exit_code == 0, done.output
        payload = json.loads(done.stdout)
        assert payload["resamples"] == int(n)
        baseline = next(r for r in payload["results"] if r["baseline"])
        intervals[n] = (baseline["low"], baseline["high"])
    assert intervals["60"] != intervals["1000"]


def _bound_names(tree: ast.Module) -> set[str]:
    """Names bound at module level, where annotations are resolved (imports, including under
    ``if TYPE_CHECKING:``; definitions; assignments), and the builtins. Imports inside functions
    do not count: an annotation cannot see them."""
    names = set(dir(builtins))
    statements = list(tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try)):
            statements += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
    return names


def _annotation_names(tree: ast.Module) -> set[str]:
    """The bare names used in annotations (strings under ``from __future__ import annotations``)."""
    annotations = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations += [a.annotation for a in [*node.args.args, *node.args.kwonlyargs] if a.annotation]
            annotations += [node.returns] if node.returns else []
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
    return {n.id for a in annotations for n in ast.walk(a) if isinstance(n, ast.Name)}


def test_every_name_in_compare_s_annotations_is_defined():
    tree = ast.parse(Path(simpeval.engine.compare.__file__).read_text(encoding="utf-8"))
    assert _annotation_names(tree) - _bound_names(tree) == set()
    broken = ast.parse("import numpy as np\ndef f() -> tuple[np.ndarray, sig.Scorer]:\n"
                       "    from simpeval import significance as sig\n")
    assert _annotation_names(broken) - _bound_names(broken) == {"sig"}  # the old defect is caught
