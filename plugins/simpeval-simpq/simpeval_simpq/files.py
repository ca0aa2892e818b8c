"""The name of simpq's checkpoint file, importable without numpy: the trainer (read at start-up) names it,
:mod:`.model` reads and writes it."""

CHECKPOINT_FILE = "simpq.json"
