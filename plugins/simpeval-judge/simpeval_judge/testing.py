"""A tiny causal LM for the judge's tests: a random 2-layer Llama whose word-level tokenizer reads each
digit as one token and has a chat template, saved with ``save_pretrained`` (no download, seconds to build)."""

from __future__ import annotations

import re
from pathlib import Path

from simpeval_judge import prompts

CHAT_TEMPLATE = ("{% for message in messages %}<|user|> {{ message['content'] }} <|end|>{% endfor %}"
                 "{% if add_generation_prompt %} <|assistant|>{% endif %}")
# Texts the tests score: every word is in the tiny model's vocabulary (``words``).
WORDS = ["The", "cat", "sat", "on", "the", "mat", "A", "dog", "ran", "far", "away", "It", "is", "a", "long", "and",
         "complex", "sentence", "short", "one", "Birds", "fly", "south", "in", "winter", "They", "go"]
SOURCES = ["The cat sat on the mat .", "A dog ran far away .", "It is a long and complex sentence .",
           "Birds fly south in winter .", "The dog sat .", "The cat ran on the mat and the dog sat ."]
OUTPUTS = ["The cat sat .", "A dog ran .", "It is a short one .", "Birds go south .", "The dog sat .",
           "The cat ran ."]

SPECIAL = ["<unk>", "<pad>", "<s>", "</s>", "<|user|>", "<|assistant|>", "<|end|>"]


def save_tiny_llm(directory: str | Path, seed: int = 0, words: list[str] | None = None, chat: bool = True) -> str:
    """Write the tiny model to ``directory`` and return its path; ``seed`` draws its weights.

    The vocabulary: the special tokens, the ten digits, every word of every judge template, and ``words``.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    texts = [prompts.template(a, u, s, c) for a in prompts.ASPECTS for u in prompts.UNITS for s in prompts.SHOTS
             for c in (True, False)] + list(words or [])
    found = sorted({w for text in texts for w in re.findall(r"\w+|[^\w\s]", text)} - set("0123456789"))
    vocab = {token: i for i, token in enumerate([*SPECIAL, *"0123456789", *found])}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(),
                                                     pre_tokenizers.Digits(individual_digits=True)])
    backend.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>",
                                        bos_token="<s>", eos_token="</s>",
                                        additional_special_tokens=["<|user|>", "<|assistant|>", "<|end|>"])
    if chat:
        tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(str(directory))
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                         pad_token_id=vocab["<pad>"], bos_token_id=vocab["<s>"], eos_token_id=vocab["</s>"])
    model = LlamaForCausalLM(config).eval()
    with torch.no_grad():  # logits of a few units, so that the ratings differ between prompts
        model.lm_head.weight.mul_(20)
    model.save_pretrained(str(directory))
    return str(directory)
