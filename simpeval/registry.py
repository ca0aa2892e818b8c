"""The plugin registry: a factory for a fresh plugin manager and the metrics and datasets it provides.

Built-in metrics and datasets are plugins like any other (``DEFAULT_PLUGINS``);
third-party plugins are found through the ``simpeval`` entry-point group. A
plugin that fails to import or register is recorded with its error and never
takes the others down (``strict=True`` makes it fatal).
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import inspect
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pluggy

from simpeval import hookspecs, models
from simpeval._version import __version__
from simpeval.errors import PluginLoadError, UsageError
from simpeval.languages import ENGLISH
from simpeval.metrics.base import Metric
from simpeval.presets import Preset

# what plugins may import (tests/test_public_helpers.py): the plugin guide and docs/python-api.md show load_registry
__all__ = ["Registry", "load_registry"]

ENTRY_POINT_GROUP = "simpeval"
DISABLE_AUTOLOAD_ENV = "SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD"
DISABLE_PLUGINS_ENV = "SIMPEVAL_DISABLE_PLUGINS"

# Built-in plugins, registered through the same hooks as third-party ones.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "simpeval.metrics.bleu",
    "simpeval.metrics.sari",
    "simpeval.metrics.fkgl",
    "simpeval.metrics.readability",
    "simpeval.metrics.cefr_lr",
    "simpeval.metrics.familiarity",
    "simpeval.metrics.combined",
    "simpeval.lens2023",
    "simpeval.german",
    "simpeval.metrics.dsari",
    "simpeval.metrics.aggregate",
    "simpeval.metrics.length",
    "simpeval.metrics.qe",
    "simpeval.metrics.f1_token",
    "simpeval.metrics.operations",
    "simpeval.metrics.bertscore",
    "simpeval.datasets.builtin",
    "simpeval.reproduce.alva_manchego_2021",
    "simpeval.learning.cefr_lr",
)


@dataclass
class PluginInfo:
    """Where a plugin came from, and every fault it showed while loading and registering."""

    name: str
    distribution: str
    version: str
    module: str
    errors: list[str] = field(default_factory=list)
    disabled: bool = False
    #: faults that leave the plugin working but mislead a listing (see :func:`contract_notes`)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error(self) -> str | None:
        return "; ".join(self.errors) or None

    @property
    def status(self) -> str:
        return "disabled" if self.disabled else "ok" if self.ok else "error"

    @property
    def label(self) -> str:
        """``plugin NAME (DIST VERSION)``, the way warnings name a plugin."""
        return f'plugin "{self.name}" ({f"{self.distribution} {self.version}".strip()})'

    def fail(self, message: str, strict: bool, cause: BaseException | None = None) -> None:
        """Record ``message`` against this plugin, or raise it when ``strict``."""
        if strict:
            raise PluginLoadError(message) from cause
        self.errors.append(message)


@dataclass
class Registry:
    """The metrics, datasets, presets, papers and trainers of one plugin manager, with where each came from."""

    plugin_manager: pluggy.PluginManager
    plugins: list[PluginInfo] = field(default_factory=list)
    metrics: dict[str, type[Metric]] = field(default_factory=dict)
    datasets: dict[str, type] = field(default_factory=dict)
    provider: dict[str, PluginInfo] = field(default_factory=dict)
    presets: dict[str, Preset] = field(default_factory=dict)
    papers: dict[str, Any] = field(default_factory=dict)  # name -> simpeval.reproduce.paper.Paper
    trainers: dict[str, type] = field(default_factory=dict)  # name -> simpeval.learning.trainer.Trainer subclass

    @property
    def failures(self) -> list[PluginInfo]:
        """The plugins that failed to load or register something."""
        return [info for info in self.plugins if not info.ok]

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
            raise UsageError(_unknown("metric", name, self.all_score_names(), "simpeval metrics list")
                             + self._switched_off())
        return cls

    def supports(self, name: str, lang: str) -> bool:
        """Whether metric (or sub-score) ``name`` with its default settings has rules for language ``lang``."""
        try:
            self.create_metric(self.metric_class(name).name, lang=lang)
        except UsageError:
            return False
        return True

    def _switched_off(self) -> str:
        """For an unknown name: the plugins switched off, whose names a switched-off plugin may hold
        (they are not imported, so which one cannot be told)."""
        names = [info.name for info in self.plugins if info.disabled]
        if not names:
            return ""
        switches = " ".join(f"-p no:{name}" for name in names)
        return f" (or it is one of a plugin switched off: drop {switches}, or its name from ${DISABLE_PLUGINS_ENV})"

    def all_score_names(self) -> list[str]:
        return sorted({s for cls in self.metrics.values() for s in cls.score_names()})

    def resolve(
        self, name: str, options: dict[str, Any] | None = None, preset: str | None = None
    ) -> tuple[str, dict[str, Any]]:
        """The score name and options that ``-m name:options`` under ``preset`` asks for.

        Where a preset computes another formula under a metric's name (``bleu`` under
        ``lens-2023`` is NLTK's GLEU: :attr:`Preset.metrics`), the name becomes that of the metric computing it
        (``gleu-nltk``; a sub-score maps to the sub-score at the same place, ``sari-add`` to
        ``sari-lens-add``), so that a score's name says what it is.
        """
        cls = self.metric_class(name)
        options = dict(options or {})
        target = self.presets[preset].metrics.get(cls.name) if preset in self.presets else None
        if target is None:
            return name, options
        variant = self.metric_class(target)
        return variant.score_names()[cls.score_names().index(name) if name != cls.name else 0], options

    def create_metric(
        self, name: str, options: dict[str, Any] | None = None, preset: str | None = None, lang: str = ENGLISH
    ) -> Metric:
        """Instantiate metric ``name`` (as :meth:`resolve` maps it): the preset's settings, then ``options`` on top,
        for texts in ``lang`` (ISO 639-1; a metric without rules for it refuses it in one line).

        The instance learns which distribution registered it, so its signature carries
        that distribution's version unless the class sets its own ``version``.
        """
        self.check_preset(preset)
        name, options = self.resolve(name, options, preset)
        cls = self.metric_class(name)
        settings: dict[str, Any] = {}
        if preset is not None:
            settings.update(cls.presets.get(preset, {}))
            if preset in self.presets:
                settings.update(self.presets[preset].settings.get(cls.name, {}))
        settings.update(options or {})
        metric = cls(**settings, lang=lang)
        info = self.provider.get(cls.name)
        if info is not None and info.version:
            metric.provided_by = (info.distribution, info.version, info.name)
        return metric

    def preset_names(self) -> list[str]:
        return sorted({*self.presets, *(p for cls in self.metrics.values() for p in cls.presets)})

    def metric_presets(self, cls: type[Metric]) -> list[str]:
        """The presets that set metric ``cls`` (its own ``presets``, and registered presets naming it)."""
        return sorted({*cls.presets, *(name for name, p in self.presets.items()
                                       if cls.name in p.settings or cls.name in p.metrics)})

    def check_preset(self, preset: str | None) -> None:
        """:class:`UsageError` unless ``preset`` is None or a preset of some installed metric."""
        if preset is not None and preset not in self.preset_names():
            known = ", ".join(self.preset_names()) or "none"
            raise UsageError(f'unknown preset "{preset}": known presets are {known}')

    # ------------------------------------------------------------------
    # Datasets
    # ------------------------------------------------------------------

    def dataset_class(self, name: str) -> type:
        if name not in self.datasets:
            raise UsageError(
                _unknown("dataset", name, sorted(self.datasets), "simpeval datasets list") + self._switched_off()
            )
        return self.datasets[name]

    # ------------------------------------------------------------------
    # Hooks, one plugin at a time
    # ------------------------------------------------------------------

    def call_each(
        self,
        hook_name: str,
        strict: bool = False,
        arguments: Callable[[PluginInfo], dict[str, Any]] = lambda info: {},
    ) -> Iterator[tuple[PluginInfo, list[Any]]]:
        """Call hook ``hook_name`` through ``pm.hook`` once per implementing plugin.

        Yields ``(plugin, results)`` for each plugin whose implementation returned
        (``results`` as pluggy gives them: the non-None return values). An implementation
        that raises is recorded against its plugin (raised when ``strict``) and the other
        plugins are still called.

        :param arguments: the hook's keyword arguments for one plugin (a plugin that adds
            commands gets groups of its own, so one that raises half-way adds nothing).
        """
        pm = self.plugin_manager
        implementers = [impl.plugin for impl in getattr(pm.hook, hook_name).get_hookimpls()]
        for plugin in implementers:
            info = self.info(pm.get_name(plugin))
            only = pm.subset_hook_caller(hook_name, remove_plugins=[p for p in implementers if p is not plugin])
            try:
                results = only(**arguments(info))
            except PLUGIN_FAULTS as exc:  # a third party's bug must not take simpeval down
                info.fail(f'Error in {hook_name} of simpeval plugin "{info.name}": {_describe(exc)}', strict, exc)
                continue
            yield info, results

    def info(self, plugin_name: str) -> PluginInfo:
        """The :class:`PluginInfo` of a registered plugin (created for plugins registered by hand)."""
        for info in self.plugins:
            if info.name == plugin_name:
                return info
        info = PluginInfo(plugin_name, "?", "", plugin_name)
        self.plugins.append(info)
        return info


def disabled_plugins(names: Iterable[str] = ()) -> list[str]:
    """The plugins switched off: ``$SIMPEVAL_DISABLE_PLUGINS`` (comma-separated) plus ``names``."""
    from_env = os.environ.get(DISABLE_PLUGINS_ENV, "").split(",")
    return [n.strip() for n in (*from_env, *names) if n.strip()]


def get_plugin_manager(
    autoload: bool | None = None,
    plugins: Iterable[Any] = (),
    strict: bool = False,
    disabled: Iterable[str] | None = None,
) -> tuple[pluggy.PluginManager, list[PluginInfo]]:
    """Build a fresh plugin manager with the built-in plugins, ``plugins`` and (if ``autoload``) entry points.

    :param autoload: load the ``simpeval`` entry points; defaults to True unless
        ``SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD`` is set.
    :param plugins: extra plugin modules or objects to register (tests use this).
    :param strict: raise :class:`PluginLoadError` on the first broken plugin.
    :param disabled: entry-point (or built-in module) names not to load; defaults to
        ``$SIMPEVAL_DISABLE_PLUGINS``.
    :returns: the manager and one :class:`PluginInfo` per plugin tried (disabled ones included).
    """
    if autoload is None:
        autoload = not os.environ.get(DISABLE_AUTOLOAD_ENV)
    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    for name in disabled_plugins() if disabled is None else disabled:
        pm.set_blocked(name)
    infos: list[PluginInfo] = []
    for module_name in DEFAULT_PLUGINS:
        info = PluginInfo(module_name, "simpeval", __version__, module_name)
        infos.append(info)
        if pm.is_blocked(module_name):
            info.disabled = True
            continue
        pm.register(importlib.import_module(module_name), name=module_name)
    for plugin in plugins:
        name = getattr(plugin, "__name__", repr(plugin))
        pm.register(plugin, name=name)
        infos.append(PluginInfo(name, "(registered)", "", name))
    if autoload:
        infos.extend(_load_entry_points(pm, strict))
    _check_pending(pm, infos, strict)
    return pm, infos


def _load_entry_points(pm: pluggy.PluginManager, strict: bool) -> list[PluginInfo]:
    from importlib.metadata import entry_points

    infos = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist
        info = PluginInfo(
            ep.name, dist.name if dist else "?", dist.version if dist else "?", ep.value
        )
        if pm.is_blocked(ep.name):
            info.disabled = True
        if pm.has_plugin(ep.name) or any(i.name == ep.name for i in infos):
            continue  # the same entry point seen twice (an editable install listed twice)
        infos.append(info)
        if info.disabled:
            continue
        try:
            with contextlib.redirect_stdout(sys.stderr):  # a print at import must not land in a CSV on stdout
                module = _load_within(ep, import_timeout())
            pm.register(module, name=ep.name)
        except PLUGIN_FAULTS as exc:  # a third party's bug must not take simpeval down
            info.fail(f'Error loading simpeval plugin "{ep.name}": {_describe(exc)}', strict, exc)
    return infos


PLUGIN_FAULTS = (Exception, SystemExit, KeyboardInterrupt)
"""What a plugin's import or hook may raise without ending the command: ``sys.exit()`` or a
``KeyboardInterrupt`` raised by plugin code is its bug, recorded against it like any other."""

IMPORT_TIMEOUT_ENV = "SIMPEVAL_PLUGIN_IMPORT_TIMEOUT"
DEFAULT_IMPORT_TIMEOUT = 30.0


class PluginImportTimeout(Exception):
    """A plugin's import did not finish in time (it blocks on a lock, the network, stdin...)."""


def import_timeout() -> float | None:
    """Seconds a plugin's import may take: ``$SIMPEVAL_PLUGIN_IMPORT_TIMEOUT`` (``inf``: no limit,
    None), else 30 (also for a value that is no positive number)."""
    try:
        seconds = float(os.environ.get(IMPORT_TIMEOUT_ENV, DEFAULT_IMPORT_TIMEOUT))
    except ValueError:
        return DEFAULT_IMPORT_TIMEOUT
    if seconds == math.inf:
        return None
    return max(0.1, seconds) if seconds > 0 else DEFAULT_IMPORT_TIMEOUT  # NaN fails the test too


def _load_within(ep: Any, timeout: float | None) -> Any:
    """``ep.load()`` waited for ``timeout`` seconds (None: as long as it takes): an import that blocks
    becomes this plugin's error, and the command goes on (:func:`simpeval.threads.call_within`)."""
    from simpeval.threads import call_within

    return call_within(ep.load, timeout, f"simpeval-plugin-{ep.name}", lambda: PluginImportTimeout(
        f"its import did not finish in {timeout:g} s (set {IMPORT_TIMEOUT_ENV} to wait longer, or to inf)"))


def _check_pending(pm: pluggy.PluginManager, infos: list[PluginInfo], strict: bool) -> None:
    """``pm.check_pending()``, one plugin at a time: a plugin implementing a hook simpeval does
    not define (a misspelled name) is recorded, unregistered, and the check goes on."""
    while True:
        try:
            pm.check_pending()
            return
        except pluggy.PluginValidationError as exc:
            name = pm.get_name(exc.plugin) or exc.plugin_name
            info = next((i for i in infos if i.name == name), None)
            message = f'Error loading simpeval plugin "{name}": {exc}'
            if info is None:
                raise PluginLoadError(message) from exc
            pm.unregister(exc.plugin)
            info.fail(message, strict, exc)


def load_registry(
    autoload: bool | None = None,
    plugins: Iterable[Any] = (),
    strict: bool = False,
    disabled: Iterable[str] | None = None,
) -> Registry:
    """Build a :class:`Registry`: load the plugins, then call their registration hooks one by one.

    A registration hook that raises, a class without a name, and a metric or dataset
    name (or sub-score) that another plugin already registered are each recorded
    against the plugin at fault (raised when ``strict``); everything else registers.
    """
    pm, infos = get_plugin_manager(autoload, plugins, strict, disabled)
    registry = Registry(pm, infos)
    with contextlib.redirect_stdout(sys.stderr):  # what a plugin prints is not the command's output
        for hook_name, check in (("simpeval_register_metrics", _check_metric),
                                 ("simpeval_register_datasets", _check_dataset),
                                 ("simpeval_register_presets", _check_preset),
                                 ("simpeval_register_papers", _check_paper),
                                 ("simpeval_register_trainers", _check_trainer)):
            for info, results in registry.call_each(hook_name, strict):
                for cls in (c for result in results for c in _as_list(result)):
                    _register(registry, cls, info, strict, check)
    return registry


def _as_list(classes: Any) -> list[Any]:
    if isinstance(classes, (list, tuple)):
        return list(classes)
    return [classes]


def _register(registry: Registry, cls: Any, info: PluginInfo, strict: bool, check: Any) -> None:
    try:
        target = check(registry, cls)
    except (TypeError, ValueError) as exc:
        info.fail(f'Error registering simpeval plugin "{info.name}": {exc}', strict, exc)
        return
    except Exception as exc:  # e.g. a score_names() that raises: the plugin's bug, not simpeval's
        info.fail(f'Error registering simpeval plugin "{info.name}": {_describe(exc)}', strict, exc)
        return
    target[cls.name] = cls
    if check in (_check_metric, _check_dataset):
        registry.provider[cls.name] = info
    if check is _check_metric:
        info.notes.extend(contract_notes(cls))


def _check_metric(registry: Registry, cls: Any) -> dict[str, type]:
    """Where ``cls`` goes, or why it cannot: not a Metric, no name, a broken contract
    (:func:`check_contract`), or a name or sub-score taken."""
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"{cls!r} is not a simpeval.Metric subclass")
    if not cls.name:
        raise TypeError(f"metric class {cls.__qualname__} has no name")
    if not isinstance(cls.name, str):
        raise TypeError(f"metric class {cls.__qualname__} has the name {cls.name!r}, not a string: name it in quotes")
    check_contract(cls)
    for score in cls.score_names():
        owner = registry.sub_score_owner(score)
        if owner is not None:
            other = registry.provider[owner.name]
            what = "metric" if score == cls.name else "sub-score"
            raise ValueError(
                f'{what} "{score}" of metric "{cls.name}" is already a score of metric "{owner.name}" '
                f"({other.distribution} {other.version}): rename it"
            )
    return registry.metrics


def check_contract(cls: type[Metric]) -> None:
    """:class:`TypeError` naming the first way metric class ``cls`` would fail its users, and the fix.

    Checked when a plugin registers, so that the fault is one line against that plugin in
    ``simpeval metrics list`` instead of an error in the middle of someone's run:

    - no scoring step (``_score_items``);
    - an option whose name shadows an attribute or method (an option ``store`` or ``signature``
      would replace them on the instance);
    - per-item statistics (``_item_statistics``) without the step that scores their sums
      (``_score_from_totals``).
    """
    label = f'metric "{cls.name}"'
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(cls.__abstractmethods__))
        raise TypeError(f"{label} does not implement {missing}: implement it (see docs/plugin-authors.md)")
    for option_name in cls.options:
        if option_name in _RESERVED or _is_member(cls, option_name):
            raise TypeError(f'option "{option_name}" of {label} would hide the attribute {cls.__name__}.{option_name}: '
                            "rename the option")
    if cls._item_statistics is not Metric._item_statistics and cls._score_from_totals is Metric._score_from_totals:
        raise TypeError(f"{label} implements _item_statistics but not _score_from_totals, which scores their "
                        "sums: implement both, or neither")


def contract_notes(cls: type[Metric]) -> list[str]:
    """Faults of metric class ``cls`` that leave it scoring but make ``metrics list`` wrong, one line each.

    A model option whose default is a name only the metric understands (it overrides
    ``fingerprint``, as for ``checkpoint=shipped``) while :meth:`~Metric.missing_weights` cannot
    locate it: the listing would say ``weights missing`` for a metric that scores fine. The
    metric registers; ``metrics list`` shows the note (cheap: file stats only).
    """
    if not _overrides(cls, "fingerprint") or _overrides(cls, "missing_weights"):
        return []
    return [
        f'metric "{cls.name}" cannot locate the default "{option.default}" of its option "{option_name}", so '
        '"weights missing" may be wrong: override locate_model (or missing_weights) to say where that model is'
        for option_name, option in cls.options.items()
        if option.path and option.default is not None
        and not models.is_available(cls.locate_model(option_name, option.default))
    ]


# Instance attributes every metric has besides the class's: options may not take these names.
_RESERVED = frozenset({"settings", "store", "run", "provided_by"})


def _is_member(cls: type, name: str) -> bool:
    """Whether ``name`` is an attribute of the base class, or a method or property of ``cls``."""
    if hasattr(Metric, name):
        return True
    member = inspect.getattr_static(cls, name, None)
    return callable(member) or isinstance(member, (property, classmethod, staticmethod))


def _overrides(cls: type[Metric], name: str) -> bool:
    return getattr(cls, name).__func__ is not getattr(Metric, name).__func__ if isinstance(
        inspect.getattr_static(Metric, name), classmethod) else getattr(cls, name) is not getattr(Metric, name)


def _check_dataset(registry: Registry, cls: Any) -> dict[str, type]:
    """Where ``cls`` goes, or why it cannot: not a class, no name, or a name taken."""
    name = getattr(cls, "name", "") if isinstance(cls, type) else ""
    if not name:
        raise TypeError(f"{cls!r} is not a dataset class with a name")
    if not isinstance(name, str):
        raise TypeError(f"dataset class {cls.__qualname__} has the name {name!r}, not a string: name it in quotes")
    if name in registry.datasets:
        other = registry.provider[name]
        raise ValueError(f'dataset "{name}" is already registered by {other.distribution} ({other.name}): rename it')
    return registry.datasets


def _check_preset(registry: Registry, preset: Any) -> dict[str, Preset]:
    """Where ``preset`` goes, or why it cannot: not a :class:`Preset`, or a name taken."""
    if not isinstance(preset, Preset) or not preset.name:
        raise TypeError(f"{preset!r} is not a simpeval.presets.Preset with a name")
    if preset.name in registry.presets:
        raise ValueError(f'preset "{preset.name}" is already registered: rename it')
    return registry.presets


def _check_paper(registry: Registry, paper: Any) -> dict[str, Any]:
    """Where ``paper`` goes, or why it cannot: not a :class:`~simpeval.reproduce.paper.Paper`, or a name taken."""
    from simpeval.reproduce.paper import Paper

    if not isinstance(paper, Paper) or not getattr(paper, "name", ""):
        raise TypeError(f"{paper!r} is not a simpeval.reproduce.paper.Paper with a name")
    if paper.name in registry.papers:
        raise ValueError(f'paper "{paper.name}" is already registered: rename it')
    return registry.papers


def _check_trainer(registry: Registry, cls: Any) -> dict[str, type]:
    """Where trainer ``cls`` goes, or why it cannot: not a class with a name and ``load``, or a name taken
    (checked by shape: the registry does not import :mod:`simpeval.learning`)."""
    if not isinstance(cls, type) or not isinstance(getattr(cls, "name", None), str) or not cls.name \
            or not callable(getattr(cls, "load", None)):
        raise TypeError(f"{cls!r} is not a simpeval.learning.trainer.Trainer subclass with a name")
    if cls.name in registry.trainers:
        raise ValueError(f'trainer "{cls.name}" is already registered: rename it')
    return registry.trainers


def _describe(exc: BaseException) -> str:
    """``Type: message`` on one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _unknown(kind: str, name: str, known: list[str], listing: str) -> str:
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"see `{listing}`"
    return f'unknown {kind} "{name}": {hint}'
