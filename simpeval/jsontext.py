"""JSON as RFC 8259 defines it: an undefined number (NaN, an infinity) is written as ``null``.

Python's :func:`json.dumps` writes the non-standard tokens ``NaN`` and ``Infinity`` by default,
which strict parsers (JavaScript's ``JSON.parse``, jq, Go) reject. Every JSON simpeval prints
goes through :func:`dumps`.
"""

from __future__ import annotations

import json
import math
import numbers
from typing import Any


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)`` with non-finite numbers as ``null`` (and numpy scalars as numbers)."""
    return json.dumps(finite(value), allow_nan=False, **options)


def finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by None, recursively through dicts, lists and tuples."""
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value) if math.isfinite(value) else None
    return value
