"""Where the ``sheetgen`` command starts: Ctrl-C is answered before anything heavy loads."""

# Nothing is imported here before the handler is set: sheetgen.interrupt loads only what
# Python has loaded before it runs any script, so a Ctrl-C while it loads prints no trace.


def main() -> None:
    """Entry point of the ``sheetgen`` console script and of ``python -m sheetgen``."""
    from sheetgen.interrupt import answer_ctrl_c, ignore_late_ctrl_c

    answer_ctrl_c()
    from sheetgen.cli import main as run

    try:
        run()
    finally:
        ignore_late_ctrl_c()
