"""``device=`` on lens-mini and lens-cla-mini (issue 28: they took none): the encoder runs where it is told,
the head on the CPU; a device that is malformed or absent is one line; it is no part of the signature."""

from __future__ import annotations

import pytest
import torch

from simpeval.errors import UsageError
from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, GOLDEN_REFERENCES, golden_scores
from simpeval_lens import plugin


def _metric(name, **options):
    return load_registry(autoload=False, plugins=[plugin]).create_metric(name, options)


def _scores(metric):
    return golden_scores(metric, GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, GOLDEN_REFERENCES)


@pytest.mark.parametrize("name", ["lens-mini", "lens-cla-mini"])
def test_device_is_an_option_outside_the_signature(name):
    assert "device" in _metric(name).options
    assert _metric(name, device="cpu").signature() == _metric(name).signature()
    with pytest.raises(UsageError, match=f'device "tpu" for {name} is not cpu, cuda, cuda:N or mps'):
        _metric(name, device="tpu")


@pytest.mark.parametrize("name", ["lens-mini", "lens-cla-mini"])
def test_the_encoder_runs_on_the_device_given_with_the_same_scores(name):
    default = _scores(_metric(name))
    on_cpu = _scores(_metric(name, device="cpu"))
    assert on_cpu[name][1] == pytest.approx(default[name][1], abs=0 if not torch.cuda.is_available() else 1e-2)
    if torch.cuda.is_available():  # a GPU machine: the same numbers to float32 noise (0-100 scale)
        assert _scores(_metric(name, device="cuda"))[name][1] == pytest.approx(default[name][1], abs=1e-2)
    else:
        with pytest.raises(UsageError, match='device "cuda" asked for but no CUDA GPU is available here'):
            _scores(_metric(name, device="cuda"))
