"""Where simpeval's defaults differ from ``easse evaluate``'s, said next to the numbers.

simpeval's BLEU is cased, as sacrebleu's is; ``easse evaluate`` lower-cases every metric by
default (``-lc``), BLEU included (ACCESS on asset_test: 75.39 cased, 75.99 lower-cased). Every
other default metric (SARI, FKGL, quality estimation, token F1) already uses EASSE's settings.
``--easse-defaults`` (the ``easse-cli`` preset) reproduces ``easse evaluate``.

BERTScore is the one EASSE metric an option cannot fully reproduce: EASSE scores with
roberta-large (layer 17, rescaled), weights simpeval never downloads. The preset sets what options
can (13a, lower-cased); where the model, layer, rescaling or dtype still differ (a local
``bertscore:model=PATH``, bert_score not installed), :func:`easse_warnings` says so in one line
instead of printing other numbers under EASSE's settings. Without roberta-large's weights the run
stops at once with the one-line missing-weights error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["EASSE_PRESET", "bleu_casing_note", "easse_warnings"]

EASSE_PRESET = "easse-cli"
_EASSE_BLEUS = ("bleu|", "sent-bleu|")  # the BLEUs `easse evaluate` computes


def bleu_casing_note(signatures: Iterable[str]) -> str | None:
    """A note for standard error when a cased BLEU is among ``signatures``, else None."""
    cased = sorted({s.split("|", 1)[0] for s in signatures if s.startswith(_EASSE_BLEUS) and "|lc:no|" in s})
    if not cased:
        return None
    return (f"# note: {' and '.join(cased)} here {'is' if len(cased) == 1 else 'are'} cased (lc:no), like sacrebleu; "
            "`easse evaluate` lower-cases BLEU by default: --easse-defaults (or -m bleu:lowercase=yes) gives EASSE's number")


def easse_warnings(requests: Sequence) -> list[str]:
    """One ``warning:`` line per metric of ``requests`` (resolved under ``--easse-defaults``) whose settings
    still differ from ``easse evaluate``'s: those with an ``easse_differences()`` that lists any."""
    lines = []
    for request in requests:
        differences = getattr(request.metric, "easse_differences", lambda: [])()
        if differences:
            lines.append(f"warning: --easse-defaults cannot make {request.metric.name} EASSE's here: "
                         f"{', '.join(differences)}; its numbers are not `easse evaluate`'s")
    return lines
