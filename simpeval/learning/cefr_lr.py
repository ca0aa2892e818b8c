"""``simpeval train cefr-lr``: the ridge of ``cefr-lr`` (:mod:`simpeval.metrics.cefr_lr`) on the trainer protocol.

Each ReadMe++ language (ar, en, fr, hi, ru) is a dataset of the one selection loop
(:func:`simpeval.learning.loo.leave_one_dataset_out`): a start is a ridge penalty, fitted in one closed-form
epoch on the other languages' train splits and scored on the left-out language's validation split; the
penalty of the best mean r is refitted on every language's train and validation splits. A fold of its
trainer's judged table (``benchmarks/cefr_lr_train.py``) is the same trainer on the other four languages
(:meth:`CefrLrTrainer.without`), so the held-out language's splits never choose its penalty. Imports
nothing heavy (the registry reads this module at start-up).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import simpeval
from simpeval.learning.trainer import Trainer

__all__ = ["ALPHAS", "CHECKPOINT_FILE", "LANGS", "CefrLrTrainer", "load_weights", "ridge", "rows_of"]

LANGS = ("ar", "en", "fr", "hi", "ru")
ALPHAS = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
CHECKPOINT_FILE = "cefr_lr.json"


def ridge(table, target, alpha: float) -> dict:
    """Ridge regression on standardised features (the intercept unpenalised), as ``cefr-lr`` reads it."""
    import numpy as np

    mean, scale = table.mean(axis=0), table.std(axis=0)
    scale[scale == 0] = 1.0
    x = (table - mean) / scale
    coef = np.linalg.solve(x.T @ x + alpha * np.eye(x.shape[1]), x.T @ (target - target.mean()))
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": coef.tolist(), "intercept": float(target.mean())}


def rows_of(readme: dict, langs: Sequence[str], splits: Sequence[str]):
    """``(features, CEFR)`` of the ``splits`` of ``langs``, rows with a non-finite feature left out."""
    import numpy as np

    parts = [(t[np.isin(s, splits)], y[np.isin(s, splits)]) for lang in langs for t, y, s, _ in [readme[lang]]]
    table, target = np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    keep = np.isfinite(table).all(axis=1)
    return table[keep], target[keep]


def load_weights(directory: Path) -> dict:
    """The weights of a checkpoint :class:`CefrLrTrainer` wrote (``mean``, ``scale``, ``coef``, ``intercept``)."""
    path = Path(directory) / CHECKPOINT_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))["weights"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise simpeval.UsageError(f"{path} is not a cefr-lr checkpoint ({exc}): train one with `simpeval train cefr-lr`"
                                  ) from None


class CefrLrTrainer(Trainer):
    """Train cefr-lr (a ridge on seven language-independent features) on ReadMe++, its penalty chosen
    leave-one-language-out."""

    name = "cefr-lr"
    short_help = "Train cefr-lr on ReadMe++ (ar, en, fr, hi, ru), its ridge penalty chosen leave-one-language-out."
    checkpoint_files = (CHECKPOINT_FILE,)
    loader = "simpeval.learning.cefr_lr:load_weights"
    fits_rated = True

    def __init__(self, data_dir: Path | None = None, langs: Sequence[str] = LANGS) -> None:
        super().__init__(data_dir)
        self.langs, self.readme = list(langs), None

    def data(self, log) -> None:
        """Per language: (features, CEFR, split of each item, dataset)."""
        if self.readme is not None:
            return
        import numpy as np

        from simpeval.datadir import resolve_data_dir
        from simpeval.metrics.cefr_lr import features
        from simpeval.registry import load_registry

        registry, data_dir, self.readme = load_registry(), resolve_data_dir(self.data_dir), {}
        for lang in LANGS:
            dataset = registry.dataset_class(f"readmepp-{lang}")(data_dir)
            table = np.array([features(t, lang) for t in dataset.outputs])
            self.readme[lang] = (table, dataset.human_scores("cefr"), np.array(dataset.item_splits()), dataset)

    def rated(self):
        from simpeval.learning.loo import Rated

        return Rated({lang: rows_of(self.readme, [lang], ["validation"])[1] for lang in self.langs}, {})

    def starts(self) -> Sequence[float]:
        return ALPHAS

    def start(self, alpha: float, without: str | None) -> None:
        """Fitted on the other languages' train splits (None: on every language's train and validation splits)."""
        langs = [lang for lang in self.langs if lang != without]
        self.weights = ridge(*rows_of(self.readme, langs, ["train"] if without else ["train", "validation"]), alpha)

    def fit_epoch(self) -> bool:
        return True  # closed form

    def predict(self, names):
        from simpeval.metrics.cefr_lr import predict

        return {lang: predict(rows_of(self.readme, [lang], ["validation"])[0], self.weights) for lang in names}

    def candidate(self, alpha: float, epoch: int) -> str:
        return f"{alpha:g}"

    def finish(self, kept: str | None) -> None:
        self.alpha = float(kept)
        self.start(self.alpha, None)

    def penalties(self) -> dict[float, float]:
        """Each penalty's mean left-out r over the languages."""
        import numpy as np

        return {float(c): float(np.mean([per[lang] for lang in self.langs])) for c, per in self.choice.table.items()}

    def without(self, lang: str) -> CefrLrTrainer:
        """The same trainer on the other languages only, fitted (a fold of the judged table)."""
        from simpeval.learning.trainer import fit

        return fit(CefrLrTrainer.given({"langs": [x for x in self.langs if x != lang]}, readme=self.readme))

    def save(self, directory: Path) -> None:
        from simpeval.cache import write_atomic
        from simpeval.metrics.cefr_lr import FEATURES

        record: dict[str, Any] = {"features": list(FEATURES), "weights": self.weights, "alpha": self.alpha,
                                  "languages": self.langs, "penalties": {f"{a:g}": r for a, r in self.penalties().items()}}
        Path(directory).mkdir(parents=True, exist_ok=True)
        write_atomic(Path(directory) / CHECKPOINT_FILE, json.dumps(record, indent=1) + "\n")

    def report(self, directory: Path, log) -> None:
        log("ridge penalty by mean left-out r: " + ", ".join(f"{a:g}: {r:.3f}" for a, r in self.penalties().items())
            + f"; {self.alpha:g} kept, fitted on every language's train and validation splits; checkpoint in {directory}")


@simpeval.hookimpl
def simpeval_register_trainers():
    return [CefrLrTrainer]
