"""Errors that end a command with one line naming the problem and the remedy (exit status 2)."""


class UsageError(Exception):
    """Bad input, options or environment: the message names the problem and how to fix it.

    The CLI prints it as one line and exits with status 2, without a traceback.
    Metrics raise it for missing model weights, unknown options and the like.
    """


class PluginLoadError(Exception):
    """A plugin failed to import or register; the others keep working."""
