"""The score cache opens only its own regular files: a FIFO or a device as an entry is a bad entry
(not a hang, not a memory exhaustion), and a shard directory that is a symbolic link is not followed."""

from __future__ import annotations

import os
import threading
import time

import pytest

from simpeval.cache import ScoreCache

KEY = "ab" + "0" * 62


def _cache(tmp_path):
    warnings = []
    return ScoreCache(tmp_path / "cache", warn=warnings.append), warnings


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_a_device_as_an_entry_is_a_bad_entry_not_a_hang(tmp_path, kind):
    cache, warnings = _cache(tmp_path)
    entry = cache._path(KEY)
    entry.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.symlink_to("/dev/zero")
    answers = []
    reader = threading.Thread(target=lambda: answers.append(cache.get(KEY)), daemon=True)
    reader.start()
    reader.join(60)  # a FIFO's open would block for ever and /dev/zero never end: a hang, not a delay
    assert not reader.is_alive() and answers == [None]
    assert warnings == [f"ignoring a bad score cache entry ({entry}: not a regular file); recomputing it"]
    cache.put(KEY, [1.0])
    assert cache.get(KEY) == [1.0] and cache.usable


def test_a_symlinked_shard_directory_is_not_followed(tmp_path):
    cache, warnings = _cache(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    old = elsewhere / ".someone-elses.tmp"
    old.write_text("keep me")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    (tmp_path / "cache" / "scores-v3").mkdir(parents=True)
    (tmp_path / "cache" / "scores-v3" / "ab").symlink_to(elsewhere)
    cache.put(KEY, [1.0])
    cache.put(KEY, [1.0])
    assert cache.get(KEY) is None
    assert sorted(p.name for p in elsewhere.iterdir()) == [".someone-elses.tmp"]
    assert warnings == [f"not using the score cache directory {tmp_path / 'cache' / 'scores-v3' / 'ab'}: it is a "
                        "symbolic link, which simpeval does not follow (remove it)"]
