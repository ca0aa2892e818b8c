"""``python -m simpeval`` runs the command line."""

from simpeval.cli import main

main()
