"""The ``lens`` (the authors' checkpoint), ``lens-mini`` and ``lens-cla-mini`` (trained here) metrics, the
deprecated ``lens-cla``, and their trainers (``simpeval train lens-mini`` / ``lens-cla-mini``).

Nothing heavy is imported here: torch and transformers load when a metric first scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import simpeval
from simpeval import models
from simpeval.encoding import check_device
from simpeval_lens import __version__
from simpeval_lens.settings import CONFIG_FILE

SHIPPED = "shipped"
CHECKPOINTS = Path(__file__).parent / "checkpoints"


class LensMini(simpeval.Metric):
    """lens-mini: a LENS head trained here on frozen MiniLM embeddings (0-100, higher is better).

    Not the published LENS (that is ``lens``): the shipped checkpoint is a feed-forward head on
    frozen MiniLM trained on SimpEval_past (see ``checkpoints/MODEL_CARD.md``); ``checkpoint=DIR``
    loads one written by ``simpeval train lens-mini``. An output is scored against each reference; the
    best counts.
    """

    name = "lens-mini"
    description = "LENS-style head on frozen MiniLM, trained here on SimpEval_past (not the published LENS)"
    requires_references = True
    neural = True
    version = __version__
    trained_on = ("simpeval-past",)
    model_card = str(CHECKPOINTS / "MODEL_CARD.md")
    shipped_directory = "lens"
    trainer = "lens-mini"  # the `simpeval train` command that writes this metric's checkpoints
    options = {
        "checkpoint": simpeval.Option(
            str, default=SHIPPED, path=True, help="a directory written by `simpeval train`; 'shipped': the packaged one"),
        "batch_size": simpeval.Option(int, default=32, help="texts per encoder pass", in_signature=False),
        "device": simpeval.Option(str, default=None, help="the encoder's: cpu, cuda, cuda:N or mps (default: cuda if "
                                  "available)", in_signature=False),
    }

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise simpeval.UsageError(f'option "batch_size" must be at least 1, got {self.batch_size}')
        check_device(self.device, self.name)

    @classmethod
    def locate_model(cls, option_name: str, value: object) -> Path:
        """Where checkpoint ``value`` lives: the packaged one for ``shipped``, else the path given."""
        return CHECKPOINTS / cls.shipped_directory if value == SHIPPED else Path(str(value))

    def directory(self) -> Path:
        """Where this metric's checkpoint lives (:meth:`locate_model`)."""
        return self.locate_model("checkpoint", self.checkpoint)

    def fingerprint(self, option_name: str, value: object) -> str:
        """The checkpoint (``shipped`` for the packaged one) and the encoder it names, by content."""
        option = f"{self.name}:checkpoint"
        encoder, encoder_hash = models.checkpoint_encoder_reference(self.directory(), CONFIG_FILE, option)
        return models.checkpoint_fingerprint(self.directory(), encoder, option, label=SHIPPED if value == SHIPPED else None,
                                             encoder_hash=encoder_hash, command=f"simpeval train {self.trainer}")

    def model(self):
        """The checkpoint's head, read by the trainer class it names (:func:`~simpeval.learning.trainer.load_from_checkpoint`),
        kept by the metric's run under the checkpoint's content hash."""
        from simpeval.learning.trainer import load_from_checkpoint

        directory = self.directory()
        key = ("lens-head", models.content_hash(models.locate(directory, f"{self.name}:checkpoint")))
        return self.run.resource(key, lambda: load_from_checkpoint(directory, simpeval_register_trainers()))

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        if not sources:
            return {self.name: []}
        from simpeval_lens.inference import lens_scores

        return {self.name: lens_scores(self.model(), sources, outputs, references, self.batch_size, run=self.run,
                                       device=self.device)}


class LensClaMini(LensMini):
    """lens-cla-mini: the context/literacy-aware head of Kwak et al. (2024), variant E+R+S, trained here on frozen MiniLM."""

    name = "lens-cla-mini"
    description = "context/literacy-aware LENS head (Kwak et al. 2024) on frozen MiniLM, trained here on SimpEval_past"
    shipped_directory = "lens-cla"
    trainer = "lens-cla-mini"


class LensCla(LensClaMini):
    """``lens-cla``: the former name of ``lens-cla-mini``, kept for one release with a deprecation warning."""

    name = "lens-cla"
    description = "deprecated name of lens-cla-mini"

    def __init__(self, **settings) -> None:
        deprecated("lens-cla", "lens-cla-mini")
        super().__init__(**settings)


class _Published(simpeval.Metric):
    """A metric over the authors' published checkpoint (``hparams.yaml`` + ``checkpoints/*.ckpt``)."""

    neural = True
    version = __version__
    hub_id = ""
    instead = ""  # what works without the weights, said in the missing-weights line
    model_class = None  # the simpeval_lens.published class that rebuilds the network

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise simpeval.UsageError(f'option "batch_size" must be at least 1, got {self.batch_size}')
        self._model = None

    @classmethod
    def published_options(cls, hub_id: str, extra: dict | None = None) -> dict:
        return {
            "checkpoint": simpeval.Option(
                str, default=hub_id, path=True,
                help="the authors' checkpoint: a directory (hparams.yaml + checkpoints/*.ckpt), a hub id, or the .ckpt"),
            "encoder": simpeval.Option(
                str, default=None, in_signature=False,  # its config and tokenizer enter the checkpoint's fingerprint
                help="the encoder's config and tokenizer (default: the checkpoint's pretrained_model, e.g. roberta-large)"),
            **(extra or {}),
            "batch_size": simpeval.Option(int, default=16, help="texts per encoder pass", in_signature=False),
        }

    def missing_message(self) -> str:
        """One line: the weights are missing, and where to put them."""
        from simpeval.models import hub_cache_dir

        repo = f"models--{self.hub_id.replace('/', '--')}"
        return (f"the authors' {self.name.upper()} weights are not installed: put their checkpoint directory "
                f"(hparams.yaml + checkpoints/*.ckpt, from https://huggingface.co/{self.hub_id}) anywhere and pass "
                f"-m {self.name}:checkpoint=DIR, or into the Hugging Face cache as "
                f"{hub_cache_dir() / repo}/snapshots/REVISION/" + (f" ({self.instead})" if self.instead else ""))

    @classmethod
    def missing_weights(cls) -> list[str]:
        """The default checkpoint when the hub cache lacks it in the authors' layout (cheap: no torch)."""
        from simpeval_lens.published import read_layout

        try:
            read_layout(cls.hub_id, f"{cls.name}:checkpoint", "missing")
        except simpeval.UsageError:
            return [cls.hub_id]
        return []

    def layout(self):
        from simpeval_lens.published import read_layout

        return read_layout(self.checkpoint, f"{self.name}:checkpoint", self.missing_message())

    def fingerprint(self, option_name: str, value: object) -> str:
        """The checkpoint files and the encoder's config and tokenizer, by content (the encoder option folds in)."""
        from simpeval_lens.published import encoder_name, fingerprint

        layout = self.layout()
        label = self.hub_id if value == self.hub_id else Path(str(value)).name
        return fingerprint(layout, encoder_name(layout, self.encoder), label, f"{self.name}:checkpoint")

    def model(self):
        if self._model is None:
            from simpeval_lens import published

            layout = self.layout()
            build = getattr(published, self.model_class)
            self._model = build(layout, published.encoder_name(layout, self.encoder), f"{self.name}:checkpoint")
        return self._model


class Lens(_Published):
    """LENS (Maddela et al. 2023) with the authors' published checkpoint (0-100 scale as theirs, higher is better).

    ``checkpoint`` is the authors' directory (``hparams.yaml`` + ``checkpoints/*.ckpt``), a hub id in
    the local Hugging Face cache (default ``davidheineman/lens``) or the ``.ckpt`` file; scores equal
    the authors' ``lens-metric`` package (``benchmarks/lens_authors_parity.py``). ``checkpoint=shipped``
    or a directory written by ``simpeval train lens-mini`` means the old ``lens``, now ``lens-mini``: it
    still works, with a deprecation warning.
    """

    name = "lens"
    description = "LENS (Maddela et al. 2023) with the authors' published checkpoint"
    requires_references = True
    trained_on = ("simpeval-past",)
    hub_id = "davidheineman/lens"
    instead = "simpeval's own small model is lens-mini"
    model_class = "PublishedLens"
    options = _Published.published_options(hub_id, {
        "rescale": simpeval.Option(bool, default=False, help="100 * Phi(score), as lens.LENS(rescale=True)"),
    })

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        self._legacy = None
        if self.checkpoint == SHIPPED or (Path(self.checkpoint) / CONFIG_FILE).is_file():
            deprecated(f"lens:checkpoint={self.checkpoint}", "lens-mini")
            self._legacy = LensMini(checkpoint=self.checkpoint, batch_size=self.batch_size)

    def fingerprint(self, option_name: str, value: object) -> str:
        if self._legacy is not None:
            return self._legacy.fingerprint(option_name, value)
        return super().fingerprint(option_name, value)

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        if self._legacy is not None:
            return {self.name: self._legacy._score_items(sources, outputs, references)[self._legacy.name]}
        if not sources:
            return {self.name: []}
        from simpeval_lens.published import lens_scores

        return {self.name: lens_scores(self.model(), sources, outputs, references, self.rescale, self.batch_size)}


class LensSalsa(_Published):
    """LENS-SALSA (Heineman et al. 2023), reference-free, with the authors' published checkpoint (score x 100).

    Reads the output and its source as one sequence; equal to ``lens.LENS_SALSA(path).score(complex,
    simple)`` (``benchmarks/lens_authors_parity.py``). :meth:`word_tags` gives its word-level edit tags,
    :meth:`label_words` the tagged spans ``simpeval report`` colours.
    """

    name = "lens-salsa"
    description = "LENS-SALSA (Heineman et al. 2023), reference-free, with the authors' published checkpoint"
    requires_references = False
    trained_on = ()  # SALSA's edit annotations: not a dataset simpeval registers
    hub_id = "davidheineman/lens-salsa"
    model_class = "PublishedSalsa"
    options = _Published.published_options(hub_id)

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        if not sources:
            return {self.name: []}
        from simpeval_lens.published import salsa_scores

        return {self.name: salsa_scores(self.model(), sources, outputs, self.batch_size)[0]}

    def word_tags(self, sources: Sequence[str], outputs: Sequence[str]) -> list[list[tuple[str, dict[str, float]]]]:
        """Per output, its subword tokens (then ``</s></s>`` and the source's) with each edit tag's probability."""
        from simpeval_lens.published import salsa_scores

        return salsa_scores(self.model(), sources, outputs, self.batch_size)[1]

    def word_labels(self) -> dict[str, str]:
        """The checkpoint's edit tags (its ``span_tokens``), for the report's word colouring; none without tagging."""
        from simpeval_lens.published import TAG_THRESHOLD

        hparams = self.layout().hparams
        tags = [str(t) for t in hparams.get("span_tokens") or []] if hparams.get("word_level_training") else []
        return {tag: f"LENS-SALSA's <{tag}> tag (probability above {TAG_THRESHOLD})" for tag in tags}

    def label_words(self, sources: Sequence[str], outputs: Sequence[str]) -> list[list[tuple[str | None, str]]]:
        """Each output cut into spans by its tokens' tags, as the package's ``recover_output`` tags them."""
        from simpeval_lens.published import tag_spans

        model = self.model()
        return [tag_spans(model, output, tokens) for output, tokens in zip(outputs, self.word_tags(sources, outputs))]


def deprecated(old: str, new: str) -> None:
    """One warning that ``old`` changed meaning or name, pointing at ``new``."""
    import warnings

    warnings.warn(f"{old} is deprecated: simpeval's own trained model is now called {new}; "
                  f"use -m {new} (\"lens\" now means the authors' published checkpoint)", FutureWarning, stacklevel=3)


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Lens, LensSalsa, LensMini, LensClaMini, LensCla]


@simpeval.hookimpl
def simpeval_register_trainers():
    from simpeval_lens.trainer import LensClaTrainer, LensSplitTrainer, LensTrainer

    return [LensTrainer, LensClaTrainer, LensSplitTrainer]
