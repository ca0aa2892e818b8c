"""``device=`` on sle, sle-delta and sledoc (issue 28: lens-mini and sle took none): the encoder runs where it
is told, the head on the CPU; a device that is malformed or absent is one line; it is no part of the signature."""

from __future__ import annotations

import pytest
import torch

from simpeval.errors import UsageError
from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, golden_scores
from simpeval_sle import plugin


def _metric(name, **options):
    return load_registry(autoload=False, plugins=[plugin]).create_metric(name, options)


@pytest.mark.parametrize("name", ["sle", "sle-delta", "sledoc"])
def test_device_is_an_option_outside_the_signature(name):
    assert "device" in _metric(name).options
    assert _metric(name, device="cpu").signature() == _metric(name).signature()
    with pytest.raises(UsageError, match=f'device "tpu" for {name} is not cpu, cuda, cuda:N or mps'):
        _metric(name, device="tpu")


@pytest.mark.parametrize("name", ["sle", "sle-delta"])
def test_the_encoder_runs_on_the_device_given_with_the_same_scores(name):
    default = golden_scores(_metric(name), GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)
    on_cpu = golden_scores(_metric(name, device="cpu"), GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)
    assert on_cpu[name][1] == pytest.approx(default[name][1], abs=0 if not torch.cuda.is_available() else 1e-3)
    if torch.cuda.is_available():  # a GPU machine: the same numbers to float32 noise
        on_gpu = golden_scores(_metric(name, device="cuda"), GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)
        assert on_gpu[name][1] == pytest.approx(default[name][1], abs=1e-3)
    else:
        with pytest.raises(UsageError, match='device "cuda" asked for but no CUDA GPU is available here'):
            golden_scores(_metric(name, device="cuda"), GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)
