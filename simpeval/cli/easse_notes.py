"""Where simpeval's defaults differ from ``easse evaluate``'s, said next to the numbers.

simpeval's BLEU is cased, as sacrebleu's is; ``easse evaluate`` lower-cases every metric by
default (``-lc``), BLEU included (ACCESS on asset_test: 75.39 cased, 75.99 lower-cased). Every
other default metric (SARI, FKGL, quality estimation, token F1) already uses EASSE's settings.
``--easse-defaults`` (the ``easse-cli`` preset) reproduces ``easse evaluate``.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["EASSE_PRESET", "bleu_casing_note"]

EASSE_PRESET = "easse-cli"
_EASSE_BLEUS = ("bleu|", "sent-bleu|")  # the BLEUs `easse evaluate` computes


def bleu_casing_note(signatures: Iterable[str]) -> str | None:
    """A note for standard error when a cased BLEU is among ``signatures``, else None."""
    cased = sorted({s.split("|", 1)[0] for s in signatures if s.startswith(_EASSE_BLEUS) and "|lc:no|" in s})
    if not cased:
        return None
    return (f"# note: {' and '.join(cased)} here {'is' if len(cased) == 1 else 'are'} cased (lc:no), like sacrebleu; "
            "`easse evaluate` lower-cases BLEU by default: --easse-defaults (or -m bleu:lowercase=yes) gives EASSE's number")
