"""SummaC-Conv (Laban et al. 2022): a learned layer over histograms of NLI probabilities.

For each hypothesis sentence, the column of entailment probabilities over the
premise chunks becomes a histogram of fixed bins (the "convolution": one
linear unit applied to every column's histogram); the per-sentence values are
averaged, and a final linear layer with a softmax turns the average into the
probability that the text pair is consistent.

The weights are trained: this module reads them from a file the user gives
(:func:`load_conv_layer`). The released file ``summac_conv_vitc_sent_perc_e.bin``
(tingofurro/summac) is a ``torch.save``-d state dict with four tensors:
``mlp.weight`` (1 x n_bins*len(labels)), ``mlp.bias`` (1), ``layer_final.weight``
(2 x 3) and ``layer_final.bias`` (2), trained with ``bins="percentile"``,
``labels="e"``, sentence granularity and the NLI model
``tals/albert-xlarge-vitaminc-mnli``. The histograms only mean what the layer
learned when they come from that same NLI model: weights fit the model they
were trained with, and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simpeval import UsageError, models
from simpeval_faithfulness.matrices import EntailmentMatrix

PERCENTILE_BINS = (
    0.0, 0.01, 0.02, 0.03, 0.04, 0.07, 0.13, 0.37, 0.90, 0.91, 0.92, 0.93, 0.94, 0.95,
    0.955, 0.96, 0.965, 0.97, 0.975, 0.98, 0.985, 0.99, 0.995, 1.0,
)
"""SummaC's bin edges, from percentiles of entailment probabilities on many summaries (23 bins)."""


def parse_bins(spec: str) -> np.ndarray:
    """Bin edges for ``"percentile"`` (SummaC's released setting) or ``"evenN"`` (N equal bins on [0, 1])."""
    if spec == "percentile":
        return np.array(PERCENTILE_BINS)
    match = re.fullmatch(r"even(\d+)", spec)
    if match and int(match.group(1)) > 0:
        return np.linspace(0.0, 1.0, int(match.group(1)) + 1)
    raise UsageError(f'bins="{spec}" is not understood: pass bins=percentile or bins=evenN (e.g. even50)')


@dataclass(frozen=True)
class ConvLayer:
    """The trained part of SummaC-Conv.

    :param bins: histogram bin edges on [0, 1] (``len(bins) - 1`` bins, the last one closed).
    :param labels: which probabilities are histogrammed, concatenated in the order given:
        ``e`` (entailment), ``c`` (contradiction), ``n`` (neutral), e.g. ``"e"`` or ``"ec"``.
    :param row_weight: the weights of the unit applied to each sentence's histogram row.
    :param row_bias: its bias.
    :param final_weight: the 2 x 3 output layer (its three inputs all receive the mean row value).
    :param final_bias: the output layer's two biases; class 1 is "consistent".
    """

    bins: np.ndarray
    labels: str
    row_weight: np.ndarray
    row_bias: float
    final_weight: np.ndarray
    final_bias: np.ndarray

    def histograms(self, matrix: EntailmentMatrix) -> np.ndarray:
        """One row per hypothesis sentence: the histograms of its premise-chunk probabilities."""
        channels = {"e": matrix.entailment, "c": matrix.contradiction, "n": matrix.neutral}
        n_sentences = matrix.entailment.shape[1]
        rows = [
            np.concatenate([np.histogram(channels[label][:, j], bins=self.bins)[0] for label in self.labels])
            for j in range(n_sentences)
        ]
        return np.array(rows, dtype=float).reshape(n_sentences, -1)

    def score(self, matrix: EntailmentMatrix) -> float:
        """The probability of class 1 ("consistent") for one text pair.

        When either text has no sentence, the mean row value is taken as 0, as
        the release does for a histogram with no non-empty row.
        """
        if matrix.is_empty:
            mean_row = 0.0
        else:
            mean_row = float(np.mean(self.histograms(matrix) @ self.row_weight + self.row_bias))
        logits = self.final_weight @ np.full(3, mean_row) + self.final_bias
        logits = logits - logits.max()
        return float(np.exp(logits[1]) / np.exp(logits).sum())


def load_conv_layer(path: str, bins: str = "percentile", labels: str = "e") -> ConvLayer:
    """Read a SummaC-Conv state dict (``torch.save`` format) and check its shapes.

    :raises UsageError: when the file cannot be read or does not fit ``bins`` and ``labels``.
    """
    edges = parse_bins(bins)
    state = models.load_torch_state(path, option="weights")
    expected = {
        "mlp.weight": (1, (len(edges) - 1) * len(labels)),
        "mlp.bias": (1,),
        "layer_final.weight": (2, 3),
        "layer_final.bias": (2,),
    }
    for key, shape in expected.items():
        if not isinstance(state, dict) or key not in state:
            raise UsageError(
                f'SummaC-Conv weights "{path}" have no {key}: pass weights=PATH to a SummaC-Conv state dict'
            )
        if tuple(state[key].shape) != shape:
            raise UsageError(
                f'SummaC-Conv weights "{path}": {key} has shape {tuple(state[key].shape)}, expected {shape} for '
                f"bins={bins}, labels={labels}: pass the bins and labels the weights were trained with"
            )
    array = {key: state[key].detach().double().numpy() for key in expected}
    return ConvLayer(
        bins=edges,
        labels=labels,
        row_weight=array["mlp.weight"][0],
        row_bias=float(array["mlp.bias"][0]),
        final_weight=array["layer_final.weight"],
        final_bias=array["layer_final.bias"],
    )
