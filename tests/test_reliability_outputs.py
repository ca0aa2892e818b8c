"""``-o`` never replaces what it should not: a device, a FIFO, one of the command's inputs; its
temporary files never outlive a killed run; a full disk is one line."""

from __future__ import annotations

import os
import resource
import shutil
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
        os.utime(path, (time.time() - 120, time.time() - 120))  # older than a writer takes to lock its file
    with open(live) as held:  # a live writer holds its lock
        output_files.hold_while_open(held.fileno())
        output_files.write_output("done\n", str(target))
    assert target.read_text() == "done\n"
    assert not stale.exists() and live.exists() and other.exists()


def test_a_live_writers_temporary_file_is_kept_when_its_process_id_is_invisible(tmp_path):
    """A writer in another PID namespace or container: its pid names no process here, its lock still holds."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    invisible = tmp_path / f".out.txt.{int(dead.stdout)}-abc123.tmp"
    invisible.write_text("partial")
    os.utime(invisible, (time.time() - 120, time.time() - 120))
    fresh = tmp_path / f".out.txt.{int(dead.stdout)}-def456.tmp"  # created a moment ago, not locked yet
    fresh.write_text("partial")
    writer = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1]); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print(flush=True); time.sleep(60)", str(invisible)],
                              stdout=subprocess.PIPE, text=True)
    try:
        writer.stdout.readline()
        output_files.write_output("done\n", str(tmp_path / "out.txt"))
        assert invisible.exists() and fresh.exists()
    finally:
        writer.kill()
        writer.wait()
    output_files.write_output("done\n", str(tmp_path / "out.txt"))  # its writer is gone: swept
    assert not invisible.exists() and fresh.exists()


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


def test_a_stage_the_signal_caught_before_its_with_block_is_deleted(tmp_path):
    """Under load SIGTERM can land between creating the stage and entering its ``with`` block,
    where ``__exit__`` never runs (seen once in 1,211 tests at load 10): the exit deletes it."""
    script = ("import sys; from simpeval.fileio import StagedOutput; "
              "StagedOutput(sys.argv[1]); raise SystemExit(143)")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.csv")],
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 143
    assert list(tmp_path.iterdir()) == []


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


# --------------------------------------------------------------------------
# -o never replaces a file the command read (issue 28, high 1): one check in the staged output
# --------------------------------------------------------------------------


def _refused(result, path, text):
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "is also an input (" in result.output, result.output
    assert Path(path).read_text() == text
    assert [p.name for p in Path(path).parent.iterdir() if p.name.endswith(".tmp")] == []


def test_all_pairs_output_that_is_a_system_is_refused(texts):
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "--sys", texts / "sys2.txt",
                 "--all-pairs", "-m", "fkgl", "-o", texts / "sys.txt")
    _refused(result, texts / "sys.txt", SYS)


def test_all_pairs_output_that_is_a_system_through_a_hard_link_is_refused(texts):
    os.link(texts / "sys2.txt", texts / "other-name.txt")
    result = run("evaluate", "--orig", texts / "orig.txt", "--sys", texts / "sys.txt", "--sys", texts / "sys2.txt",
                 "--all-pairs", "-m", "fkgl", "-o", texts / "other-name.txt")
    _refused(result, texts / "sys2.txt", SYS)


@pytest.fixture
def document_dirs(tmp_path):
    for folder, texts in (("o", ORIG), ("s", SYS)):
        (tmp_path / folder).mkdir()
        for i, line in enumerate(texts.splitlines(), 1):
            (tmp_path / folder / f"d{i}.txt").write_text(line + "\n")
    return tmp_path


def test_output_that_is_a_file_inside_a_document_directory_is_refused(document_dirs):
    before = (document_dirs / "s" / "d1.txt").read_text()
    result = run("evaluate", "--orig", document_dirs / "o", "--sys", document_dirs / "s", "-m", "fkgl",
                 "-o", document_dirs / "s" / "d1.txt")
    _refused(result, document_dirs / "s" / "d1.txt", before)


def test_several_document_systems_output_inside_one_is_refused(document_dirs):
    shutil.copytree(document_dirs / "s", document_dirs / "s2")
    before = (document_dirs / "s2" / "d2.txt").read_text()
    result = run("evaluate", "--orig", document_dirs / "o", "--sys", document_dirs / "s", "--sys",
                 document_dirs / "s2", "-m", "fkgl", "-o", document_dirs / "s2" / "d2.txt")
    _refused(result, document_dirs / "s2" / "d2.txt", before)


@pytest.fixture
def data_copy(data_dir, tmp_path):
    """Simplicity-DA's files and ASSET's references, copied: the test may try to overwrite them."""
    copy = tmp_path / "D"
    (copy / "metaeval").mkdir(parents=True)
    for name in ("simplicity_DA.csv", "simplicity_DA_ratings.csv", "metrics_simplicity_DA.csv"):
        shutil.copy(data_dir / "metaeval" / name, copy / "metaeval" / name)
    shutil.copytree(data_dir / "references" / "asset", copy / "references" / "asset")
    return copy


def test_meta_evaluate_output_that_is_the_dataset_file_is_refused(data_copy):
    target = data_copy / "metaeval" / "simplicity_DA.csv"
    before = target.read_text()
    result = run("meta-evaluate", "--dataset", "simplicity-da", "-m", "fkgl", "--data-dir", data_copy,
                 "--no-cache", "-o", target)
    _refused(result, target, before)


def test_meta_evaluate_output_that_is_a_reference_file_it_read_is_refused(data_copy):
    target = data_copy / "references" / "asset" / "asset.test.simp.0"
    before = target.read_text()
    result = run("meta-evaluate", "--dataset", "simplicity-da", "-m", "bleu", "--data-dir", data_copy,
                 "--no-cache", "-o", target)
    _refused(result, target, before)


def test_meta_evaluate_output_that_is_a_scores_file_is_refused(data_copy, tmp_path):
    import csv

    rows = list(csv.DictReader((data_copy / "metaeval" / "simplicity_DA.csv").open(encoding="utf-8")))
    scores = tmp_path / "mine.csv"
    with scores.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sent_id", "sys_name", "mine"])
        writer.writerows([row["sent_id"], row["sys_name"], len(row["simp_sent"])] for row in rows)
    before = scores.read_text()
    link = tmp_path / "link.csv"
    link.symlink_to(scores)
    result = run("meta-evaluate", "--dataset", "simplicity-da", "-m", "fkgl", "--data-dir", data_copy,
                 "--no-cache", "--scores", scores, "-o", link)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert scores.read_text() == before


@pytest.mark.slow
def test_reproduce_output_that_is_the_dataset_file_is_refused(data_copy):
    target = data_copy / "metaeval" / "simplicity_DA.csv"
    before = target.read_text()
    result = run("reproduce", "alva-manchego-2021", "--table", "3", "--data-dir", data_copy, "--no-cache",
                 "-o", target)
    _refused(result, target, before)


@pytest.mark.slow
def test_leaderboard_output_that_is_the_dataset_file_is_refused(data_copy):
    target = data_copy / "metaeval" / "simplicity_DA.csv"
    before = target.read_text()
    result = run("leaderboard", "--dataset", "simplicity-da", "-m", "fkgl", "--bootstrap", "0",
                 "--data-dir", data_copy, "--no-cache", "-o", target)
    _refused(result, target, before)


def test_leaderboard_html_and_output_naming_one_file_are_refused_before_any_work(tmp_path):
    (tmp_path / "page.md").write_text("kept\n")
    (tmp_path / "alias.md").symlink_to(tmp_path / "page.md")
    for output, html in (("page.md", "page.md"), ("page.md", "alias.md"), ("new.md", "./new.md")):
        result = run("leaderboard", "--dataset", "no-such-dataset", "--data-dir", tmp_path, "-o", tmp_path / output,
                     "--html", tmp_path / html)
        assert result.exit_code == 2 and "name the same file" in result.output, result.output
        assert "no-such-dataset" not in result.output  # refused before the datasets are looked at
    assert (tmp_path / "page.md").read_text() == "kept\n" and not (tmp_path / "new.md").exists()


def test_a_library_call_never_writes_over_its_input(texts):
    from simpeval import evaluate_files
    from simpeval.errors import UsageError

    with pytest.raises(UsageError, match="is also an input"):
        evaluate_files(texts / "orig.txt", texts / "sys.txt", metrics="fkgl", output=texts / "sys.txt", cache=False)
    assert (texts / "sys.txt").read_text() == SYS


def test_reads_are_forgotten_when_the_command_ends(texts):
    """A long-lived process (a notebook) may write a file that an earlier call read."""
    from simpeval import evaluate_files

    evaluate_files(texts / "orig.txt", texts / "sys.txt", metrics="fkgl", output=texts / "out.csv", cache=False)
    output_files.write_output("new\n", str(texts / "sys.txt"))
    assert (texts / "sys.txt").read_text() == "new\n"


def _simpeval(*args, cwd, **kwargs):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "simpeval", *map(str, args)], env=env, cwd=cwd, timeout=120,
                          **kwargs)


@pytest.mark.slow
def test_output_to_dev_stdout_is_standard_output(texts):
    piped = _simpeval("evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "fkgl", "--no-cache",
                      "-o", "/dev/stdout", cwd=texts, capture_output=True, text=True)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith("metric")
    redirected = texts / "redirected.txt"
    redirected.write_text("already here\n")
    with redirected.open("a") as handle:  # `>> redirected.txt`: appended, never replaced
        done = _simpeval("evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "fkgl", "--no-cache",
                         "-o", "/dev/stdout", cwd=texts, stdout=handle, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 0, done.stderr
    assert redirected.read_text().startswith("already here\nmetric")
    assert [p.name for p in texts.iterdir() if p.name.endswith(".tmp")] == []


def test_report_never_replaces_an_existing_report_html_unasked(texts, monkeypatch):
    monkeypatch.chdir(texts)
    (texts / "report.html").write_text("my earlier report\n")
    result = run("report", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "fkgl", "--no-cache")
    assert result.exit_code == 2 and "report.html exists" in result.output, result.output
    assert (texts / "report.html").read_text() == "my earlier report\n"
    result = run("report", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "fkgl", "--no-cache", "-o", "report.html")
    assert result.exit_code == 0, result.output
    assert (texts / "report.html").read_text().lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize("command", [
    ("meta-evaluate", "--dataset", "simplicity-da", "-m", "fkgl"),
    ("reproduce", "alva-manchego-2021", "--table", "3"),
    ("report", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "fkgl"),
    ("leaderboard", "--dataset", "simplicity-da", "-m", "fkgl"),
])
@pytest.mark.parametrize("name", ["x" * 300, "d" * 300 + "/out.txt", "a/" * 2100 + "x"])
def test_an_over_long_output_is_one_line_for_every_command(texts, monkeypatch, command, name):
    monkeypatch.chdir(texts)
    result = run(*command, "--no-cache", "-o", name)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: cannot write -o ") and "too long" in result.output, result.output
    assert "report it" not in result.output and "Traceback" not in result.output


def test_the_new_file_mode_never_sets_the_umask(monkeypatch, tmp_path):
    expected = 0o666 & ~_current_umask()
    monkeypatch.setattr(os, "umask", lambda mask: pytest.fail(f"os.umask({mask:o}) called"))
    assert output_files.new_file_mode() == expected
    output_files.write_output("x\n", str(tmp_path / "out.txt"))
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == expected


def _current_umask() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Umask:"):
            return int(line.split()[1], 8)
    raise AssertionError("no Umask line")


def test_replaced_on_success_uses_a_name_of_its_own_and_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "model.bin"
    target.write_text("old")
    with output_files.replaced_on_success(target) as first, output_files.replaced_on_success(target) as second:
        assert first != second and first.parent == second.parent == tmp_path
        first.write_text("first")
        second.write_text("second")
    assert target.read_text() == "first"  # the outer block ends last
    with pytest.raises(RuntimeError):
        with output_files.replaced_on_success(target) as third:
            third.write_text("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "first" and sorted(p.name for p in tmp_path.iterdir()) == ["model.bin"]
