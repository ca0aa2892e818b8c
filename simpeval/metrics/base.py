"""The :class:`Metric` base class and its :class:`Option` settings.

A metric declares what it needs (references or not, sentence or document input),
its direction, its sub-scores and its options. The contract follows sacrebleu's:
callers use the public *templates* (:meth:`Metric.sentence_scores`,
:meth:`Metric.corpus_score`, :meth:`Metric.corpus_statistics`,
:meth:`Metric.corpus_score_from_statistics`), which check the inputs once and the
answer after; a metric implements the protected *steps* they call, whose names
differ on purpose (:meth:`Metric._score_items`, and where the corpus score is not the
mean of the item scores, :meth:`Metric._score_corpus`). A metric with additive statistics
(BLEU, SARI, FKGL) derives from :class:`AdditiveMetric` and implements only
:meth:`~Metric._item_statistics` and :meth:`~Metric._score_from_totals`: its item and corpus
scores follow from them.

Every setting that changes a score is an :class:`Option` and appears in the
metric's :meth:`~Metric.signature`, as in sacrebleu, so a printed number can be
reproduced from its signature alone.
"""

from __future__ import annotations

import abc
import math
import numbers
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, ClassVar

from simpeval import models
from simpeval._version import __version__
from simpeval.errors import UsageError
from simpeval.languages import ENGLISH, check_supported, narrowed
from simpeval.store import gc_paused
from simpeval.tokenizers import TOKENIZER_NAMES, tokenizer_languages

if TYPE_CHECKING:
    from simpeval.run import Run
    from simpeval.store import StatsStore

# what plugins may import (tests/test_public_helpers.py): AdditiveMetric is in the plugin guide; Metric and
# Option are simpeval's own top-level names
__all__ = ["AdditiveMetric", "Metric", "Option"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def parse_bool(text: str | bool) -> bool:
    """Parse ``true/false/yes/no/1/0/on/off`` (case-insensitive) into a bool."""
    if isinstance(text, bool):
        return text
    lowered = str(text).strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(f"expected true or false, got {text!r}")


@dataclass(frozen=True)
class Option:
    """One setting of a metric.

    :param type: converts the command-line text (``-m bleu:smooth_value=0.1``) into
        the value; ``bool`` accepts true/false/yes/no/1/0. A float must be finite
        (``nan`` and ``inf`` would turn every score into NaN without a word).
    :param default: the value when the option is not given.
    :param help: one line for ``simpeval metrics list --options``.
    :param choices: the allowed values, if the option is an enumeration.
    :param in_signature: False for settings that cannot change a score
        (batch size, device, progress bars), so they stay out of the signature and
        the cache key.
    :param short: the key the signature uses (defaults to the option's name).
    :param path: the value names a model (a file, a directory or a hub id): the
        signature shows the model's name and content hash
        (:func:`simpeval.models.fingerprint`), never the path, so retrained weights
        get a new cache key and signatures stay portable.
    :param minimum: the smallest number allowed (a negative smoothing floor or count
        would give scores no formula defines, without a word).
    """

    type: Callable[[Any], Any] = str
    default: Any = None
    help: str = ""
    choices: tuple[Any, ...] | None = None
    in_signature: bool = True
    short: str | None = None
    path: bool = False
    minimum: float | None = None

    def parse(self, name: str, value: Any) -> Any:
        """Convert ``value`` (text from the command line, or already typed) for option ``name``."""
        if value is None:
            return None
        converter = parse_bool if self.type is bool else self.type
        try:
            parsed = converter(value)
        except (TypeError, ValueError):
            expected = "true or false" if self.type is bool else getattr(self.type, "__name__", "a value")
            raise UsageError(f'option "{name}" expects {expected}, got {value!r}') from None
        if isinstance(parsed, float) and not math.isfinite(parsed):
            raise UsageError(f'option "{name}" expects a finite number, got {value!r}')
        if self.minimum is not None and parsed < self.minimum:
            raise UsageError(f'option "{name}" expects a number of at least {self.minimum:g}, got {value!r}')
        if self.choices is not None and parsed not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise UsageError(f'option "{name}" must be one of {allowed}, got {value!r}')
        return parsed


class Metric(abc.ABC):
    """Base class of every simpeval metric, built-in or from a plugin.

    Class attributes a subclass sets:

    - ``name``: the metric's name on the command line and the key of its primary score.
    - ``sub_scores``: every key :meth:`_score_items` returns (defaults to ``(name,)``).
    - ``requires_references``: whether references must be given.
    - ``level``: ``"document"`` when the metric is made for multi-sentence texts (it
      splits them itself, with the core's :func:`simpeval.text.split_sentences`);
      ``"sentence"`` when it is made for one sentence. Either gets whole texts: given
      documents, a sentence metric scores each document as one text (as Cripwell et
      al. 2024 do for BLEU against the input), and ``simpeval evaluate`` notes it.
    - ``item_fields``: per-item values beyond the texts that the metric takes as
      keyword arguments of :meth:`_score_items` and :meth:`_score_corpus` when the
      input has them (e.g. ``target``, a document's target level from a ``.jsonl``).
    - ``higher_is_better`` and ``lower_is_better``: the direction of the primary score,
      and the set of sub-scores for which lower is better; ``no_direction``: the sub-scores that
      describe outputs rather than judge them (a compression ratio, a share of words deleted),
      which no output of simpeval calls better or worse (:meth:`declared_direction`).
    - ``options``: ``{name: Option}``; values become attributes of the instance.
    - ``presets``: ``{preset name: {option: value}}``: a plugin metric's own settings under a preset
      (a preset itself is registered by a plugin: :class:`simpeval.presets.Preset`, which holds the
      settings it gives other metrics and may name another metric to compute under this one's name;
      the built-in metrics carry no paper's settings: ``metaeval-2021``'s are in its module,
      :mod:`simpeval.reproduce.alva_manchego_2021`).
    - ``corpus_level``: True when :meth:`_score_corpus` is not the mean of the sentence scores.
    - ``neural``: True when scoring loads a model (torch); ``simpeval metrics list`` shows it.
    - ``version``: goes into the signature. Left unset, it is the version of the
      distribution that registered the metric (so reinstalling a changed plugin
      never serves scores cached under the old formula).
    - ``formula_version``: bumped whenever the metric's numbers can change (a formula, a
      tokeniser, a default, a language's rules); the signature prints it (``formula:2``), so it
      enters the score cache's key, and ``tests/test_golden_values.py`` pins built-in scores to it.
      The policy is in docs/metrics.md ("Signatures").
    - ``languages``: the ISO 639-1 codes of the languages the metric has rules for; None when it has
      none (its numbers do not depend on the language, or only through its tokenizer, whose own
      languages then narrow the metric's, see :meth:`supported_languages`). The default is English
      only, so a metric written for English refuses another language rather than scoring it by
      English rules.
    - ``trained_on``: the dataset registry names a learned metric's shipped weights saw in
      training (its scores on them are not evidence; the leaderboard marks them).
    - ``model_card``: the path of a learned metric's model card; ``simpeval metrics show``
      prints its ``## Headline`` section (training data, correlations on unseen data).
    - ``opt_in``: None for a metric that runs wherever every metric does (``simpeval leaderboard``'s
      default); else the reason it runs only when named (an LLM judge, whose CPU time on every rated
      item would dwarf the rest), which the leaderboard prints among the metrics it left out.
    - ``documents_only``: None for a metric that scores a sentence as well as a document; else why it is
      made for whole documents only (an aggregate of a sentence metric over a document's sentences, which
      on one sentence is that metric; D-SARI, whose length and sentence-count penalties compare whole
      documents). The sentence and languages leaderboards leave it out (it is on the document board), and
      so do the baselines of learned metrics judged on sentences (:mod:`simpeval.learning.baselines`).

    A metric that judges single words (LENS-SALSA's edit tags) declares its labels with
    :meth:`word_labels` and gives them with :meth:`label_words`; ``simpeval report`` colours the
    words of its samples with them.
    """

    name: ClassVar[str] = ""
    sub_scores: ClassVar[tuple[str, ...]] = ()
    description: ClassVar[str] = ""
    requires_references: ClassVar[bool] = False
    level: ClassVar[str] = "sentence"
    item_fields: ClassVar[tuple[str, ...]] = ()
    higher_is_better: ClassVar[bool] = True
    lower_is_better: ClassVar[frozenset[str]] = frozenset()
    no_direction: ClassVar[frozenset[str]] = frozenset()
    corpus_level: ClassVar[bool] = False
    neural: ClassVar[bool] = False
    options: ClassVar[dict[str, Option]] = {}
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    version: ClassVar[str | None] = None
    formula_version: ClassVar[str] = "1"
    languages: ClassVar[tuple[str, ...] | None] = (ENGLISH,)
    trained_on: ClassVar[tuple[str, ...]] = ()
    #: the scores that read the output alone (no source, no references): the only ones a dataset of single
    #: rated texts (``Dataset.kind`` ``"text"``, a text's readability) is correlated with
    output_only: ClassVar[frozenset[str]] = frozenset()
    model_card: ClassVar[str | None] = None
    opt_in: ClassVar[str | None] = None
    documents_only: ClassVar[str | None] = None
    #: ``(distribution, version, plugin)`` of whoever registered the metric; the registry sets it.
    provided_by: tuple[str, str, str] = ("simpeval", __version__, "simpeval")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Take ``score_sentences``, the name DESIGN.md's plugin example implements, as the step
        :meth:`_score_items` when a class defines it and not the other."""
        super().__init_subclass__(**kwargs)
        if "score_sentences" in cls.__dict__ and "_score_items" not in cls.__dict__:
            cls._score_items = cls.__dict__["score_sentences"]

    def __init__(self, lang: str = ENGLISH, **settings: Any) -> None:
        """Settings from ``options`` (unknown ones are a :class:`UsageError`) and the language of the
        texts, ``lang`` (ISO 639-1), which the metric must support (:meth:`supported_languages`)."""
        unknown = sorted(set(settings) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise UsageError(
                f'metric "{self.name}" has no option "{unknown[0]}" (its options: {known})'
            )
        self.settings: dict[str, Any] = {}
        for option_name, option in self.options.items():
            value = settings.get(option_name, option.default)
            self.settings[option_name] = option.parse(option_name, value)
            setattr(self, option_name, self.settings[option_name])
        self.lang = check_supported(f'metric "{self.name}"', lang, type(self).languages,
                                    "drop it from -m, or give --lang one of those")
        tokenizer = self.settings.get("tokenizer")
        if isinstance(tokenizer, str) and tokenizer in TOKENIZER_NAMES:
            check_supported(f'tokenizer "{tokenizer}" of metric "{self.name}"', lang, tokenizer_languages(tokenizer),
                            f"give {self.name}:tokenizer=13a (no language rules), or --lang one of those")

    def supported_languages(self) -> tuple[str, ...] | None:
        """The languages this instance can score (None: any): the class's ``languages``, narrowed by
        those of its ``tokenizer`` setting when it has one (Moses has rules for some languages)."""
        supported = type(self).languages
        tokenizer = self.settings.get("tokenizer")
        if isinstance(tokenizer, str) and tokenizer in TOKENIZER_NAMES:
            supported = narrowed(supported, tokenizer_languages(tokenizer))
        return supported

    @classmethod
    def first_language(cls) -> str:
        """English when the metric has its rules (or needs none), else the first language it has rules
        for: the language a description of the metric (``simpeval metrics show``) builds it in."""
        return ENGLISH if cls.languages is None or ENGLISH in cls.languages else cls.languages[0]

    @property
    def text_tokenizer(self) -> str:
        """What :func:`simpeval.text.tokenize` takes for this metric's ``tokenizer`` on texts in its
        language (``moses:de``; the plain name for English and for tokenizers without language rules)."""
        from simpeval.tokenizers import for_language

        return for_language(self.settings["tokenizer"], self.lang)

    # ------------------------------------------------------------------
    # Description
    # ------------------------------------------------------------------

    @classmethod
    def score_names(cls) -> tuple[str, ...]:
        """All sub-score keys, the primary one first."""
        names = cls.sub_scores or (cls.name,)
        return (cls.name, *[n for n in names if n != cls.name]) if cls.name in names else names

    @classmethod
    def is_higher_better(cls, sub_score: str) -> bool:
        """Direction of ``sub_score``: True when a higher value means a better output."""
        if sub_score in cls.lower_is_better:
            return False
        return cls.higher_is_better if sub_score == cls.name else True

    @classmethod
    def declared_direction(cls, sub_score: str) -> bool | None:
        """What a better/worse label may say of ``sub_score``: True (higher is better), False (lower is),
        None for a feature without a direction (``no_direction``): no label, no "best". Statistics that
        must orient every score (a pairwise agreement) use :meth:`is_higher_better`."""
        return None if sub_score in cls.no_direction else cls.is_higher_better(sub_score)

    def signature(self) -> str:
        """The settings that determine the scores, sacrebleu style.

        For example ``bleu|formula:1|lang:en|tok:moses|smooth:floor|smooth_value:0.0|eff:yes|version:0.1.0``:
        the name, the formula's version (``formula_version``), the language of the texts, then the
        options (those with ``in_signature=False`` and ``None`` values left out); the version of the
        distribution comes last. Two numbers with one signature come from the same computation.
        """
        parts = [self.name, f"formula:{self.formula_version}", f"lang:{self.lang}"]
        for option_name, option in self.options.items():
            value = self.settings[option_name]
            if option.in_signature and value is not None:
                shown = self.fingerprint(option_name, value) if option.path else _format_value(value)
                parts.append(f"{option.short or option_name}:{shown}")
        parts.append(f"version:{self.version or self.provided_by[1]}")
        return "|".join(parts)

    def fingerprint(self, option_name: str, value: Any) -> str:
        """How the model named by path option ``option_name`` appears in the signature: ``name@hash``.

        A metric whose option value is not itself the model's location (a name for a
        shipped checkpoint, a checkpoint that names its encoder) overrides this.

        :raises UsageError: when the model cannot be found.
        """
        return models.fingerprint(value, option=f"{self.name}:{option_name}")

    @classmethod
    def locate_model(cls, option_name: str, value: Any) -> str | os.PathLike:
        """Where the model named ``value`` by path option ``option_name`` lives: the value itself,
        unless a metric names shipped checkpoints (``checkpoint=shipped``) and overrides this to
        return the packaged directory. :meth:`missing_weights` looks there (cheap: no torch import)."""
        return value

    @classmethod
    def missing_weights(cls) -> list[str]:
        """The default models of this metric that are not installed (cheap: no torch import).

        ``simpeval metrics list`` shows ``weights missing`` when this is not empty. Each default
        is looked for where :meth:`locate_model` says it lives.
        """
        return [
            str(option.default) for option_name, option in cls.options.items()
            if option.path and option.default is not None
            and not models.is_available(cls.locate_model(option_name, option.default))
        ]

    def word_labels(self) -> dict[str, str]:
        """The labels :meth:`label_words` puts on words, ``{label: what it marks}`` in legend order.

        Empty (the default) for a metric that labels no words. ``simpeval report`` asks every
        metric it scores, after scoring, so this may read the metric's checkpoint but should not
        load a model.
        """
        return {}

    def label_words(self, sources: Sequence[str], outputs: Sequence[str]) -> list[list[tuple[str | None, str]]]:
        """Per output, its text cut into consecutive spans ``(label, text)``: ``label`` one of
        :meth:`word_labels` or None (unlabelled), and the texts joined give the output back.

        Implemented by a metric whose :meth:`word_labels` is not empty; the report checks the answer
        with :func:`checked_word_spans`.
        """
        raise NotImplementedError(f"metric {self.name} labels no words")

    # ------------------------------------------------------------------
    # Scoring
    # ------------------------------------------------------------------

    @property
    def run(self) -> Run:
        """The run this metric keeps its statistics, models and encodings in (:mod:`simpeval.run`).

        The engine binds one run to all its metrics with :meth:`bind_run`; a metric used on
        its own gets a private run on first use, released with the metric.
        """
        run = self.__dict__.get("_run")
        if run is None:
            from simpeval.run import Run

            run = Run()
            self.bind_run(run)
        return run

    @property
    def store(self) -> StatsStore:
        """Where this metric memoises per-text statistics: its run's store (see :mod:`simpeval.store`)."""
        return self.run.store

    def bind_run(self, run: Run) -> None:
        """Use ``run`` from now on, here and in every component metric held as an attribute
        (iBLEU's two BLEUs, FKBLEU's FKGL), so that they all share one run's statistics and models."""
        self._run = run
        for value in list(vars(self).values()):
            if isinstance(value, Metric):
                value.bind_run(run)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (sent to a worker process) without its run: a worker binds its own."""
        state = dict(self.__dict__)
        state.pop("_run", None)
        return state

    # ------------------------------------------------------------------
    # The public templates: what callers use. Each checks once, then calls a protected step.
    # ------------------------------------------------------------------

    def sentence_scores(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, list[float]]:
        """Per-item scores, checked (as sacrebleu's ``sentence_score``).

        Checks the inputs (:meth:`check_inputs`), calls :meth:`_score_items` (with the
        per-item ``fields``) and checks its answer: every declared sub-score and no other,
        one real number per item (NaN for undefined, never infinite).

        :param sources: the original texts.
        :param outputs: the system outputs, aligned with ``sources``.
        :param references: item-major: ``references[i]`` lists the references of
            item ``i`` (possibly of varying length); ``None`` when there are none.
        :returns: ``{sub_score: [float per item]}``; the key equal to ``name`` is primary.
        """
        sources, outputs, references, fields = _own_copies(sources, outputs, references, fields)
        self.check_inputs(sources, outputs, references)
        answer = self._score_items(sources, outputs, references, **fields)
        return {key: self._checked_values(key, values, len(outputs))
                for key, values in self._checked_keys(answer).items()}

    def corpus_score(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, float]:
        """Corpus scores, checked: :meth:`check_inputs`, :meth:`_score_corpus`, then one real number
        per declared sub-score."""
        sources, outputs, references, fields = _own_copies(sources, outputs, references, fields)
        self.check_inputs(sources, outputs, references)
        answer = self._score_corpus(sources, outputs, references, **fields)
        return self._checked_scores(answer)

    def corpus_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]] | None:
        """Per-item additive statistics, checked: :meth:`check_inputs`, then :meth:`_item_statistics`;
        None for a metric without them (see :meth:`has_statistics`).

        Callers sum them (the runner batch by batch, paired tests over resamples) and turn the
        sums into scores with :meth:`corpus_score_from_statistics`.
        """
        sources, outputs, references, _ = _own_copies(sources, outputs, references, {})
        self.check_inputs(sources, outputs, references)
        return self._item_statistics(sources, outputs, references)

    def corpus_score_from_statistics(self, totals: Sequence[float]) -> dict[str, float]:
        """Every sub-score from summed :meth:`corpus_statistics`, checked: :meth:`_score_from_totals`,
        then one real number per declared sub-score."""
        return self._checked_scores(self._score_from_totals(totals))

    @classmethod
    def has_statistics(cls) -> bool:
        """Whether the corpus score comes from summed per-item statistics (the class implements
        :meth:`_item_statistics`), so that it can be scored batch by batch and resampled."""
        return cls._item_statistics is not Metric._item_statistics

    # ------------------------------------------------------------------
    # The protected steps: what a metric implements. Never called with unchecked inputs.
    # ------------------------------------------------------------------

    @abc.abstractmethod
    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, list[float]]:
        """Score each output against its source (and references): ``{sub_score: [float per item]}``.

        The inputs are checked already (:meth:`sentence_scores`); ``fields`` are the per-item
        values named by ``item_fields``.
        """

    def _score_corpus(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, float]:
        """The corpus scores: the mean of the item scores unless a metric overrides it
        (and sets ``corpus_level``)."""
        per_item = self._score_items(sources, outputs, references, **fields)
        return {key: mean_ignoring_nan(values) for key, values in per_item.items()}

    def _item_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]] | None:
        """Per-item additive statistics whose sums :meth:`_score_from_totals` turns into the corpus
        scores (BLEU's n-gram counts), or None when the metric has none. A metric implementing
        this step implements :meth:`_score_from_totals` too (the registry checks it).

        Paired significance tests resample these sums, so a corpus-level metric is recomputed
        on every resample instead of being averaged over sentences.
        """
        return None

    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
        """Every sub-score from summed :meth:`_item_statistics` (only for metrics that have them)."""
        raise NotImplementedError(f"{type(self).__name__} has no corpus statistics")

    def check_inputs(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None,
    ) -> None:
        """Raise :class:`UsageError` when the inputs cannot be scored by this metric: lists of
        strings of one length, and references (one list of strings per item, of any length)
        when the metric needs them."""
        for what, texts in (("sources", sources), ("outputs", outputs)):
            if isinstance(texts, str) or not _all_strings(texts):
                raise UsageError(f'metric "{self.name}" needs {what} as a list of strings')
        if len(sources) != len(outputs):
            raise UsageError(
                f"{len(sources)} sources but {len(outputs)} outputs: give one output per source line"
            )
        if references is None:
            if self.requires_references:
                raise UsageError(
                    f'metric "{self.name}" needs references: pass --refs FILE (one or more)'
                )
            return
        if len(references) != len(outputs):
            raise UsageError(
                f"{len(references)} reference items but {len(outputs)} outputs: "
                "give one line per output in every reference file"
            )
        if any(map(isinstance, references, repeat(str))) or not _all_strings(chain.from_iterable(references)):
            i = next(i for i, refs in enumerate(references) if isinstance(refs, str) or not _all_strings(refs))
            raise UsageError(f'metric "{self.name}" needs the references of item {i} as a list of strings')

    def _checked_scores(self, answer: Any) -> dict[str, float]:
        """``answer`` as one float per declared sub-score, or :class:`MetricError`."""
        return {key: self._checked_values(key, [value], 1)[0] for key, value in self._checked_keys(answer).items()}

    def _checked_keys(self, answer: Any) -> dict[str, Any]:
        """``answer`` if it is a dict with exactly the declared sub-scores, else :class:`MetricError`."""
        if not isinstance(answer, dict):
            raise MetricError(self, f"returned {type(answer).__name__}, not a dict of sub-scores")
        declared = self.score_names()
        missing = [k for k in declared if k not in answer]
        if missing:
            raise MetricError(self, f"returned no {', '.join(missing)} score")
        extra = [k for k in answer if k not in declared]
        if extra:
            raise MetricError(self, f'returned sub-score "{extra[0]}", which it does not declare in sub_scores')
        return {key: answer[key] for key in declared}

    def _checked_values(self, key: str, values: Any, n: int) -> list[float]:
        """``values`` as ``n`` floats, or :class:`MetricError`: real numbers only, NaN allowed (undefined)."""
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise MetricError(self, f"returned {type(values).__name__} for {key}, not a list of numbers")
        if len(values) != n:
            raise MetricError(self, f"returned {len(values)} {key} scores for {n} items")
        if isinstance(values, list) and set(map(type, values)) <= {float} and not any(map(math.isinf, values)):
            return list(values)  # the usual answer, plain finite floats, checked at C speed
        checked = []
        for value in values:
            if not isinstance(value, numbers.Real):
                raise MetricError(self, f"returned a {type(value).__name__} ({value!r:.40}) as a {key} score")
            try:
                number = float(value)
            except OverflowError:  # an integer such as 10**400
                raise MetricError(self, f"returned a {key} score too large for a float") from None
            if math.isinf(number):
                raise MetricError(self, f"returned an infinite {key} score")
            checked.append(number)
        return checked

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.signature()}>"


class MetricError(UsageError):
    """A metric answered something that is not a score (wrong count, a string, no value, ...).

    The message names the metric and who provides it, so that a bug in a third-party
    plugin is reported against that plugin, with the way to switch it off.
    """

    def __init__(self, metric: Metric, problem: str) -> None:
        distribution, version, plugin = metric.provided_by
        remedy = ("report it to simpeval's authors" if distribution == "simpeval" else
                  f"report it to the authors of {distribution} or switch it off with -p no:{plugin}")
        super().__init__(f'metric "{metric.name}" ({distribution} {version}) {problem}: {remedy}')


def checked_word_spans(metric: Metric, outputs: Sequence[str], answer: Any) -> list[list[tuple[str | None, str]]]:
    """``metric.label_words``'s answer for ``outputs``, checked: one list of ``(label, text)`` per
    output, labels among ``metric.word_labels()`` or None, texts joining into the output.

    :raises MetricError: naming the metric's distribution when the answer breaks that contract.
    """
    labels = metric.word_labels()
    if not isinstance(answer, list) or len(answer) != len(outputs):
        raise MetricError(metric, f"labelled the words of {len(answer) if isinstance(answer, list) else 'no'} "
                                  f"outputs for {len(outputs)}")
    for output, spans in zip(outputs, answer):
        if not all(isinstance(s, tuple) and len(s) == 2 and (s[0] is None or s[0] in labels)
                   and isinstance(s[1], str) for s in spans):
            raise MetricError(metric, "labelled words with something other than (label of word_labels() or None, text)")
        if "".join(text for _, text in spans) != output:
            raise MetricError(metric, f"labelled words whose texts do not join into the output {output[:40]!r}")
    return answer


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def mean_ignoring_nan(values: Sequence[float]) -> float:
    """The mean of the values that are not NaN (NaN when none are); finite when they all are."""
    defined = [v for v in values if not math.isnan(v)]
    if not defined:
        return math.nan
    total = sum(defined)
    if math.isinf(total) and not any(map(math.isinf, defined)):  # finite scores near 1.8e308 overflow the sum
        return math.fsum(v / len(defined) for v in defined)  # their mean never does
    return total / len(defined)


def _all_strings(texts: Iterable[Any]) -> bool:
    """Whether every element is a ``str`` (checked at C speed: inputs hold every reference)."""
    return all(map(isinstance, texts, repeat(str)))


def _own_copies(
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    fields: dict[str, Sequence[Any]],
) -> tuple[list[str], list[str], list[list[str]] | None, dict[str, list[Any]]]:
    """Fresh lists of a call's inputs (and of each item's references), owned by that one call.

    Why: the caller hands the same lists to every metric of a run, so a metric that writes
    into what it is given (``outputs[:] = ...``) would change the numbers of the metrics
    scored after it, under their own signatures. Copying costs one list per input (3.8 ms
    for 15,000 items with ten references each, at load 5.7) and keeps the ``list`` type
    the plugin contract promises. A string stays a string, for :meth:`Metric.check_inputs` to refuse.
    """
    def fresh(value: Any) -> Any:
        return value if isinstance(value, str) or not isinstance(value, Iterable) else list(value)

    own_references = references if references is None or isinstance(references, str) else [
        fresh(refs) for refs in references
    ]
    return fresh(sources), fresh(outputs), own_references, {name: fresh(value) for name, value in fields.items()}


class AdditiveMetric(Metric):
    """A metric whose scores come from additive per-item statistics (BLEU's n-gram counts, SARI's
    operation counts, FKGL's sentence, word and syllable counts).

    It implements :meth:`~Metric._item_statistics` and :meth:`~Metric._score_from_totals` and
    gets the rest: each item's scores are its own statistics scored (:meth:`_score_from_item`),
    the corpus score is their sums scored, summed in item order as the engine sums batches.
    One formula gives all three (item, corpus, batch by batch, and the paired tests' resamples),
    so they cannot drift apart. No item at all has no score: every sub-score is NaN.
    """

    corpus_level = True

    # Counting allocates a tuple per text, token and item and no reference cycle: Python's cyclic
    # garbage collector is paused meanwhile (simpeval.store.gc_paused), since each collection would
    # walk every object the process holds.

    def sentence_scores(self, *args: Any, **kwargs: Any) -> dict[str, list[float]]:
        with gc_paused():
            return super().sentence_scores(*args, **kwargs)

    def corpus_score(self, *args: Any, **kwargs: Any) -> dict[str, float]:
        with gc_paused():
            return super().corpus_score(*args, **kwargs)

    def corpus_statistics(self, *args: Any, **kwargs: Any) -> list[tuple[float, ...]] | None:
        with gc_paused():
            return super().corpus_statistics(*args, **kwargs)

    @abc.abstractmethod
    def _item_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]]:
        """One tuple of additive statistics per item (see :meth:`Metric._item_statistics`)."""

    @abc.abstractmethod
    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
        """Every sub-score from statistics summed over items (see :meth:`Metric._score_from_totals`)."""

    def _score_from_item(self, statistics: Sequence[float]) -> dict[str, float]:
        """One item's scores from its own statistics: the corpus formula, unless a metric treats a
        single item otherwise (sentence BLEU smooths zero counts where corpus BLEU does not)."""
        return self._score_from_totals(statistics)

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, list[float]]:
        per_item = [self._score_from_item(s) for s in self._item_statistics(sources, outputs, references)]
        return {key: [scores[key] for scores in per_item] for key in self.score_names()}

    def _score_corpus(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, float]:
        statistics = self._item_statistics(sources, outputs, references)
        if not statistics:
            return {key: math.nan for key in self.score_names()}
        return self._score_from_totals([sum(column) for column in zip(*statistics)])
