"""Let ``python -m sheetgen`` run the command line."""

import sys

try:
    from sheetgen.start import main
except KeyboardInterrupt:  # Ctrl-C while Python is still starting up
    sys.exit(130)

main()
