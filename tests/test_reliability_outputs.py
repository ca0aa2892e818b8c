"""``-o`` never replaces what it should not: a device, a FIFO, one of the command's inputs; its
temporary files never outlive a killed run; a full disk is one line."""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval import fileio as output_files

ORIG = "The cat sat on the mat .\nIt was a sunny day in the old town .\n"
SYS = "The cat sat .\nIt was sunny .\n"


@pytest.fixture
def texts(tmp_path):
    (tmp_path / "orig.txt").write_text(ORIG)
    (tmp_path / "sys.txt").write_text(SYS)
    (tmp_path / "sys2.txt").write_text(SYS)
    return tmp_path


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_output_that_is_an_input_is_refused_and_the_input_kept(texts):
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "--sys", texts / "sys2.txt",
                 "-m", "fkgl", "-o", texts / "sys2.txt")
    assert result.exit_code == 2
    assert "is also an input" in result.output and "Traceback" not in result.output
    assert (texts / "sys2.txt").read_text() == SYS


def test_output_that_is_an_input_through_a_link_is_refused(texts):
    (texts / "link.txt").symlink_to(texts / "sys.txt")
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "-m", "fkgl",
                 "-o", texts / "link.txt")
    assert result.exit_code == 2 and "is also an input (" in result.output
    assert (texts / "sys.txt").read_text() == SYS


def test_a_fifo_is_written_through_not_replaced(texts):
    fifo = texts / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "-m", "fkgl",
                 "--sentence-level", "--format", "csv", "-o", fifo)
    reader.join(30)
    assert result.exit_code == 0, result.output
    [text] = received
    assert text.startswith("index,fkgl\n0,") and len(text.splitlines()) == 3
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in texts.iterdir() if p.name.endswith(".tmp")] == []


def test_a_character_device_is_written_through_never_staged_beside_it(monkeypatch):
    """/dev/null itself is safe here: staging beside it or renaming over it fails the test before it happens."""
    def forbidden(*args, **kwargs):
        raise AssertionError("a device must never be staged or replaced")

    monkeypatch.setattr(tempfile, "mkstemp", forbidden)
    monkeypatch.setattr(os, "replace", forbidden)
    monkeypatch.setattr(os, "rename", forbidden)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    output_files.check_writable("/dev/null")
    output_files.write_output("scores\n", "/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_temporary_file_of_a_dead_writer_is_swept_a_live_ones_kept(tmp_path):
    target = tmp_path / "out.txt"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".out.txt.{int(dead.stdout)}-abc123.tmp"
    live = tmp_path / f".out.txt.{os.getppid()}-def456.tmp"
    other = tmp_path / f".other.txt.{int(dead.stdout)}-abc123.tmp"
    for path in (stale, live, other):
        path.write_text("partial")
    output_files.write_output("done\n", str(target))
    assert target.read_text() == "done\n"
    assert not stale.exists() and live.exists() and other.exists()


def test_sigterm_removes_the_staged_output(texts):
    """A streaming run waits on standard input with its output staged; SIGTERM must delete the stage."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-m", "simpeval", "evaluate", "--orig", str(texts / "orig.txt"),
                                "--sys", "-", "-m", "fkgl", "--sentence-level", "--format", "csv", "--batch-size", "1",
                                "-o", str(texts / "out.csv")],
                               stdin=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=texts)
    process.stdin.write(b"The cat sat .\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".tmp") for p in texts.iterdir()):
        assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    process.wait(30)
    assert process.returncode == 128 + signal.SIGTERM
    assert [p.name for p in texts.iterdir() if p.name.startswith(".")] == []
    assert not (texts / "out.csv").exists()


def test_a_file_size_limit_is_one_line(texts):
    """RLIMIT_FSIZE stands in for a full disk: the streaming CSV fails with one line, no traceback."""
    (texts / "big.txt").write_text("The cat sat on the mat .\n" * 4000)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    done = subprocess.run([sys.executable, "-m", "simpeval", "evaluate", "--orig", "big.txt", "--sys", "big.txt",
                           "-m", "fkgl", "--sentence-level", "--format", "csv", "--no-cache", "-o", "out.csv"],
                          capture_output=True, text=True, env=env, cwd=texts, preexec_fn=limit, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().startswith("Error: cannot write -o out.csv: File too large; free some space")
    assert "Traceback" not in done.stderr
    assert [p.name for p in texts.iterdir() if p.name.startswith(".") or p.name == "out.csv"] == []


def test_an_over_long_output_name_is_one_line(texts):
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "-m", "fkgl",
                 "-o", texts / ("x" * 300))
    assert result.exit_code == 2
    assert "file name is too long" in result.output and "Traceback" not in result.output


def test_a_long_but_valid_output_name_still_gets_its_temporary_file(texts):
    name = "y" * 250
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "-m", "fkgl", "-o", texts / name)
    assert result.exit_code == 0, result.output
    assert (texts / name).read_text().startswith("metric")
