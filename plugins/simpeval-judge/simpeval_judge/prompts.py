"""The judge's rubric prompts: one template per aspect, unit (sentence or document), number of shots and
chat mode, and the hash of each, which the signature shows (``template:<8 hex>``).

A template is plain text with two fields, ``{source}`` and ``{output}``; :func:`template` gives it and
:func:`render` fills it. The text follows G-Eval (Liu et al. 2023) as Maddela & Alva-Manchego (2025)
use it for simplification: a task line, the criterion with its 1-5 scale, the evaluation steps, then
the texts and a request for one digit. The one-shot versions add one rated example before the texts
(examples written for simpeval, not taken from any rated dataset). Fluency shows the simplified text
alone: it is a property of the output.

In chat mode the template is the user's message (the model's chat template wraps it, and the answer is
the assistant's first token); without, the model continues the text after ``Rating: ``. Either way the
rating is the next token, whose probabilities over "1" to "5" give the score (:mod:`simpeval_judge.scoring`).

Any edit to the text below changes the hash of the templates it enters, hence the signature and the
cache key: scores from another prompt are never served as these.
"""

from __future__ import annotations

import hashlib

ASPECTS = ("simplicity", "meaning", "fluency")
UNITS = ("sentence", "document")
SHOTS = (0, 1)
TEMPLATE_HASH_LENGTH = 8

_NOUN = {"sentence": "sentence", "document": "text"}

_CRITERIA = {
    "simplicity": (
        "Simplicity",
        "Simplicity (1-5): how much easier to read and understand the simplified {noun} is than the original "
        "{noun}, for a reader with limited reading skills: simpler and more common words, shorter sentences, "
        "less complex structure.\n"
        "1: not simpler than the original at all, or harder to read.\n"
        "2: slightly simpler.\n"
        "3: somewhat simpler.\n"
        "4: clearly simpler.\n"
        "5: much simpler, easy to read for everyone.",
        "Compare the words and the sentence structure of the two {noun}s and decide how much simpler the "
        "simplified {noun} is.",
    ),
    "meaning": (
        "Meaning preservation",
        "Meaning preservation (1-5): how well the simplified {noun} keeps the meaning of the original {noun}: "
        "its main ideas, without changing them and without adding information the original does not give.\n"
        "1: the meaning is lost or changed.\n"
        "2: much of the important information is lost or changed.\n"
        "3: some important information is lost or changed.\n"
        "4: only minor details are lost.\n"
        "5: all of the important meaning is kept.",
        "Find the main ideas of the original {noun} and check whether the simplified {noun} keeps each of "
        "them, and whether it adds or changes anything.",
    ),
    "fluency": (
        "Fluency",
        "Fluency (1-5): whether the {noun} is well-formed, grammatical and natural{document_clause}.\n"
        "1: ungrammatical or incomprehensible.\n"
        "2: many errors; hard to understand.\n"
        "3: understandable, with some errors.\n"
        "4: nearly fluent, with minor errors.\n"
        "5: perfectly fluent.",
        "Read the {noun} and look for grammatical errors, unnatural wording{document_steps}.",
    ),
}

_EXAMPLES = {
    "sentence": {
        "source": "The committee postponed its decision owing to the insufficiency of the evidence presented.",
        "output": "The group delayed its decision because there was not enough evidence.",
        "ratings": {"simplicity": 4, "meaning": 5, "fluency": 5},
    },
    "document": {
        "source": (
            "The municipal council has approved the construction of a new library, which is expected to open "
            "in the autumn of next year. The building, designed by a local architect, will accommodate "
            "approximately 40,000 volumes. Funding was obtained through a combination of regional grants and "
            "private donations."
        ),
        "output": (
            "The town council has agreed to build a new library. It should open next autumn. The library will "
            "hold about 40,000 books."
        ),
        "ratings": {"simplicity": 4, "meaning": 3, "fluency": 5},
    },
}


def _texts(aspect: str, unit: str, source: str, output: str) -> str:
    noun = _NOUN[unit]
    if aspect == "fluency":
        return f"{noun.capitalize()}: {output}"
    return f"Original {noun}: {source}\nSimplified {noun}: {output}"


def _braced(text: str) -> str:
    """``text`` with its braces doubled, so that :meth:`str.format` leaves them as they are."""
    return text.replace("{", "{{").replace("}", "}}")


def template(aspect: str, unit: str = "sentence", shots: int = 0, chat: bool = True) -> str:
    """The prompt template (fields ``{source}`` and ``{output}``) of one aspect, unit, shot count and chat mode.

    :raises ValueError: for an aspect, unit or number of shots the judge does not have.
    """
    if aspect not in ASPECTS or unit not in UNITS or shots not in SHOTS:
        raise ValueError(f"no template for aspect={aspect!r}, unit={unit!r}, shots={shots!r}")
    noun = _NOUN[unit]
    document = unit == "document"
    fields = {
        "noun": noun,
        "document_clause": ": its sentences connect into a coherent text, without repetition" if document else "",
        "document_steps": ", repetitions and sentences that do not connect" if document else "",
    }
    title, criterion, step = (part.format(**fields) for part in _CRITERIA[aspect])
    if aspect == "fluency":
        task = f"You will be given a {noun} written by a system that simplifies texts."
        what = f"the {noun}"
    else:
        task = f"You will be given an original {noun} and a simplified version of it, written by a system."
        what = f"the simplified {noun}"
    parts = [
        task,
        f"Your task is to rate {what} on one criterion: {title.lower()}.",
        "Evaluation criterion:\n" + criterion,
        "Evaluation steps:\n"
        f"1. Read {'the ' + noun if aspect == 'fluency' else f'the original {noun} and the simplified {noun}'} "
        "carefully.\n"
        f"2. {step}\n"
        "3. Give a rating from 1 to 5.",
    ]
    if shots:
        example = _EXAMPLES[unit]
        shown = _texts(aspect, unit, example["source"], example["output"])
        parts.append(f"Example:\n{_braced(shown)}\nRating: {example['ratings'][aspect]}")
    parts.append(_texts(aspect, unit, "{source}", "{output}"))
    parts.append("Answer with one digit from 1 to 5.")
    text = "\n\n".join(parts)
    return text if chat else text + "\nRating: "


def template_hash(aspect: str, unit: str = "sentence", shots: int = 0, chat: bool = True) -> str:
    """The first :data:`TEMPLATE_HASH_LENGTH` hex digits of the sha256 of :func:`template`'s text (UTF-8)."""
    text = template(aspect, unit, shots, chat)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:TEMPLATE_HASH_LENGTH]


def render(text: str, source: str, output: str) -> str:
    """``text`` (a :func:`template`) with the source and output filled in (their braces kept as they are)."""
    return text.format(source=source, output=output)
