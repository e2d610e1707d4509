"""Where the ``sheetgen`` command starts: Ctrl-C is answered before anything heavy loads."""

# Only modules Python has loaded before it runs any script (os, sys) or builds in: a Ctrl-C
# while this file's own imports load, before the handler is set, would print a trace.
# Hence the C module under ``signal`` (whose Python face loads enum, functools and more)
# and no typing: the annotations below need none.
import _signal  # type: ignore[import-not-found]  # stubs exist only for signal
import os
import sys

INTERRUPTED = 130


def answer_ctrl_c() -> None:
    """From now on Ctrl-C ends the run at once, quietly, with status 130.

    A shell starts a script's background job (``sheetgen fill ... &``) with Ctrl-C
    ignored, so that it outlives the terminal's interrupt: then it stays ignored.
    """
    if _signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN:
        _signal.signal(_signal.SIGINT, _on_ctrl_c)


def _on_ctrl_c(signum: int, frame: object) -> None:
    """Ctrl-C ends the run at once, whatever it is doing, with status 130 and no message.

    Raising KeyboardInterrupt instead is lost where Python cannot raise (a weak reference's
    callback: the run goes on and writes its file), or aborts the process where a C
    extension is being loaded, or prints a trace from the middle of an import. Nothing is
    lost by stopping at once: every file is written to a temporary and renamed into place,
    so only this run's temporaries (and a folder it made for a batch) can be left, and they
    are removed first.
    """
    # Only this run's writes can have left temporaries, and they were made through
    # sheetgen.atomic: if it is not (wholly) loaded yet, there are none. Importing it here
    # could meet it half-loaded by the very import the Ctrl-C interrupted.
    abandon_writes = getattr(sys.modules.get("sheetgen.atomic"), "abandon_writes", None)
    if abandon_writes is not None:
        abandon_writes()
    try:
        if sys.stderr.isatty():  # end the line the terminal's ^C is on
            os.write(sys.stderr.fileno(), b"\n")
    except (OSError, ValueError, AttributeError):
        pass
    os._exit(INTERRUPTED)


def main() -> None:
    """Entry point of the ``sheetgen`` console script and of ``python -m sheetgen``."""
    answer_ctrl_c()
    from sheetgen.cli import main as run

    try:
        run()
    except SystemExit as done:
        status = done.code
    else:
        status = 0
    finally:
        # The run is over and its files are in place. Python restores the default handler
        # while it shuts down, where a late Ctrl-C would kill the process by signal after
        # it said "Wrote ...": from here on Ctrl-C is ignored and the run ends as it would.
        if _signal.getsignal(_signal.SIGINT) is _on_ctrl_c:
            _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    # Python's own shutdown waits for other threads (a pool of workers): only without
    # any does the run end at once.
    import threading

    if (status is None or isinstance(status, int)) and threading.active_count() == 1:
        leave(status or 0)
    raise SystemExit(status)


def leave(status: int) -> None:
    """End the process with ``status`` without freeing its objects one by one.

    Python's own shutdown tears down every module and object it loaded: after a booklet
    (weasyprint, fontTools, pikepdf, reportlab, jinja2) that is about 0.1 s of processor
    time for memory the system takes back at once anyway (mypy ends the same way). What
    the shutdown does that matters is done here: the exit handlers run (logging, temporary
    files) and the standard streams are flushed.
    """
    import atexit
    import contextlib

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    os._exit(status)
