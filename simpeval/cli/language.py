"""``--lang CODE``, shared by ``evaluate``, ``meta-evaluate``, ``report`` and ``leaderboard``.

The language of the texts is a setting, never an accident: given, it is checked (ISO 639-1) and
passed to every metric, which prints it in its signature (``lang:de``) or refuses it in one line;
left out, it is the language the test set or dataset declares, else English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

HELP = ("Language of the texts, an ISO 639-1 code (en, de, fr, ...); default: the one the test set or dataset "
        "declares, else en. Language-dependent metrics print it in their signature (lang:de) and refuse a "
        "language they have no rules for.")


def lang_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--lang CODE`` (parameter ``lang``, None when not given) to a click command."""
    return click.option("--lang", "lang", default=None, metavar="CODE", help=HELP)(command)


def test_set_language(lang: str | None, test_set: str | None) -> str:
    """``lang`` checked, else the language of named test set ``test_set``, else English."""
    from simpeval.datasets.testsets import lookup_test_set
    from simpeval.languages import ENGLISH, check_code

    if lang is not None:
        return check_code(lang)
    return lookup_test_set(test_set).lang if test_set is not None else ENGLISH


def given_language(lang: str | None) -> str | None:
    """``lang`` checked, or None (the dataset's own language then)."""
    from simpeval.languages import check_code

    return None if lang is None else check_code(lang)
