"""Ctrl-C as a user meets it: the run ends at once, quietly, with status 130."""

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


def ignore_late_ctrl_c() -> None:
    """The run is over and its files are in place: from here on Ctrl-C is ignored.

    Python restores the default handler while it shuts down, where a late Ctrl-C would
    kill the process by signal after it said "Wrote ...": ignored, the run ends as it would.
    """
    if _signal.getsignal(_signal.SIGINT) is _on_ctrl_c:
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)


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
