"""The plugin registry: a factory for a fresh plugin manager and the metrics and datasets it provides.

Built-in metrics and datasets are plugins like any other (``DEFAULT_PLUGINS``);
third-party plugins are found through the ``simpeval`` entry-point group. A
plugin that fails to import or register is recorded with its error and never
takes the others down (``strict=True`` makes it fatal).
"""

from __future__ import annotations

import difflib
import importlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from simpeval import hookspecs
from simpeval._version import __version__
from simpeval.errors import PluginLoadError, UsageError
from simpeval.metrics.base import Metric

ENTRY_POINT_GROUP = "simpeval"
DISABLE_AUTOLOAD_ENV = "SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD"

# Built-in plugins, registered through the same hooks as third-party ones.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "simpeval.metrics.bleu",
    "simpeval.metrics.sari",
    "simpeval.metrics.fkgl",
    "simpeval.metrics.combined",
    "simpeval.metrics.length",
    "simpeval.metrics.qe",
    "simpeval.metrics.f1_token",
    "simpeval.metrics.bertscore",
    "simpeval.datasets.builtin",
)


@dataclass
class PluginInfo:
    """Where a plugin came from, and whether it loaded."""

    name: str
    distribution: str
    version: str
    module: str
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class Registry:
    """The metrics and datasets of one plugin manager, with where each came from."""

    plugin_manager: pluggy.PluginManager
    plugins: list[PluginInfo] = field(default_factory=list)
    metrics: dict[str, type[Metric]] = field(default_factory=dict)
    datasets: dict[str, type] = field(default_factory=dict)
    provider: dict[str, PluginInfo] = field(default_factory=dict)

    # ------------------------------------------------------------------
    # Metrics
    # ------------------------------------------------------------------

    def sub_score_owner(self, name: str) -> type[Metric] | None:
        """The metric class whose ``name`` or sub-score is ``name``."""
        if name in self.metrics:
            return self.metrics[name]
        for cls in self.metrics.values():
            if name in cls.score_names():
                return cls
        return None

    def metric_class(self, name: str) -> type[Metric]:
        """The metric class called ``name`` (or owning sub-score ``name``); :class:`UsageError` if none."""
        cls = self.sub_score_owner(name)
        if cls is None:
            raise UsageError(_unknown("metric", name, self.all_score_names(), "simpeval metrics list"))
        return cls

    def all_score_names(self) -> list[str]:
        return sorted({s for cls in self.metrics.values() for s in cls.score_names()})

    def create_metric(
        self, name: str, options: dict[str, Any] | None = None, preset: str | None = None
    ) -> Metric:
        """Instantiate metric ``name``: the preset's settings, then ``options`` on top."""
        cls = self.metric_class(name)
        settings: dict[str, Any] = {}
        if preset is not None:
            settings.update(cls.presets.get(preset, {}))
        settings.update(options or {})
        return cls(**settings)

    def preset_names(self) -> list[str]:
        return sorted({p for cls in self.metrics.values() for p in cls.presets})

    # ------------------------------------------------------------------
    # Datasets
    # ------------------------------------------------------------------

    def dataset_class(self, name: str) -> type:
        if name not in self.datasets:
            raise UsageError(
                _unknown("dataset", name, sorted(self.datasets), "simpeval datasets list")
            )
        return self.datasets[name]


def get_plugin_manager(
    autoload: bool | None = None, plugins: Iterable[Any] = (), strict: bool = False
) -> tuple[pluggy.PluginManager, list[PluginInfo]]:
    """Build a fresh plugin manager with the built-in plugins, ``plugins`` and (if ``autoload``) entry points.

    :param autoload: load the ``simpeval`` entry points; defaults to True unless
        ``SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD`` is set.
    :param plugins: extra plugin modules or objects to register (tests use this).
    :param strict: raise :class:`PluginLoadError` on the first broken plugin.
    :returns: the manager and one :class:`PluginInfo` per plugin tried.
    """
    if autoload is None:
        autoload = not os.environ.get(DISABLE_AUTOLOAD_ENV)
    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    infos: list[PluginInfo] = []
    for module_name in DEFAULT_PLUGINS:
        module = importlib.import_module(module_name)
        pm.register(module, name=module_name)
        infos.append(PluginInfo(module_name, "simpeval", __version__, module_name))
    for plugin in plugins:
        name = getattr(plugin, "__name__", repr(plugin))
        pm.register(plugin, name=name)
        infos.append(PluginInfo(name, "(registered)", "", name))
    if autoload:
        infos.extend(_load_entry_points(pm, strict))
    pm.check_pending()
    return pm, infos


def _load_entry_points(pm: pluggy.PluginManager, strict: bool) -> list[PluginInfo]:
    from importlib.metadata import entry_points

    infos = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist
        info = PluginInfo(
            ep.name, dist.name if dist else "?", dist.version if dist else "?", ep.value
        )
        infos.append(info)
        if pm.has_plugin(ep.name):
            continue
        try:
            pm.register(ep.load(), name=ep.name)
        except Exception as exc:  # a third party's bug must not take simpeval down
            message = f'Error loading simpeval plugin "{ep.name}": {type(exc).__name__}: {exc}'
            if strict:
                raise PluginLoadError(message) from exc
            info.error = message
    return infos


def load_registry(
    autoload: bool | None = None, plugins: Iterable[Any] = (), strict: bool = False
) -> Registry:
    """Build a :class:`Registry`: load the plugins, then call their registration hooks one by one."""
    pm, infos = get_plugin_manager(autoload, plugins, strict)
    registry = Registry(pm, infos)
    by_name = {info.name: info for info in infos}
    for hook_name, target in (
        ("simpeval_register_metrics", registry.metrics),
        ("simpeval_register_datasets", registry.datasets),
    ):
        for impl in getattr(pm.hook, hook_name).get_hookimpls():
            info = by_name.get(impl.plugin_name) or PluginInfo(
                impl.plugin_name, "?", "?", impl.plugin_name
            )
            try:
                for cls in impl.function() or []:
                    _add(registry, target, cls, info)
            except Exception as exc:
                message = f'Error registering simpeval plugin "{info.name}": {type(exc).__name__}: {exc}'
                if strict:
                    raise PluginLoadError(message) from exc
                info.error = message
    return registry


def _add(registry: Registry, target: dict[str, type], cls: type, info: PluginInfo) -> None:
    name = getattr(cls, "name", "")
    if not name:
        raise TypeError(f"{cls.__qualname__} has no name")
    if name in target:
        other = registry.provider[name]
        raise ValueError(f'"{name}" is already registered by {other.distribution} ({other.name})')
    target[name] = cls
    registry.provider[name] = info


def _unknown(kind: str, name: str, known: list[str], listing: str) -> str:
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"see `{listing}`"
    return f'unknown {kind} "{name}": {hint}'
