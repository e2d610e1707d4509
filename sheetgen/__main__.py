"""Let ``python -m sheetgen`` run the command line."""

from sheetgen.cli import main

main()
