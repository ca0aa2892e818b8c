"""OneStopEnglish (Vajjala and Lucic 2018): 189 articles, each at three reading levels, and their split.

Files are ``{Adv,Int,Ele}/NAME-{adv,int,ele}.txt`` (UTF-8 with a byte-order mark,
one paragraph a line). Every Intermediate file opens with the line
"Intermediate", a label, not text: a first line that is a level's name is
dropped, or a model could read the answer. Levels follow SLE's scale, higher
is simpler: Advanced 0, Intermediate 1, Elementary 2.

The split is by article, so the three versions of an article always fall in the
same part, and each part therefore holds every level equally often (the split is
stratified by level); articles are shuffled with a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simpeval import UsageError

LEVELS = (("Adv", "adv", "Advanced"), ("Int", "int", "Intermediate"), ("Ele", "ele", "Elementary"))
LEVEL_NAMES = tuple(name for _, _, name in LEVELS)
SPLITS = ("train", "validation", "test")
DEFAULT_FRACTIONS = (0.7, 0.15, 0.15)


@dataclass(frozen=True)
class Document:
    """One version of an article: its article name, level (0 = Advanced) and text."""

    article: str
    level: int
    text: str


def corpus_dir(data_dir: str | Path) -> Path:
    """``DATA_DIR/onestopenglish``, checked to hold the three level folders."""
    directory = Path(data_dir) / "onestopenglish"
    if not all((directory / folder).is_dir() for folder, _, _ in LEVELS):
        raise UsageError(
            f"{directory} lacks Adv/, Int/ and Ele/: point --data-dir (or SIMPEVAL_DATA_DIR) at a data "
            "directory holding onestopenglish/"
        )
    return directory


def read_text(path: Path, level_name: str) -> str:
    """A file's text without its byte-order mark, carriage returns or a first line naming the level;
    :class:`UsageError` when nothing is left."""
    try:
        lines = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}): "
                         "convert it, e.g. iconv -f latin1 -t utf-8") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}; check the corpus files") from None
    if lines and lines[0].strip().lower() == level_name.lower():
        lines = lines[1:]
    text = "\n".join(line.strip() for line in lines).strip()
    if not text:  # an empty document has no reading level to learn, and no sentence to score
        raise UsageError(f"{path} has no text: restore it, or remove the article at all three levels")
    return text


def load_corpus(data_dir: str | Path) -> list[Document]:
    """Every article at every level, sorted by article then level; only articles present at all three."""
    directory = corpus_dir(data_dir)
    by_level = [
        {p.name[: -len(f"-{suffix}.txt")]: p for p in (directory / folder).glob(f"*-{suffix}.txt")}
        for folder, suffix, _ in LEVELS
    ]
    articles = sorted(set.intersection(*(set(paths) for paths in by_level)))
    if not articles:
        raise UsageError(f"{directory} holds no article at all three levels: check the corpus files")
    return [
        Document(article, level, read_text(by_level[level][article], LEVEL_NAMES[level]))
        for article in articles for level in range(len(LEVELS))
    ]


def split_articles(
    articles: Sequence[str], seed: int = 0, fractions: Sequence[float] = DEFAULT_FRACTIONS
) -> dict[str, list[str]]:
    """``{"train": [...], "validation": [...], "test": [...]}``: a seeded shuffle cut by ``fractions``.

    The validation and test parts get ``round(fraction * n)`` articles (at least one each),
    the training part the rest; each part is sorted.
    """
    if len(articles) < 3:
        raise UsageError(f"{len(articles)} articles cannot be split into train, validation and test: give at least 3")
    shuffled = sorted(set(articles))
    random.Random(seed).shuffle(shuffled)
    n_valid = max(1, round(fractions[1] * len(shuffled)))
    n_test = max(1, round(fractions[2] * len(shuffled)))
    parts = {
        "test": shuffled[:n_test],
        "validation": shuffled[n_test : n_test + n_valid],
        "train": shuffled[n_test + n_valid :],
    }
    return {name: sorted(parts[name]) for name in SPLITS}
