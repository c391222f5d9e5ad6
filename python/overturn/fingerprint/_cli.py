"""``python -m overturn.fingerprint``: the host of the core's CLI driver.

Internal module (the entry is ``__main__.py``); the twin of ``overturn-fingerprint``
(``src/cli.ts``), printing the same bytes. The core (``assembly/cli/drive.ts``)
plans the run, splits and reads the lines, deals them to the jobs, formats
every byte printed and says the exit status; it drives this loop one action
at a time (``CLI_*``) and this file does each and reports back: argv and the
sizes at its paths, file and stdin reads, stdout/stderr, the terminal, a
closed pipe, and the worker threads (each with its own core instance; the
core runs outside the GIL, so N threads use N cores).
"""
from __future__ import annotations

import os
import sys
import time
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, List

from . import __version__
from ._abi import CLI_EXIT, CLI_HOLD, CLI_POLL, CLI_READ, CLI_READ_ALL, CLI_SEND, CLI_SPAWN, CLI_WAIT, CLI_WRITE
from ._engine import cli_step

PROG = "python -m overturn.fingerprint"
_env = os.environ


def _size(path: str) -> bytes:
    try:
        return b"%d" % os.stat(path).st_size
    except (OSError, ValueError):
        return b"-"


def _facts() -> bytes:
    """What the core needs to know of this host (``cli/plan.ts``, ``cli/drive.ts``): threads share the module;
    the tests' settings (workers whatever the size, chunks dealt in turn), an empty one being none."""
    return b"cores=%d\0worker=thread\0min-bytes=%s\0deal=%s\0progress=%d\0tty=%d\0" % (
        os.cpu_count() or 1, _env.get("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES", "").encode(),
        _env.get("OVERTURN_FINGERPRINT_JOBS_DEAL", "").encode(), sys.stderr.isatty(), sys.stdout.isatty())


def _err_name(e: OSError) -> str:
    """The name of a read error (ENOENT), worded by the core; "-" when it has none."""
    import errno
    return errno.errorcode.get(e.errno or 0, "-")


def _write(err: Any, out: Any) -> None:
    if err:
        sys.stderr.flush()
        sys.stderr.buffer.write(err)
        sys.stderr.buffer.flush()
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()


def _work(k: int, argv: bytes, tools: bytes, tasks: Any, inbox: Any) -> None:
    """A worker thread: its own core instance with the run's options; tasks in, answers to the inbox."""
    from . import _engine

    try:
        cli_step("worker", argv, b"", b"", tools)
        inbox.put((str(k), b"", None))
        for j, data in iter(tasks.get, None):
            out, err, state = cli_step("job", b"", b"", b"", data)[:3]
            inbox.put((str(j), state, (err, out)))
    except BaseException as e:  # a defect or out of memory: the main thread raises it
        inbox.put(("", b"", e))
    finally:
        _engine._local.__dict__.pop("inst", None)  # this thread's instance, freed on it


def _run(argv: List[str]) -> int:
    import queue
    import threading

    args = b"".join(b"%s:%s\0" % (_size(a), a.encode("utf-8", "surrogateescape")) for a in argv)
    started, inbox, threads, tasks, kept = time.monotonic(), queue.SimpleQueue(), [], [], {}  # type: ignore
    f: Any = None
    r = cli_step("start", args, PROG, __version__, _facts())
    try:
        while True:
            out, err, state, n, code, op, data, arg = r
            aux, got = "", b""
            if op == CLI_HOLD:
                kept[n] = (err, out)
            else:
                _write(err, out)
            name = str(data, "utf-8", "surrogateescape") if op in (CLI_READ, CLI_READ_ALL) else ""
            if op == CLI_EXIT:
                if _env.get("OVERTURN_FINGERPRINT_JOBS_TRACE") and data:
                    with open(_env["OVERTURN_FINGERPRINT_JOBS_TRACE"], "wb") as t:
                        t.write(data)
                return code
            if op == CLI_READ:  # the file stays open from its first read to its end or an error
                try:
                    f = f or (sys.stdin.buffer if name == "-" else open(name, "rb"))
                    got = f.read1(arg) if name == "-" else f.read(arg)
                    aux = "" if got else "EOF"
                except OSError as e:
                    aux = _err_name(e)
                if aux:  # closed (standard input stays open)
                    f = f.close() if f and name != "-" else None
            elif op == CLI_READ_ALL:
                try:
                    if name == "-":
                        got = sys.stdin.buffer.read()
                    else:
                        with open(name, "rb") as w:
                            got = w.read()
                except OSError as e:
                    aux = _err_name(e)
            elif op == CLI_SPAWN:
                for k in range(n):
                    tasks.append(queue.SimpleQueue())
                    threads.append(threading.Thread(target=_work, args=(k, args, bytes(data), tasks[k], inbox), daemon=True))
                    threads[-1].start()
            elif op == CLI_SEND:
                tasks[n].put((arg, data))
            elif op in (CLI_POLL, CLI_WAIT):
                try:
                    aux, got, res = inbox.get() if op == CLI_WAIT else inbox.get_nowait()
                except queue.Empty:
                    res = None
                if isinstance(res, BaseException):
                    raise res
                if res:
                    kept[int(aux)] = res
            elif op == CLI_WRITE:
                _write(*kept.pop(n))
            r = cli_step("next", b"%d" % ((time.monotonic() - started) * 1000), aux, state, got)
    finally:
        # No thread may outlive the run (wasmtime's teardown); one mid-task finishes it first.
        for q in tasks:
            q.put(None)
        for t in threads:
            t.join()


def main(argv: List[str]) -> int:
    try:
        return _run(argv)
    except BrokenPipeError:
        # The reader left (| head): stop quietly; point stdout at devnull so
        # the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
