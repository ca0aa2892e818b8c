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


def median(values: list[float]) -> float:
    return statistics.median(values)


def write_report(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a half-written report never replaces a whole one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, encoding="utf-8") as handle:
        handle.write(text)
    os.replace(handle.name, path)
    print(text)
