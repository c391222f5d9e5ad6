"""``python -m overturn.fingerprint``: a thin shell over the core's CLI engine.

Internal module (the entry is ``__main__.py``); the twin of ``overturn-fingerprint``
(``src/cli.ts``), printing the same bytes. The core (``assembly/cli/run.ts``,
through ``cli_step``) reads the arguments, splits and reads the lines,
fingerprints and formats every byte printed, keeps the counts and returns
the exit status. This file only moves bytes: argv in, files and stdin in
1 MiB chunks of whole lines, stdout/stderr out, TTY progress, a closed pipe,
and ``--jobs N`` worker processes (each with its own core instance; chunks
go round-robin, output is written in input order, at most 2 chunks per
worker in flight, so memory stays constant). ``why`` and standard input run
in one job (why's nearest call is the first of equals in file order; stdin
answers each line as it arrives).
"""
from __future__ import annotations

import collections
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Tuple

if TYPE_CHECKING:
    from concurrent.futures import Future

from . import __version__
from ._diagnostics_wasm import cli_step

PROG = "python -m overturn.fingerprint"
CHUNK = 1 << 20


def _argv_bytes(argv: List[str]) -> bytes:
    """argv as the core reads it: per argument "1" if it names an existing path, its bytes, NUL."""
    return b"".join(b"%d%s\0" % (os.path.exists(a), a.encode("utf-8", "surrogateescape")) for a in argv)


class Progress:
    """"label: N lines, X MB of Y MB (P%)" on stderr, only on a terminal and after the first second."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.label = ""
        self.total: Optional[int] = None

    def update(self, nbytes: int, lines: int) -> None:
        now = time.monotonic()
        if now - self.start < 1.0 or now - self.last < 0.25:
            return
        self.last = now
        of = (" of %.1f MB (%d%%)" % (self.total / 1048576, 100 * nbytes // self.total)) if self.total else " MB"
        sys.stderr.write("\r\x1b[K%s: %s lines, %.1f%s" % (self.label, "{:,}".format(lines), nbytes / 1048576, of))
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
        self.shown = False


_progress: Optional[Progress] = None


def _write(out: "bytes | memoryview", err: "bytes | memoryview") -> None:
    if err:
        if _progress:
            _progress.clear()
        sys.stderr.flush()
        sys.stderr.buffer.write(err)
        sys.stderr.buffer.flush()
    if out:
        if _progress and sys.stdout.isatty():
            _progress.clear()
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()


def _reason(e: OSError) -> str:
    import errno
    if e.errno == errno.ENOENT:
        return "no such file"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if e.errno == errno.EISDIR:
        return "is a directory"
    return e.strerror or str(e)


def _whole_lines(file: str) -> Iterator[bytearray]:
    """A file's bytes in chunks of whole lines (the last may lack its newline).

    One reused buffer, read into in place: 1 MiB objects made and freed per
    chunk fragment the C heap, and the peak then creeps up with the file's size.
    """
    if file == "-":
        src = sys.stdin.buffer
        read1 = getattr(src, "read1", src.read)  # what has arrived: a pipe is answered line by line
        buf = bytearray()
        while True:
            piece = read1(64 * 1024)
            if not piece:
                break
            buf += piece
            cut = buf.rfind(b"\n") + 1
            if cut:
                yield buf[:cut]
                del buf[:cut]
        if buf:
            yield buf
        return
    with open(file, "rb") as f:
        buf = bytearray(CHUNK)
        view = memoryview(buf)
        have = 0
        while True:
            if have == len(buf):  # a line longer than the buffer
                view.release()
                buf.extend(bytes(len(buf)))
                view = memoryview(buf)
            n = f.readinto(view[have:])
            if not n:
                break
            have += n
            cut = buf.rfind(b"\n", 0, have) + 1
            if cut:
                yield buf[:cut]
                view[:have - cut] = view[cut:have]
                have -= cut
        if have:
            yield buf[:have]


# --- jobs: worker processes, each with its own core instance -------------------------

def _worker_init(argv: bytes, tools: Optional[bytes]) -> None:
    import atexit
    cli_step("plan", argv, PROG, __version__)
    if tools is not None:
        cli_step("tools", b"", b"", b"", tools)
    # A worker ends by interpreter teardown, where wasmtime's finalizers can
    # run after wasmtime's own module is gone: end the process before that.
    atexit.register(os._exit, 0)


def _worker_chunk(file: str, first: int, data: bytearray) -> Tuple[bytes, bytes, int, Tuple[int, bytes]]:
    out, err, _state, _lines, _code = cli_step("chunk", file, b"", str(first), data)
    result = bytes(out), bytes(err)  # (views into one read: copied before the next step)
    # This process's counts so far (cumulative): the newest per process is merged at finish.
    counts = bytes(cli_step("counts")[2])
    return result[0], result[1], _lines, (os.getpid(), counts)


class _Pool:
    def __init__(self, jobs: int, argv: bytes, tools: Optional[bytes]) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        # spawn: a fresh interpreter per worker (forking a process that runs wasmtime is not safe).
        self.ex = ProcessPoolExecutor(jobs, multiprocessing.get_context("spawn"), _worker_init, (argv, tools))
        self.jobs = jobs
        self.queue: "collections.deque[Future[Tuple[bytes, bytes, int, Tuple[int, bytes]]]]" = collections.deque()
        self.counts: Dict[int, bytes] = {}

    def push(self, file: str, first: int, data: bytearray) -> None:
        self.queue.append(self.ex.submit(_worker_chunk, file, first, data))
        while len(self.queue) >= 2 * self.jobs:
            self._write_oldest()

    def _write_oldest(self) -> None:
        out, err, _lines, (pid, counts) = self.queue.popleft().result()
        old = self.counts.get(pid)
        if old is None or int.from_bytes(counts[:4], "little") >= int.from_bytes(old[:4], "little"):
            self.counts[pid] = counts
        _write(out, err)

    def drain(self) -> None:
        while self.queue:
            self._write_oldest()

    def finish(self) -> bytes:
        self.drain()
        self.ex.shutdown()
        return b"".join(self.counts.values())


def _size(file: str) -> int:
    try:
        return os.stat(file).st_size
    except OSError:
        return 0


def _load_recording(file: str) -> None:
    """replay's recording (--in), streamed into the core's index ("load"); its bad lines are reported as they come."""
    first = 1
    try:
        for chunk in _whole_lines(file):
            out, err, _state, n, _code = cli_step("load", file, b"", str(first), chunk)
            _write(out, err)
            first += n
    except BrokenPipeError:
        raise
    except OSError as e:
        out, err = cli_step("unreadable", file, b"", _reason(e))[:2]
        _write(out, err)


def _run(argv: List[str]) -> int:
    global _progress
    args = _argv_bytes(argv)
    out, err, planned, _lines, code = cli_step("plan", args, PROG, __version__)
    if code >= 0:
        _write(out, err)
        return code
    plan = json.loads(bytes(planned))
    if sys.stderr.isatty():
        _progress = Progress()
    # --tools FILE: its bytes to the core (which checks and keeps them), or why they could not be read.
    tools: Optional[bytes] = None
    if plan["tools"] is not None:
        why = ""
        try:
            tools = b"".join(_whole_lines(plan["tools"]))
        except OSError as e:
            why = _reason(e)
        out, err, _state, _lines, code = cli_step("tools", plan["tools"], b"", why, tools or b"")
        if code >= 0:
            _write(out, err)
            return code
    state: "bytes | memoryview" = b""
    if plan["command"] == "replay":
        _load_recording(plan["in"][0])
    if plan["command"] == "why":
        src = plan["files"][0]
        try:
            data = b"".join(_whole_lines(src))
        except OSError as e:
            _write(b"", ("%s: %s\n" % (src, _reason(e))).encode("utf-8", "surrogateescape"))
            return 1
        out, err, state, _lines, code = cli_step("target", src, b"", b"", data)
        _write(out, err)
        if code:
            return code
    jobs = 1 if plan["command"] in ("why", "replay") else plan["jobs"] or os.cpu_count() or 1
    pool: Optional[_Pool] = None
    lines = nbytes = 0
    try:
        for file in plan["in"] if plan["command"] == "why" else plan["files"]:
            if _progress:
                _progress.label = file
                _progress.total = _size(file) if file != "-" else None
            first = 1
            stop = False
            try:
                for chunk in _whole_lines(file):
                    nbytes += len(chunk)
                    # Workers only pay off past one chunk.
                    if pool is None and jobs > 1 and file != "-" and len(chunk) >= CHUNK // 2 and _size(file) > CHUNK:
                        pool = _Pool(jobs, args, tools)
                    if pool:
                        n = chunk.count(b"\n") + (0 if chunk.endswith(b"\n") else 1)
                        pool.push(file, first, chunk)
                    else:
                        out, err, state, n, code = cli_step("chunk", file, state, str(first), chunk)
                        _write(out, err)
                        stop = code == 1  # why found the call itself
                    first += n
                    lines += n
                    if _progress:
                        _progress.update(nbytes, lines)
                    if stop:
                        break
            except BrokenPipeError:
                raise
            except OSError as e:  # the file, not the output
                if pool:
                    pool.drain()
                out, err = cli_step("unreadable", file, b"", _reason(e))[:2]
                _write(out, err)
            if stop:
                break
        counts = pool.finish() if pool else b""
        out, err, _state, _lines, code = cli_step("finish", b"", state, b"", counts)
        _write(out, err)
        return code
    finally:
        if _progress:
            _progress.clear()


def main(argv: List[str]) -> int:
    try:
        return _run(argv)
    except BrokenPipeError:
        # The reader left (| head): stop quietly; point stdout at devnull so
        # the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
