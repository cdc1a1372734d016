"""Run the triqua command with ``python -m triqua``."""

from triqua.cli import main

main()
