"""A warm ``python -m sheetgen``: one process per test worker that has imported sheetgen and
forks a child for each command the hostile suite runs.

Starting Python and importing click, yaml, reportlab and sheetgen costs a fresh process
about 0.15 s of processor time, which the suite paid some 300 times a run for nothing it
tests. A child of this server is still a process of its own: its own session, its own
standard streams (the caller's pipes), its working folder, its umask and its exit status,
set up in the order ``subprocess`` sets them up; its environment is the server's, which
``hostile`` uses only while it is the worker's. It runs
``sheetgen/__main__.py`` as ``python -m sheetgen`` does, so the command's own start
(``sheetgen.start``: Ctrl-C, the exit path) is the real one.

What a fork cannot give is a fresh interpreter: the start-up itself (Ctrl-C while modules
load) and what Python and the server decided when they started (the environment, the
streams' encoding, resource limits, modules already loaded). ``hostile.run`` therefore
sends a command here only when nothing of that differs: no script in place of sheetgen,
no environment of the test's own, the worker's environment and limits as when the
server started, standard output a pipe and no file-size limit; the rest start afresh.
Fresh runs and the server both run Python with -P, so that, as for the installed
``sheetgen`` command, the working folder is not on the module path (``python -m`` would
put it first, and a planted ``yaml.py`` there would run).

The server runs as the user its commands run as, on the interpreter a fresh process of
that user would get. Protocol, over a Unix socket (``Channel``): the caller sends a JSON
request (``argv``, ``cwd``, ``umask``) with three descriptors (standard input, output and
error) and the server answers ``{"pid": ...}``; whenever a child ends, the server says
``{"ended": pid, "status": ...}``, the status as ``subprocess`` reports it (negative for
a signal). Several children may run at once (writers racing for a series' lock).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import struct
import sys
import threading
import traceback
from collections.abc import Sequence

# What the commands the hostile suite runs import, loaded once here.
WARM = (
    "sheetgen.start",
    "sheetgen.cli",
    "sheetgen.series.file",
    "sheetgen.game.scoring",
    "sheetgen.game.houserules",
    "sheetgen.game.definition",
    "sheetgen.series.export",
    "sheetgen.sheet.fill",
    "sheetgen.sheet.blank",
    "sheetgen.atomic",
    "yaml",
    "filelock",
    "reportlab.pdfgen.canvas",
)

_HEADER = struct.Struct("!I")
# What a child runs in place of sheetgen when asked to describe itself.
PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "process_probe.py")


class Channel:
    """Length-prefixed JSON messages over a Unix stream socket, with descriptors alongside;
    what one read brings beyond a message waits for the next."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = b""
        self._fds: list[int] = []

    def send(self, data: dict[str, object], fds: Sequence[int] = ()) -> None:
        payload = json.dumps(data).encode()
        message = _HEADER.pack(len(payload)) + payload
        if fds:
            socket.send_fds(self.sock, [message], list(fds))
        else:
            self.sock.sendall(message)

    def receive(self, fds: int = 0) -> tuple[dict[str, object], list[int]]:
        """The next message, and the ``fds`` descriptors sent with it."""
        while not self.pending():
            if fds:
                data, received, _, _ = socket.recv_fds(self.sock, 1 << 16, fds)
                self._fds += received
            else:
                data = self.sock.recv(1 << 16)
            if not data:
                raise EOFError("the other end of the sheetgen server's socket went away")
            self._buffer += data
        (size,) = _HEADER.unpack_from(self._buffer)
        end = _HEADER.size + size
        message = json.loads(self._buffer[_HEADER.size : end])
        self._buffer = self._buffer[end:]
        taken, self._fds = self._fds[:fds], self._fds[fds:]
        return message, taken

    def pending(self) -> bool:
        """Whether a whole message is already read and waiting."""
        return (
            len(self._buffer) >= _HEADER.size
            and len(self._buffer) >= _HEADER.size + _HEADER.unpack_from(self._buffer)[0]
        )


def _child(request: dict[str, object], fds: list[int]) -> None:
    """In the forked child: become the process ``subprocess.Popen`` would have started,
    then run ``python -m sheetgen ARGS``. Never returns."""
    status = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        # Nothing of the server's stays open (its socket, its selector): as Popen's
        # close_fds.
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        os.chdir(str(request["cwd"]))
        os.setsid()
        os.umask(int(request["umask"]))  # type: ignore[call-overload]
        import runpy

        try:
            if request.get("probe"):
                runpy.run_path(PROBE, run_name="__main__")
            else:
                # As ``python -P -m``: the module's file as the program; the working folder
                # is not on the path (the server runs with -P too), as for the installed
                # ``sheetgen`` command.
                main = os.path.join(
                    os.path.dirname(sys.modules["sheetgen"].__file__ or ""), "__main__.py"
                )
                sys.argv = [main, *request["argv"]]  # type: ignore[misc]
                runpy.run_module("sheetgen", run_name="__main__", alter_sys=True)
            status = 0
        except SystemExit as done:
            code = done.code
            if code is None:
                status = 0
            elif isinstance(code, int):
                status = code
            else:
                print(code, file=sys.stderr)
                status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    # What Python's own shutdown does that a run can tell: wait for the threads that are
    # not daemons (a pool's), run the exit handlers, flush the streams; a standard output
    # that cannot take what is left ends the run with 120.
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
    except BaseException:
        traceback.print_exc()
    try:
        sys.stdout.flush()
    except Exception:
        traceback.print_exc()
        status = 120
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    os._exit(status & 0xFF)


def serve(fd: int) -> None:
    """Answer requests on the socket ``fd`` until the caller closes it. Children run side by
    side: each request is answered with the child's process id at once, and each child's
    end with its id and status when it comes."""
    import importlib
    import selectors
    import signal

    for name in WARM:
        importlib.import_module(name)
    channel = Channel(socket.socket(fileno=fd))
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    running: set[int] = set()
    with selectors.DefaultSelector() as selector:
        selector.register(channel.sock, selectors.EVENT_READ)
        selector.register(wake_read, selectors.EVENT_READ)
        while True:
            for key, _ in selector.select():
                if key.fileobj == wake_read:
                    os.read(wake_read, 4096)
            while channel.pending() or _readable(channel.sock):
                try:
                    request, fds = channel.receive(fds=3)
                except EOFError:
                    return
                for stream in (sys.stdout, sys.stderr):
                    stream.flush()
                pid = os.fork()
                if pid == 0:  # the server's descriptors are closed in _child
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    _child(request, fds)
                for received in fds:
                    os.close(received)
                running.add(pid)
                channel.send({"pid": pid})
            for pid in list(running):
                ended, wait_status = os.waitpid(pid, os.WNOHANG)
                if ended:
                    running.discard(pid)
                    channel.send({"ended": pid, "status": os.waitstatus_to_exitcode(wait_status)})


def _readable(sock: socket.socket) -> bool:
    import select

    return bool(select.select([sock], [], [], 0)[0])


if __name__ == "__main__":
    serve(int(sys.argv[1]))
