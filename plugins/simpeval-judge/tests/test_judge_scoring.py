"""The score's arithmetic on a tiny random Llama: the expected rating equals a hand computation from the
model's logits, left-padded batches equal rows scored alone, and the jury's sums give numpy's statistics."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from simpeval.encoding import TextEncoder
from simpeval_judge import prompts, scoring
from simpeval_judge.metrics import Judge, Jury, pearson_from_sums
from simpeval_judge.testing import OUTPUTS, SOURCES


def by_hand(directory: str, source: str, output: str, aspect="simplicity", unit="sentence", shots=0, chat=True):
    """(expected rating, answer mass) from one unpadded forward pass of transformers itself."""
    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForCausalLM.from_pretrained(directory).eval()
    message = prompts.render(prompts.template(aspect, unit, shots, chat), source, output)
    if chat:
        text = tokenizer.apply_chat_template([{"role": "user", "content": message}], tokenize=False,
                                             add_generation_prompt=True)
        ids = tokenizer(text, add_special_tokens=False, return_tensors="pt")["input_ids"]
    else:
        ids = tokenizer(message, return_tensors="pt")["input_ids"]
    with torch.no_grad():
        logits = model(input_ids=ids).logits[0, -1].double()
    digits = [tokenizer.convert_tokens_to_ids(d) for d in "12345"]
    z = logits[digits].tolist()
    exp = [math.exp(v - max(z)) for v in z]
    p = [e / sum(exp) for e in exp]
    mass = sum(math.exp(v) for v in z) / float(torch.exp(logits).sum())
    return sum(k * pk for k, pk in zip(range(1, 6), p)), mass


@pytest.mark.parametrize("settings", [{}, {"chat": False}, {"aspect": "fluency", "shots": 1},
                                      {"aspect": "meaning", "unit": "document"}])
def test_expected_rating_equals_the_hand_computation(tiny_llm, settings):
    judge = Judge(model=tiny_llm, device="cpu", **settings)
    scores = judge.sentence_scores(SOURCES[:3], OUTPUTS[:3])
    for i in range(3):
        rating, mass = by_hand(tiny_llm, SOURCES[i], OUTPUTS[i], **settings)
        assert scores["judge"][i] == pytest.approx(rating, abs=1e-6)
        assert scores["judge-mass"][i] == pytest.approx(mass, rel=1e-5)
    assert len(set(scores["judge"])) == 3 and all(1 <= s <= 5 for s in scores["judge"])


def test_expected_rating_formula():
    logits = torch.tensor([[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 50.0], [1.0, 2.0, 3.0, 4.0, 5.0]])
    expected = scoring.expected_rating(logits).tolist()
    weights = np.exp([1.0, 2.0, 3.0, 4.0, 5.0])
    assert expected[:2] == pytest.approx([3.0, 5.0]) and expected[2] == pytest.approx(
        float((weights / weights.sum()) @ np.arange(1, 6)))
    assert scoring.answer_mass(logits[:1], torch.tensor([math.log(10.0)])).item() == pytest.approx(0.5)


def test_left_padded_batches_equal_rows_scored_alone(tiny_llm):
    tokenizer = AutoTokenizer.from_pretrained(tiny_llm)
    model = AutoModelForCausalLM.from_pretrained(tiny_llm).eval()
    ids = scoring.answer_ids(tokenizer)
    texts = [prompts.render(prompts.template("simplicity", chat=False), s, o) for s, o in zip(SOURCES, OUTPUTS)]
    assert len({len(tokenizer(t)["input_ids"]) for t in texts}) > 3  # padding happens

    def tokenize(batch):
        return [{"input_ids": row} for row in tokenizer(batch)["input_ids"]]

    def encoder(batch_size, same_length):
        return TextEncoder(model, tokenize, scoring.last_token_reader(ids), pad_id=tokenizer.pad_token_id,
                           batch_size=batch_size, same_length=same_length)

    alone = scoring.ratings(encoder(1, True).encode(texts))
    padded = scoring.ratings(encoder(4, False).encode(texts))
    np.testing.assert_allclose(padded[0], alone[0], atol=1e-5)
    np.testing.assert_allclose(padded[1], alone[1], rtol=1e-4)


def test_answer_ids_must_be_single_tokens():
    class Splitting:
        def encode(self, text, add_special_tokens=False):
            return [1, 2]

    from simpeval import UsageError

    with pytest.raises(UsageError, match='spells the answer "1" as 2 tokens'):
        scoring.answer_ids(Splitting())


def test_jury_mean_spread_and_agreement(tiny_llm, tiny_llm_b):
    a = Judge(model=tiny_llm, device="cpu").sentence_scores(SOURCES, OUTPUTS)["judge"]
    b = Judge(model=tiny_llm_b, device="cpu").sentence_scores(SOURCES, OUTPUTS)["judge"]
    jury = Jury(models=f"{tiny_llm}+{tiny_llm_b}", device="cpu")
    items = jury.sentence_scores(SOURCES, OUTPUTS)
    np.testing.assert_allclose(items["jury"], (np.array(a) + np.array(b)) / 2, atol=1e-12)
    np.testing.assert_allclose(items["jury-sd"], np.std([a, b], axis=0), atol=1e-12)  # the judges' own spread
    assert all(math.isnan(x) for x in items["jury-agreement"])  # one item has no correlation
    corpus = jury.corpus_score(SOURCES, OUTPUTS)
    assert corpus["jury"] == pytest.approx(np.mean([a, b]))
    assert corpus["jury-sd"] == pytest.approx(np.mean(np.std([a, b], axis=0)))
    assert corpus["jury-agreement"] == pytest.approx(np.corrcoef(a, b)[0, 1], abs=1e-9)


def test_three_judges_agree_as_the_mean_pairwise_pearson(tiny_llm, tiny_llm_b):
    jury = Jury(models=f"{tiny_llm}+{tiny_llm_b}+{tiny_llm}", device="cpu")
    a = Judge(model=tiny_llm, device="cpu").sentence_scores(SOURCES, OUTPUTS)["judge"]
    b = Judge(model=tiny_llm_b, device="cpu").sentence_scores(SOURCES, OUTPUTS)["judge"]
    r = np.corrcoef(a, b)[0, 1]
    assert jury.corpus_score(SOURCES, OUTPUTS)["jury-agreement"] == pytest.approx((r + 1 + r) / 3, abs=1e-9)


def test_pearson_from_sums():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=50), rng.normal(size=50)
    r = pearson_from_sums(50, x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum())
    assert r == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert math.isnan(pearson_from_sums(3, 3, 6, 3, 14, 6))  # x constant
    assert math.isnan(pearson_from_sums(1, 1, 2, 1, 4, 2))


def test_on_the_cpu_a_pass_holds_at_most_the_token_bound(tiny_llm, monkeypatch):
    """The largest forward pass sets a judge run's peak memory: on the CPU it holds at most
    ``CPU_TOKENS_PER_PASS`` tokens (prompts x length), and the ratings are those of unbounded passes."""
    from simpeval_judge.metrics import _as_prompt

    assert scoring.CPU_TOKENS_PER_PASS == 2048
    sources = [SOURCES[0]] * 8
    outputs = [f"The {word} sat ." for word in ("cat", "dog", "mat", "one", "go", "far", "long", "sentence")]
    tokenizer = AutoTokenizer.from_pretrained(tiny_llm)
    length, = {len(tokenizer(_as_prompt(tokenizer, prompts.render(prompts.template("simplicity"), s, o), True),
                             add_special_tokens=False)["input_ids"]) for s, o in zip(sources, outputs)}
    shapes = []
    reader = scoring.last_token_reader

    def recording(ids, beginnings=()):
        forward = reader(ids, beginnings)

        def recorded(model, batch):
            shapes.append(tuple(batch["input_ids"].shape))
            return forward(model, batch)

        return recorded

    monkeypatch.setattr(scoring, "last_token_reader", recording)
    whole = Judge(model=tiny_llm, device="cpu").sentence_scores(sources, outputs)
    assert shapes == [(8, length)]  # eight short prompts: one pass, under the bound
    shapes.clear()
    monkeypatch.setattr(scoring, "CPU_TOKENS_PER_PASS", 3 * length)
    bounded = Judge(model=tiny_llm, device="cpu").sentence_scores(sources, outputs)
    assert shapes == [(3, length), (3, length), (2, length)]
    np.testing.assert_allclose(bounded["judge"], whole["judge"], atol=1e-6)
    np.testing.assert_allclose(bounded["judge-mass"], whole["judge-mass"], rtol=1e-5)


@pytest.mark.parametrize("chat", [True, False])
def test_a_kept_beginning_gives_the_ratings_of_the_whole_prompt(tiny_llm, chat):
    """Rows that start with a rubric's fixed beginning are computed after it, on its kept keys and values (read
    once); their ratings are those of the whole prompt within the judge's 1e-4 contract. Rows that do not start
    with it are read whole."""
    from simpeval_judge.metrics import _as_prompt, fixed_beginning

    tokenizer = AutoTokenizer.from_pretrained(tiny_llm)
    model = AutoModelForCausalLM.from_pretrained(tiny_llm).eval()
    ids = scoring.answer_ids(tokenizer)
    text = prompts.template("simplicity", chat=chat)
    beginning = fixed_beginning(tokenizer, text, chat)
    rows = [tokenizer(_as_prompt(tokenizer, prompts.render(text, s, o), chat), add_special_tokens=not chat)["input_ids"]
            for s, o in zip(SOURCES[:2], OUTPUTS[:2])]
    batch = torch.tensor([row[:min(map(len, rows))] for row in rows])  # one length, as on the CPU
    assert len(beginning) > 10 and all(row[:len(beginning)] == beginning for row in batch.tolist())
    known = scoring._Beginnings([beginning, beginning[:5]])
    assert known.shared_by(batch) == tuple(beginning)  # the longest that every row starts with
    assert known.shared_by(batch.flip(1)) is None
    with torch.no_grad():
        full = scoring.last_token_reader(ids)(model, {"input_ids": batch, "attention_mask": torch.ones_like(batch)})
        kept = scoring.last_token_reader(ids, [beginning])
        once = kept(model, {"input_ids": batch, "attention_mask": torch.ones_like(batch)})
        again = kept(model, {"input_ids": batch, "attention_mask": torch.ones_like(batch)})
    want, got = scoring.ratings(full), scoring.ratings(once)
    np.testing.assert_allclose(got[0], want[0], atol=1e-4)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-4)
    assert scoring.ratings(again) == got  # the kept states, reused unchanged
    assert len(set(want[0])) == 2
