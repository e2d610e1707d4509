"""A warm ``python -m sheetgen``: one process per test worker that has imported sheetgen and
forks a child for each command the hostile suite runs.

Starting Python and importing click, yaml, reportlab and sheetgen costs a fresh process
about 0.15 s of processor time, which the suite paid some 300 times a run for nothing it
tests. A child of this server is still a process of its own: its own session, its own
standard streams (the caller's pipes), its working folder, its environment and its exit
status, set up in the order ``subprocess`` sets them up. It runs
``sheetgen/__main__.py`` as ``python -m sheetgen`` does, so the command's own start
(``sheetgen.start``: Ctrl-C, the exit path) is the real one.

What a fork cannot give is a fresh interpreter: the start-up itself (Ctrl-C while modules
load) and anything Python decides at start-up from the environment (the streams'
encoding). ``hostile.run`` therefore sends a command here only when nothing of that is
asked: no script in place of sheetgen, no environment of the test's own, standard
output a pipe and no file-size limit; the rest start afresh.

The server runs as the user its commands run as, on the interpreter a fresh process of
that user would get. Protocol, over a Unix socket: the caller sends one JSON request
(``argv``, ``cwd``, ``env``) with three descriptors (standard input, output and error); the server
answers the child's process id, then, once the child has ended, its status as
``subprocess`` reports it (negative for a signal).
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

# What the commands the hostile suite runs import, loaded once here.
WARM = (
    "sheetgen.start",
    "sheetgen.cli",
    "sheetgen.seriesfile",
    "sheetgen.scoring",
    "sheetgen.houserules",
    "sheetgen.games",
    "sheetgen.export",
    "sheetgen.fill",
    "sheetgen.sheet",
    "sheetgen.atomic",
    "yaml",
    "filelock",
    "reportlab.pdfgen.canvas",
)

_HEADER = struct.Struct("!I")


def send_message(sock: socket.socket, data: dict[str, object], fds: list[int] = ()) -> None:  # type: ignore[assignment]
    payload = json.dumps(data).encode()
    message = _HEADER.pack(len(payload)) + payload
    if fds:
        socket.send_fds(sock, [message], list(fds))
    else:
        sock.sendall(message)


def receive_message(sock: socket.socket, fds: int = 0) -> tuple[dict[str, object], list[int]]:
    if fds:
        first, received, _, _ = socket.recv_fds(sock, 1 << 16, fds)
    else:
        first, received = sock.recv(1 << 16), []
    if not first:
        raise EOFError("the sheetgen server went away")
    data = first
    while len(data) < _HEADER.size or len(data) < _HEADER.size + _HEADER.unpack_from(data)[0]:
        more = sock.recv(1 << 16)
        if not more:
            raise EOFError("the sheetgen server went away mid-message")
        data += more
    (size,) = _HEADER.unpack_from(data)
    return json.loads(data[_HEADER.size : _HEADER.size + size]), list(received)


def _child(request: dict[str, object], fds: list[int]) -> None:
    """In the forked child: become the process ``subprocess.Popen`` would have started,
    then run ``python -m sheetgen ARGS``. Never returns."""
    status = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(str(request["cwd"]))
        os.setsid()
        os.environ.clear()
        os.environ.update(request["env"])  # type: ignore[arg-type]
        # As ``python -m``: the module's file as the program, the working folder first on
        # the path.
        main = os.path.join(os.path.dirname(sys.modules["sheetgen"].__file__ or ""), "__main__.py")
        sys.argv = [main, *request["argv"]]  # type: ignore[misc]
        sys.path[0] = os.getcwd()
        import runpy

        try:
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
    """Answer requests on the socket ``fd`` until the caller closes it."""
    import importlib

    for name in WARM:
        importlib.import_module(name)
    sock = socket.socket(fileno=fd)
    while True:
        try:
            request, fds = receive_message(sock, fds=3)
        except EOFError:
            return
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
        if pid == 0:
            sock.close()
            _child(request, fds)
        for received in fds:
            os.close(received)
        send_message(sock, {"pid": pid})
        _, wait_status = os.waitpid(pid, 0)
        send_message(sock, {"status": os.waitstatus_to_exitcode(wait_status)})


if __name__ == "__main__":
    serve(int(sys.argv[1]))
