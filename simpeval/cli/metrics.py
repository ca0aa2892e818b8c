"""``simpeval metrics list`` and ``simpeval metrics show NAME``."""

from __future__ import annotations

import json

import click

from simpeval.tables import render


@click.group()
def metrics() -> None:
    """List the installed metrics and their options."""


@metrics.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json"]), default="table")
@click.option("--strict", is_flag=True, help="Fail (exit status 2) if any plugin cannot be loaded.")
def list_metrics(fmt: str, strict: bool) -> None:
    """Every metric with its sub-scores, providing distribution, needs and status; then broken plugins."""
    from simpeval.cli.state import current_state, echo_plugin_faults
    from simpeval.errors import UsageError

    reg = current_state().listing()
    failures = reg.failures
    if strict and failures:
        raise UsageError(f"{failures[0].errors[0]}; fix or uninstall that plugin, or switch it off "
                         f"with -p no:{failures[0].name}")
    rows = []
    for name in sorted(reg.metrics):
        cls, info = reg.metrics[name], reg.provider[name]
        rows.append({
            "name": name,
            "sub-scores": " ".join(s for s in cls.score_names() if s != name),
            "provided by": f"{info.distribution} {info.version}".strip(),
            "refs": "yes" if cls.requires_references else "no",
            "level": cls.level,
            "neural": "yes" if cls.neural else "no",
            "status": _status(cls, info.ok),
        })
    if fmt == "json":
        click.echo(json.dumps({
            "metrics": rows,
            "errors": [error for info in failures for error in info.errors],
            "notes": [note for info in reg.plugins for note in info.notes],
            "disabled": [info.name for info in reg.plugins if info.disabled],
        }, indent=2))
        return
    columns = list(rows[0]) if rows else ["name"]
    click.echo(render(columns, [list(r.values()) for r in rows], fmt), nl=False)
    echo_plugin_faults(reg)
    notes = [f"note: {info.label}: {note}" for info in reg.plugins for note in info.notes]
    if notes:
        click.echo("\n" + "\n".join(notes))


def _status(cls: type, plugin_ok: bool) -> str:
    """``plugin error`` for a broken plugin, ``weights missing`` when a default model is not installed, else ``ok``."""
    if not plugin_ok:
        return "plugin error"
    return "weights missing" if cls.missing_weights() else "ok"


@metrics.command("show")
@click.argument("name")
@click.option("--preset", default=None, help="Show the settings this preset selects.")
def show_metric(name: str, preset: str | None) -> None:
    """A metric's description, options, presets and signature."""
    from simpeval.cli.state import registry
    from simpeval.errors import UsageError

    reg = registry()
    asked = reg.metric_class(name)
    reg.check_preset(preset)
    cls = reg.metric_class(reg.resolve(asked.name, preset=preset)[0])  # bleu under lens-2023 is gleu-nltk
    if preset is not None and cls is asked and preset not in reg.metric_presets(cls):
        known = ", ".join(reg.metric_presets(cls)) or "none"
        raise UsageError(f'metric "{cls.name}" has no preset "{preset}" (its presets: {known})')
    metric = reg.create_metric(cls.name, preset=preset, lang=cls.first_language())
    doc = (cls.description or cls.__doc__ or "").strip().splitlines()
    click.echo(f"{cls.name}: {doc[0] if doc else ''}")
    click.echo(f"  sub-scores: {', '.join(cls.score_names())}")
    click.echo(f"  needs references: {'yes' if cls.requires_references else 'no'}; level: {cls.level}")
    click.echo(f"  presets: {', '.join(reg.metric_presets(cls)) or 'none'}")
    languages = metric.supported_languages()
    click.echo(f"  languages (--lang): {', '.join(languages) if languages is not None else 'any'}")
    for option_name, option in cls.options.items():
        click.echo(f"  {option_name} (default {option.default!r}): {option.help}")
    from simpeval.errors import UsageError

    try:
        signature = metric.signature()
    except UsageError as exc:  # a model option names weights that are not installed
        signature = f"unavailable ({exc})"
    click.echo(f"  signature: {signature}")
    for line in _card_headline(cls):
        click.echo(f"  {line}")


def _card_headline(cls: type) -> list[str]:
    """What a learned metric saw in training and every row its judge wrote (:mod:`simpeval.learning.record`);
    a metric with a model card but no judged record (weights simpeval cannot run here): the card's headline."""
    from pathlib import Path

    from simpeval.learning.record import load_record, show_lines

    if load_record(cls) is not None:
        return [*show_lines(cls), f"model card: {cls.model_card}"]
    lines = [f"trained on: {', '.join(cls.trained_on)}"] if cls.trained_on else []
    if cls.model_card:
        try:
            card = Path(cls.model_card).read_text(encoding="utf-8").splitlines()
        except OSError:
            return [*lines, f"model card: {cls.model_card} is missing (reinstall the plugin)"]
        titles = ("## Headline", f"## Headline ({cls.name})")
        section = next((i for i, line in enumerate(card) if line.strip() in titles), None)
        if section is not None:
            body = card[section + 1:]
            end = next((i for i, line in enumerate(body) if line.startswith("#")), len(body))
            lines += [line for line in body[:end] if line.strip()]
        lines.append(f"model card: {cls.model_card}")
    return lines
