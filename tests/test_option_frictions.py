"""Options a new user met (issue 28): too few resamples for an interval and a negative seed are one line
naming the option; a multi-system table written to a file or a pipe fits 160 columns."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simpeval.cli import cli

SOURCES = [f"The old committee approved plan number {i} after a very long debate ." for i in range(12)]


@pytest.mark.parametrize("args, option", [
    (["leaderboard", "--bootstrap", "1"], "--bootstrap 1"),
    (["leaderboard", "--seed", "-1"], "'--seed'"),
    (["meta-evaluate", "--dataset", "simplicity-da", "-m", "fkgl", "--bootstrap", "39"], "--bootstrap 39"),
])
def test_too_few_resamples_and_negative_seeds_name_the_option(args, option):
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 2
    assert len(done.output.strip().splitlines()) == 1 and option in done.output


def test_a_redirected_table_of_many_systems_fits_160_columns(tmp_path):
    (tmp_path / "orig.txt").write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    args = ["evaluate", "--orig", str(tmp_path / "orig.txt"), "-m", "fkgl,qe", "--paired-bs", "--paired-n", "40",
            "--no-cache"]
    for k in range(7):
        path = tmp_path / f"system-with-a-long-name-{k}.txt"
        path.write_text("\n".join(" ".join(s.split()[k % 3:]) for s in SOURCES) + "\n", encoding="utf-8")
        args += ["--sys", str(path)]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    table = done.stdout.splitlines()
    assert table[0].split() == ["metric", "system", "score", "95%", "interval", "p"]  # the long layout
    assert max(map(len, table)) <= 160
