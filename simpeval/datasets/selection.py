"""Per-item reference selection by the operations an output performed (Alva-Manchego et al. 2021, §4.4.2).

For each output: a *split* when Punkt finds more sentences in the output than in the original;
*deletions* and *replacements* from :func:`simpeval.datasets.aligner.align`. Then

1. split only -> HSplit;
2. replacements and/or deletions, no split -> TurkCorpus + ASSET;
3. anything else (a split with other changes, or no change at all) -> ASSET.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simpeval.datasets.aligner import align
from simpeval.datasets.references import test_set_references


@dataclass(frozen=True)
class Operations:
    """The operations detected in one output."""

    split: bool
    deletion: bool
    replacement: bool

    @property
    def reference_sets(self) -> tuple[str, ...]:
        """The reference sets this combination of operations selects."""
        if self.split and not (self.deletion or self.replacement):
            return ("hsplit",)
        if not self.split and (self.deletion or self.replacement):
            return ("turkcorpus", "asset")
        return ("asset",)


def sentence_count(text: str) -> int:
    """Number of sentences by Punkt (English), as NLTK's ``sent_tokenize`` counts them."""
    import punkt  # lazily: only reference selection needs it

    return len(punkt.sent_tokenize(text))


def detect_operations(source: str, output: str) -> Operations:
    """Which of split / deletion / replacement turn ``source`` into ``output``."""
    alignment = align(source, output)
    return Operations(
        split=sentence_count(output) > sentence_count(source),
        deletion=bool(alignment.deleted()),
        replacement=bool(alignment.replaced()),
    )


def selected_references(
    data_dir: Path, lines: Sequence[int], sources: Sequence[str], outputs: Sequence[str]
) -> list[list[str]]:
    """Item-major references chosen per item by the operations its output performed."""
    tables = {name: test_set_references(data_dir, name) for name in ("asset", "turkcorpus", "hsplit")}
    chosen = []
    for line, source, output in zip(lines, sources, outputs):
        sets = detect_operations(source, output).reference_sets
        chosen.append([ref for name in sets for ref in tables[name][line]])
    return chosen
