"""What every recorded benchmark states beside its figures: the machine, the date and the load.

The development machine is shared, so a time means little without the load
average it was taken under; the benchmarks of the encoding service and of
CEScore call these helpers and write their tables with :func:`write_report`.
"""

from __future__ import annotations

import os
import platform
import statistics
import tempfile
from datetime import UTC, datetime
from pathlib import Path


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def load_average() -> float:
    """The 1-minute load average (``/proc/loadavg``)."""
    return os.getloadavg()[0]


def gpu() -> str:
    """The CUDA GPU torch sees, or a sentence saying there is none (torch is imported)."""
    import torch

    if torch.cuda.is_available():
        return f"{torch.cuda.get_device_name(0)} ({torch.cuda.device_count()} visible)"
    return "none: no GPU was lent to this work, so every figure is CPU-only (the code takes device=cuda, cuda:N, mps)"


def machine_lines() -> list[str]:
    """Markdown lines naming the machine, the Python and torch versions and the date."""
    lines = [
        f"- Machine: {os.cpu_count()} CPU cores ({cpu_model()}); "
        f"Python {platform.python_version()}",
        f"- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
    ]
    try:
        import torch

        lines.append(f"- torch {torch.__version__}; GPU: {gpu()}")
    except ImportError:
        pass
    return lines


def bytecode_line() -> str:
    """Whether Python cached bytecode in this run (a development shell may turn it off; users' machines do not)."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return "- Python bytecode caching: off (PYTHONDONTWRITEBYTECODE set)"
    return "- Python bytecode caching: on (PYTHONDONTWRITEBYTECODE unset), as on users' machines"


def matmul_rate(threads: int | None = None, repeats: int = 15) -> float:
    """Float32 matrix-product speed of this machine with torch, in FLOP/s (the best of ``repeats``).

    Measured on the shapes that dominate a MiniLM encoder (a batch of 2,048
    token states times its 384 x 1,536 feed-forward matrix). It is what
    caps the speed of any float32 encoder on the machine: a page divides the
    matrix products its work needs by this rate to state the fastest possible time.
    """
    import time

    import torch

    previous = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        generator = torch.Generator().manual_seed(0)
        states = torch.randn(2048, 384, generator=generator)
        weight = torch.randn(384, 1536, generator=generator)
        best = float("inf")
        for _ in range(repeats):
            started = time.perf_counter()
            torch.mm(states, weight)
            best = min(best, time.perf_counter() - started)
    finally:
        torch.set_num_threads(previous)
    return 2 * 2048 * 384 * 1536 / best


def encoder_flops(config, tokens: int) -> float:
    """FLOPs of the matrix products of a BERT-like encoder (``config``) over ``tokens`` token positions.

    Per token and layer: the query, key, value and output projections (4 h^2
    multiply-adds) and the feed-forward pair (2 h i); attention scores and the
    embedding lookups are left out (a few percent for sentences).
    """
    hidden, inner = config.hidden_size, config.intermediate_size
    return 2.0 * tokens * config.num_hidden_layers * (4 * hidden * hidden + 2 * hidden * inner)


def median(values: list[float]) -> float:
    return statistics.median(values)


def write_report(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a half-written report never replaces a whole one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, encoding="utf-8") as handle:
        handle.write(text)
    os.replace(handle.name, path)
    print(text)
