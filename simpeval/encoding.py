"""The encoding service: neural metrics run each distinct input through a model once per run.

Learned metrics spend nearly all their time in the encoder, and their inputs
repeat: ten references shared by six systems' outputs, the same source under
every system, the same reference scored by two metrics. A :class:`TextEncoder`
wraps one model with one way of reading it (a hidden layer, a classifier head)
and keeps what it computed, keyed by the input (a text, or a pair of texts for
cross-encoders), so each distinct input is encoded once, whatever the batches
the runner cuts and however many metrics ask. New inputs are tokenised
together, sorted by token length (on the CPU each batch holds inputs of one
length, so no padding is computed; on a GPU batches of similar length waste
little on it), and sent through the model in batches that halve when the device
runs out of memory. :func:`shared_encoder` hands every metric of a run asking for the
same model and reading the same encoder, so they share its results. Encoders live on
the :class:`~simpeval.run.Run`, keyed by the model's *content* (never its path: a
model directory retrained in place is loaded again), and their results count against
the run's memory budget; both go when the run ends.

``device=`` takes ``cpu``, ``cuda``, ``cuda:N`` or ``mps`` (``None``: the first
GPU if there is one, else the CPU) and ``dtype=`` ``float32``, ``bfloat16`` or
``float16``; both are checked when a metric is built (:func:`check_device`,
:func:`check_dtype`), without importing torch, and again against the hardware
when the model loads (:func:`resolve_device`).

torch is imported only inside the functions that run a model.

On the CPU, PyTorch runs some operations (GELU) through oneDNN, which compiles a kernel for each
distinct tensor shape and caches up to 1,024 of them (``ONEDNN_PRIMITIVE_CACHE_CAPACITY``). The
same-length batches above give a new shape for nearly every batch (1 to 64 inputs times each token
length), so the cache, not what the run keeps, grew a long run's resident memory: +231 MB for SIERA
from 3,000 to 15,000 items. A :class:`TextEncoder` bounds it to :data:`KERNEL_CACHE_CAPACITY`
kernels unless the user set the variable (:func:`bound_kernel_cache`); a kernel compiled again
costs about 0.6 ms against tens of milliseconds for the batch (``docs/benchmarks/memory.md``).
After each batch through the model the free pages of the C heap go back to the system
(:func:`release_freed_heap`): the results kept between a batch's freed temporaries otherwise keep
those holes resident, which grew SIERA's resident memory with every item. Trimming once per run of
the model (one engine batch, about a hundred model batches) was not enough on real ASSET items:
glibc's in-use heap was the same at 3,000 and 15,000 ``sle`` items (137.9 MB), its free heap grew
(62 to 142 MB) and was resident at the peak; trimming after every model batch took peak RSS growth
from +59 to +89 MB (three runs) to +29 MB; ``benchmarks/bench_memory.py``, 3,000 to 15,000 items:
``sle`` 575 to 607 MB (+32), ``siera`` 610 to 656 MB (+47); scores byte-identical.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from simpeval.errors import UsageError
from simpeval.run import Memory
from simpeval.progress import report

__all__ = [
    "DEFAULT_MEMORY_LIMIT", "DTYPES", "KERNEL_CACHE_CAPACITY", "RESULT_OVERHEAD", "TextEncoder", "bound_kernel_cache",
    "check_device", "check_dtype", "is_out_of_memory", "release_freed_heap",
    "length_batches", "load_pretrained", "mean_pooled_encoder", "resolve_device", "resolve_dtype", "same_length_batches",
    "shared_encoder",
]

if TYPE_CHECKING:
    import torch

    from simpeval.run import Run

DTYPES = ("float32", "bfloat16", "float16")
"""The dtypes a model can run in; float32 is the default and the only one that reproduces published scores."""

DEFAULT_MEMORY_LIMIT = 1 << 30
"""Bytes of output an encoder of its own (outside a run) keeps before dropping the least recently used (1 GiB)."""

RESULT_OVERHEAD = 1024
"""Bytes a kept result costs beyond its tensors' data: the tensor objects and the table entry (a 0-d
tensor kept under a short text measured about 1.3 KB of resident memory, its text included)."""

KERNEL_CACHE_CAPACITY = "8"
"""oneDNN kernels (one per tensor shape) a process keeps compiled when the user did not choose
(``ONEDNN_PRIMITIVE_CACHE_CAPACITY``; oneDNN's own default is 1,024)."""

_DEVICE = re.compile(r"^(cpu|mps|cuda(:\d+)?)$")

Input = Hashable
"""A text, or a (first, second) pair of texts for a cross-encoder."""


def check_device(name: str | None, owner: str = "the model") -> None:
    """Raise :class:`UsageError` unless ``name`` is ``None``, ``cpu``, ``cuda``, ``cuda:N`` or ``mps``."""
    if name is not None and not _DEVICE.match(name):
        raise UsageError(f'device "{name}" for {owner} is not cpu, cuda, cuda:N or mps: pass one of them')


def check_dtype(name: str | None, owner: str = "the model") -> None:
    """Raise :class:`UsageError` unless ``name`` is ``None`` or one of :data:`DTYPES`."""
    if name is not None and name not in DTYPES:
        raise UsageError(f'dtype "{name}" for {owner} is not one of {", ".join(DTYPES)}: pass one of them')


def resolve_device(name: str | None) -> torch.device:
    """The torch device ``name`` names, checked against the hardware present.

    ``None`` means the first CUDA GPU when there is one, else the CPU.

    :raises UsageError: when the device is malformed or not present on this machine.
    """
    import torch

    check_device(name)
    if name is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise UsageError(f'device "{name}" asked for but no CUDA GPU is available here: pass device=cpu')
        if device.index is not None and device.index >= count:
            raise UsageError(
                f'device "{name}" asked for but this machine has {count} CUDA GPU(s) '
                f"(cuda:0 to cuda:{count - 1}): pass one of them"
            )
    if device.type == "mps" and not torch.backends.mps.is_available():
        raise UsageError(f'device "{name}" asked for but Apple MPS is not available here: pass device=cpu')
    return device


def resolve_dtype(name: str | None) -> torch.dtype:
    """The torch dtype ``name`` names (``None``: float32)."""
    import torch

    check_dtype(name)
    return getattr(torch, name or "float32")


def bound_kernel_cache() -> None:
    """Keep at most :data:`KERNEL_CACHE_CAPACITY` oneDNN kernels compiled (see the module docstring),
    unless ``ONEDNN_PRIMITIVE_CACHE_CAPACITY`` is set already. oneDNN reads the variable when it
    compiles its first kernel, so this must run before the first forward pass; torch may be imported."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", KERNEL_CACHE_CAPACITY)


def release_freed_heap() -> None:
    """Give the pages of the C heap that are free back to the system (glibc's ``malloc_trim(0)``; a no-op
    elsewhere).

    A batch's temporaries are freed between the results it keeps, and glibc keeps such holes
    resident: SIERA's kept probabilities, one small tensor per pair, held 212 MB of free heap
    resident after 8,192 items (740 MB, 528 MB once trimmed), growing with the items. Trimming
    after each run of the model takes milliseconds against the seconds the run took."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``, looked up once; None where the C library has none (macOS, musl, Windows)."""
    if os.name != "posix":
        return None
    import ctypes

    return getattr(ctypes.CDLL(None), "malloc_trim", None)  # the process's own symbols, the C library's among them


def load_pretrained(
    name: str, option: str = "model", *, kind: str = "model", device: str | None = None, dtype: str | None = None
) -> tuple[Any, Any, torch.device]:
    """Tokenizer, model (eval mode, on the device, in the dtype) and device of the model ``name``.

    Loaded by :mod:`simpeval.models` (offline, no code from model directories,
    missing weights reported at once); the device is checked first, so a
    missing GPU is reported before the weights are read.

    :param option: the metric option naming the model, for the remedy in errors.
    :param kind: ``"model"`` (the bare encoder) or ``"sequence-classification"``.
    """
    from simpeval import models

    target = resolve_device(device)
    torch_dtype = resolve_dtype(dtype)
    model = models.load_transformers(name, kind, option)
    tokenizer = models.load_transformers(name, "tokenizer", option)
    return tokenizer, model.to(device=target, dtype=torch_dtype).eval(), target


def is_out_of_memory(error: BaseException) -> bool:
    """True for the errors a device raises when a batch does not fit in its memory."""
    if isinstance(error, MemoryError):
        return True
    return isinstance(error, RuntimeError) and "out of memory" in str(error).lower()


def length_batches(lengths: Sequence[int], batch_size: int, max_tokens: int | None = None) -> list[list[int]]:
    """Indices grouped into batches of similar length, longest first (an out-of-memory error comes early).

    With ``max_tokens``, a batch also holds at most that many padded positions (rows x its longest
    length); an input longer than that goes alone."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    if max_tokens is None:
        return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
    batches: list[list[int]] = []
    for index in order:  # longest first: a batch's first input sets its padded length
        if batches and len(batches[-1]) < batch_size and (len(batches[-1]) + 1) * lengths[batches[-1][0]] <= max_tokens:
            batches[-1].append(index)
        else:
            batches.append([index])
    return batches


def same_length_batches(lengths: Sequence[int], batch_size: int, max_tokens: int | None = None) -> list[list[int]]:
    """Indices grouped into batches of equal length (at most ``batch_size`` each), longest first.

    No batch needs padding, so a CPU, which pays for every padded position in
    the matrix products, computes only real tokens, and attention runs without
    a mask. On a GPU the larger batches of :func:`length_batches` are cheaper.
    With ``max_tokens``, a batch also holds at most that many tokens (rows x length);
    an input longer than that goes alone.
    """
    batches: list[list[int]] = []
    for index in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        if (batches and len(batches[-1]) < batch_size and lengths[batches[-1][0]] == lengths[index]
                and (max_tokens is None or (len(batches[-1]) + 1) * lengths[index] <= max_tokens)):
            batches[-1].append(index)
        else:
            batches.append([index])
    return batches


class TextEncoder:
    """One model read one way, with the result of every distinct input kept.

    :param model: the loaded model (on ``device``, in ``dtype``, in eval mode).
    :param tokenize: turns a list of inputs into one unpadded row of token features
        per input: ``{"input_ids": [...]}``, with ``"token_type_ids"`` for pairs
        where the model reads segments (a Hugging Face tokenizer's output, per row).
    :param forward: takes ``(model, batch)``, ``batch`` the padded tensors of one
        batch on the device (the row features plus ``attention_mask``), and returns
        one result per row, a tensor or a tuple of tensors; the service moves them
        to the CPU and keeps them.
    :param pad_id: the token id that pads ``input_ids`` (other features pad with 0).
    :param device: where the model is (from :func:`resolve_device`).
    :param batch_size: inputs per forward pass to start with; halved whenever the
        device runs out of memory, and kept at the size that fitted.
    :param same_length: batch only inputs of equal token count (:func:`same_length_batches`:
        no padding) instead of length-sorted runs (:func:`length_batches`); by default
        on the CPU only, where padding costs as much as real tokens.
    :param memory_limit: bytes of results kept; beyond it the least recently used go. An
        encoder of a run (:func:`shared_encoder`) keeps them in the run's memory instead.
    :param progress: show a progress bar (on a terminal only) over the inputs encoded.
    :param description: the progress bar's label.
    :param max_tokens: at most this many token positions (rows x padded length) per forward pass
        besides ``batch_size`` rows (an input longer than that goes alone); None: no such bound. A
        pass's activations grow with its tokens, and the largest pass sets a run's peak memory.
    """

    def __init__(
        self,
        model: Any,
        tokenize: Callable[[list[Input]], list[dict[str, list[int]]]],
        forward: Callable[[Any, dict[str, torch.Tensor]], Sequence[Any]],
        *,
        pad_id: int,
        device: torch.device | str = "cpu",
        batch_size: int = 64,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        progress: bool = False,
        description: str = "encoding",
        same_length: bool | None = None,
        max_tokens: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise UsageError(f"batch size {batch_size} for {description}: pass a batch size of at least 1")
        if max_tokens is not None and max_tokens < 1:
            raise UsageError(f"{max_tokens} tokens per batch for {description}: pass at least 1")
        bound_kernel_cache()
        self.model = model
        self.tokenize = tokenize
        self.forward = forward
        self.pad_id = pad_id
        self.device = device
        self.batch_size = batch_size
        self.memory_limit = memory_limit
        self.progress = progress
        self.description = description
        self.same_length = str(device).startswith("cpu") if same_length is None else same_length
        self.max_tokens = max_tokens
        self.memory = Memory(memory_limit)
        self.info: dict[str, Any] = {}
        """What the code that built the encoder records about its reading (e.g. the layer chosen)."""
        self.encoded = 0
        """How many inputs went through the model so far (the distinct ones, each once while kept)."""

    def __len__(self) -> int:
        return self.memory.count(self)

    def share(self, memory: Memory) -> None:
        """Keep results in ``memory`` (a run's, shared with its other encoders) from now on."""
        self.memory.clear(self)
        self.memory = memory

    def encode(self, inputs: Sequence[Input]) -> list[Any]:
        """The result of each input, in order; only inputs not kept yet go through the model."""
        kept = {x: self.memory.get((self, x)) for x in dict.fromkeys(inputs)}
        missing = [x for x, value in kept.items() if value is None]
        if missing:
            fresh = self._run(missing)
            for x in missing:
                kept[x] = fresh[x]
                self.memory.put((self, x), fresh[x], _kept_bytes(x, fresh[x]))
        return [kept[x] for x in inputs]

    def keep(self, results: dict[Input, Any]) -> None:
        """Keep results computed elsewhere (e.g. read back from a file that :meth:`kept` filled)."""
        for x, value in results.items():
            self.memory.put((self, x), value, _kept_bytes(x, value))

    def kept(self) -> dict[Input, Any]:
        """Every result kept now."""
        return dict(self.memory.items(self))

    def clear(self) -> None:
        """Forget every kept result (the model stays loaded)."""
        self.memory.clear(self)

    def _run(self, inputs: list[Input]) -> dict[Input, Any]:
        import torch

        rows = self.tokenize(inputs)
        results: dict[Input, Any] = {}
        batches = same_length_batches if self.same_length else length_batches
        pending = batches([len(row["input_ids"]) for row in rows], self.batch_size, self.max_tokens)
        done = 0
        with _progress(len(inputs), self.progress, self.description) as bar, torch.inference_mode():
            while pending:
                batch = pending.pop(0)
                try:
                    outputs = self.forward(self.model, self._pad([rows[i] for i in batch]))
                except Exception as error:  # noqa: BLE001 - only out-of-memory errors are handled
                    if not is_out_of_memory(error) or len(batch) == 1:
                        raise
                    self._release_device_memory()
                    self.batch_size = max(1, len(batch) // 2)
                    pending[:0] = [batch[: self.batch_size], batch[self.batch_size :]]
                    continue
                for index, output in zip(batch, outputs):
                    results[inputs[index]] = _on_cpu(output)
                del outputs  # the batch's activations, freed between the results just kept:
                release_freed_heap()  # their pages go back before the next batch (module docstring)
                self.encoded += len(batch)
                done += len(batch)
                bar.update(len(batch))
                report(done, len(inputs))  # the engine's bar over items moves within its batch
        return results

    def _pad(self, rows: list[dict[str, list[int]]]) -> dict[str, torch.Tensor]:
        """The rows as padded tensors on the device, with their ``attention_mask``."""
        import torch

        longest = max(len(row["input_ids"]) for row in rows)
        batch = {
            key: torch.full((len(rows), longest), self.pad_id if key == "input_ids" else 0, dtype=torch.long)
            for key in rows[0] if key != "attention_mask"
        }
        batch["attention_mask"] = torch.zeros((len(rows), longest), dtype=torch.long)
        for index, row in enumerate(rows):
            length = len(row["input_ids"])
            for key in batch:
                if key != "attention_mask":
                    batch[key][index, :length] = torch.tensor(row[key], dtype=torch.long)
            batch["attention_mask"][index, :length] = 1
        return {key: tensor.to(self.device) for key, tensor in batch.items()}

    def _release_device_memory(self) -> None:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()


def _on_cpu(value: Any) -> Any:
    """A forward result (a tensor or a tuple of tensors) detached, on the CPU, in storage of its own.

    A row of a batch's output is a view that would keep the whole batch alive (and the memory
    budget would count only the row), so a view is copied.
    """
    if isinstance(value, tuple):
        return tuple(_on_cpu(v) for v in value)
    tensor = value.detach().to("cpu")
    if tensor.untyped_storage().nbytes() > _bytes(tensor):
        tensor = tensor.clone()
    return tensor


def _kept_bytes(key: Input, value: Any) -> int:
    """What keeping ``value`` under ``key`` costs: its data, its input's characters and :data:`RESULT_OVERHEAD`."""
    text = sum(map(len, key)) if isinstance(key, tuple) else len(key)
    return _bytes(value) + text + RESULT_OVERHEAD


def _bytes(value: Any) -> int:
    if isinstance(value, tuple):
        return sum(_bytes(v) for v in value)
    return value.element_size() * value.nelement()


def shared_encoder(
    run: Run, model: str, reading: Hashable, build: Callable[[], TextEncoder], option: str = "model"
) -> TextEncoder:
    """The run's encoder of ``model`` read as ``reading``, built by ``build()`` the first time.

    The encoder is keyed by the *content* of ``model`` (:func:`simpeval.models.content_hash`:
    the hash its signature shows), so weights replaced in the same directory are loaded
    again; ``reading`` must name everything else that changes the results (the layer or
    head read, device, dtype, tokenisation). Every metric of the run asking for the same
    encoder shares one model and its results, which count against the run's memory budget.
    """
    from simpeval import models

    def built() -> TextEncoder:
        encoder = build()
        encoder.share(run.memory)
        return encoder

    return run.resource(("encoder", models.content_hash(models.locate(model, option)), reading), built)


def mean_pooled_encoder(run: Run, model: str, *, max_length: int, batch_size: int, description: str,
                        unit_length: bool = False, device: str | None = None) -> TextEncoder:
    """The run's encoder of the local model directory ``model`` read as sentence-transformers reads
    a sentence: the mean of the last layer's states over each row's real tokens (texts truncated to
    ``max_length`` tokens), scaled to length 1 if ``unit_length`` (a dot product is then a cosine).
    Every metric of the run asking for the same reading on the same ``device`` (as
    :func:`resolve_device` takes it) shares the model and its results."""

    def build() -> TextEncoder:
        tokenizer, loaded, target = load_pretrained(model, option="encoder", device=device)

        def tokenize(texts: list[str]) -> list[dict[str, list[int]]]:
            ids = tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]
            return [{"input_ids": row} for row in ids]

        def read(network, batch):
            return _mean_pooled(network, batch, unit_length)

        return TextEncoder(loaded, tokenize, read, pad_id=tokenizer.pad_token_id, device=target,
                           batch_size=batch_size, description=description)

    reading = ("mean-pooled", max_length, unit_length) + (() if device is None else (device,))
    return shared_encoder(run, model, reading, build, option="encoder")


def _mean_pooled(model, batch, unit_length: bool):
    hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
    if not unit_length:
        return mean
    import torch

    return torch.nn.functional.normalize(mean, dim=-1)


def _progress(total: int, enabled: bool, description: str) -> Any:
    from tqdm.auto import tqdm

    # disable=None: a bar on a terminal only, never in a log file
    return tqdm(total=total, unit="text", desc=description, leave=False, disable=None if enabled else True)
