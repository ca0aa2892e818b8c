"""Errors that end a command with one line naming the problem and the remedy (exit status 2)."""


class UsageError(Exception):
    """Bad input, options or environment: the message names the problem and how to fix it.

    The CLI prints it as one line and exits with status 2, without a traceback.
    Metrics raise it for missing model weights, unknown options and the like.
    """


class PluginLoadError(Exception):
    """A plugin failed to import or register; the others keep working."""


class PluginError(Exception):
    """A plugin's code raised (a bug of that plugin, not bad input); the message names the plugin.

    The CLI prints it as one line with exit status 1 (:mod:`simpeval.cli.faults`).
    """
