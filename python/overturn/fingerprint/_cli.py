"""``python -m overturn.fingerprint``: a thin shell over the core's CLI engine.

Internal module (the entry is ``__main__.py``); the twin of ``overturn-fingerprint``
(``src/cli.ts``), printing the same bytes. The core (``assembly/cli/run.ts``,
through ``cli_step``) reads the arguments, splits and reads the lines,
fingerprints and formats every byte printed, keeps the counts and returns
the exit status. This file only moves bytes: argv in, files and stdin in
1 MiB chunks of whole lines, stdout/stderr out, TTY progress, a closed pipe,
and ``--jobs N``: this thread and N-1 worker threads, each with its own
core instance (``_Jobs``: output in input order, at most 2 chunks per worker
in flight, so memory stays constant). ``why`` and
standard input run in one job (why's nearest call is the first of equals in
file order; stdin answers each line as it arrives).
"""
from __future__ import annotations

import collections
import os
import sys
import time
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start (issue 13)
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from . import __version__
from ._engine import cli_step

PROG = "python -m overturn.fingerprint"
CHUNK = 1 << 20


class _ScanContext:
    """What the stdlib's C JSON scanner reads from its owner (json.decoder.JSONDecoder's defaults)."""
    strict = True
    object_hook = object_pairs_hook = parse_constant = None
    parse_float, parse_int = float, int


def _plan(text: bytes) -> Dict[str, Any]:
    """The core's plan (JSON), read by the C scanner that ``json.loads`` runs (module ``_json``)
    without importing json's Python side, whose re and enum cost ~5 ms of every CLI start (issue 13)."""
    s = text.decode("utf-8", "surrogatepass")
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - an interpreter without CPython's C scanner
        import json

        return json.loads(s)  # type: ignore[no-any-return]
    plan, end = make_scanner(_ScanContext)(s, 0)  # type: ignore[arg-type]  # any object with its attributes
    if end != len(s) or not isinstance(plan, dict):  # pragma: no cover - the core writes one object
        raise ValueError("the core's plan is not one JSON object")
    return plan


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


def _whole_lines(file: str) -> Iterator[Any]:
    """A file's bytes in chunks of whole lines (the last may lack its newline).

    One reused buffer, read into in place: 1 MiB objects made and freed per
    chunk fragment the C heap, and the peak then creeps up with the file's size.
    A file's chunk is a view of that buffer, released when the next is read:
    whoever keeps a chunk copies it (a worker's, in ``_Jobs.push``); the core
    reads it where it is (no copy per chunk: ~13 ms of 200,000 lines, issue 13).
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
                chunk = view[:cut]
                yield chunk
                chunk.release()  # a view kept past here is refused, never read as other bytes
                view[:have - cut] = view[cut:have]
                have -= cut
        if have:
            yield view[:have]


# --- jobs: this thread and worker threads, each with its own core instance ---------------

# Below this many bytes of files, ``--jobs N`` starts no worker thread (tests
# set it through the environment). Measured, --jobs 2 vs 1 (wall, medians of
# 3): 1.3 MB no faster, 3 MB ~1.05x, 8 MB ~1.15x, 44 MB ~1.2x, 224 MB ~1.55x.
MIN_BYTES = int(os.environ.get("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES", 4 << 20))
# For tests (python/tests/test_cli_vectors.py): write the chunks each job ran to this file at the end; deal the
# chunks in turn (this thread, then the workers) once every worker has started, so the shares do not depend on timing.
TRACE = os.environ.get("OVERTURN_FINGERPRINT_JOBS_TRACE")
DEAL = os.environ.get("OVERTURN_FINGERPRINT_JOBS_DEAL") == "1"


class _Jobs:
    """This thread's core instance and N-1 worker threads, each with its own.

    Threads, not processes: the core runs outside the GIL (ctypes releases it
    for wasmtime's calls, and each thread has its own instance,
    ``_engine``), so N threads use N cores, while a spawned process
    took 150-250 ms to start and pickled every chunk (measured: ``--jobs 2``
    was 1.09x ``--jobs 1`` on 200,000 lines, and no faster below ~48 MB).
    A chunk goes to a started worker with fewer than 2 chunks in flight, else
    this thread runs it itself. Results are written in input order, at most 4
    per job waiting, so memory stays constant. Workers are joined at the end.
    """

    def __init__(self, workers: int, argv: bytes, tools: Optional[bytes]) -> None:
        import queue
        import threading

        self.empty = queue.Empty
        self.tasks: List[Any] = [queue.SimpleQueue() for _ in range(workers)]
        self.done: Any = queue.SimpleQueue()  # (worker, entry, result): entry None when the worker has started
        self.stopping = False
        self.threads = [threading.Thread(target=self._work, args=(k, argv, tools), daemon=True) for k in range(workers)]
        for t in self.threads:
            t.start()
        self.started = [False] * workers
        self.waiting: List["collections.deque[List[Any]]"] = [collections.deque() for _ in range(workers)]
        self.counts: List[bytes] = [b""] * workers
        self.chunks = [0] * workers
        self.queue: "collections.deque[List[Any]]" = collections.deque()  # [result or None], in input order
        self.limit = 4 * (workers + 1)
        self.main = 0
        self.dealt = 0

    def _work(self, k: int, argv: bytes, tools: Optional[bytes]) -> None:
        """A worker thread: planned like the main one, then chunks in, (out, err, its counts so far) back."""
        from . import _engine

        try:
            cli_step("plan", argv, PROG, __version__)
            if tools is not None:
                cli_step("tools", b"", b"", b"", tools)
            self.done.put((k, None, None))
            while True:
                task = self.tasks[k].get()
                if task is None or self.stopping:
                    return
                file, first, data, entry = task
                out, err, _state, _lines, _code = cli_step("chunk", file, b"", str(first), data)
                self.done.put((k, entry, (out, err, bytes(cli_step("counts")[2]))))
        except BaseException as e:  # a defect or out of memory: the main thread raises it
            self.done.put((k, None, e))
        finally:
            _engine._local.__dict__.pop("inst", None)  # this thread's instance, freed on it

    def _receive(self, block: bool) -> None:
        """Takes the workers' answers that have come (with block: at least one)."""
        while True:
            try:
                k, entry, r = self.done.get() if block else self.done.get_nowait()
            except self.empty:
                return
            if isinstance(r, BaseException):
                raise r
            if entry is None:
                self.started[k] = True
            else:
                self.counts[k] = r[2]  # cumulative: the newest is the worker's total
                self.chunks[k] += 1
                entry[0] = r[:2]
                self.waiting[k].popleft()
            block = False

    def _free(self) -> Optional[int]:
        """The worker to send the next chunk to, if any can take it now."""
        if DEAL:
            while not all(self.started):
                self._receive(True)
            k = self.dealt % (len(self.threads) + 1) - 1
            self.dealt += 1
            if k < 0:
                return None
            while len(self.waiting[k]) >= 2:
                self._write_oldest()
            return k
        self._receive(False)
        free = [i for i, s in enumerate(self.started) if s and len(self.waiting[i]) < 2]
        return min(free, key=lambda i: len(self.waiting[i])) if free else None

    def push(self, file: str, first: int, data: Any, here: Any) -> int:
        """Runs a chunk here (``here(file, first, data)``) or in a worker; writes what is ready in order.
        Returns its line count."""
        k = self._free() if file != "-" else None
        if k is not None:
            data = bytes(data)  # the worker's own copy (the reader reuses its buffer)
            n = cli_step("lines", b"", b"", b"", data)[3]  # counted by the core: the next chunk's first line
            e: List[Any] = [None]
            self.waiting[k].append(e)
            self.queue.append(e)
            self.tasks[k].put((file, first, data, e))
        else:
            if file == "-":
                self.drain()  # standard input is answered as its lines arrive
            self.main += 1
            out, err, n = here(file, first, data)
            if self.queue:
                self.queue.append([(out, err)])
            else:
                _write(out, err)
        while self.queue and (self.queue[0][0] is not None or len(self.queue) >= self.limit):
            self._write_oldest()
        return n

    def _write_oldest(self) -> None:
        while self.queue[0][0] is None:
            self._receive(True)
        _write(*self.queue.popleft()[0])

    def drain(self) -> None:
        while self.queue:
            self._write_oldest()

    def finish(self, here: Callable[[str, int, Any], Tuple[Any, Any, int]]) -> bytes:
        """Every worker's counts, for finish; stops the workers. First the chunks a worker has not
        started are run here (``here(file, first, data)``): a queue of two left to one worker was
        the run's last ~15 ms while this thread waited (issue 13, --jobs 2: 1.66x → ~1.7x)."""
        for k, q in enumerate(self.tasks):
            while not DEAL:  # dealt shares stay as dealt (the tests' traces)
                try:
                    task = q.get_nowait()  # a task is taken here or by its worker, never both
                except self.empty:
                    break
                file, first, data, entry = task
                self.waiting[k] = collections.deque(e for e in self.waiting[k] if e is not entry)
                self.main += 1
                entry[0] = here(file, first, data)[:2]
        self.drain()
        self.stop()
        return b"".join(self.counts)

    def stop(self) -> None:
        """Ends the workers (after finish, or when the run stops early: a closed pipe) and joins them:
        no thread may outlive the run (wasmtime's teardown). One mid-chunk finishes that chunk first."""
        self.stopping = True
        for q in self.tasks:
            q.put(None)
        for t in self.threads:
            t.join()

    def trace(self) -> Dict[str, Any]:
        """Chunks per job, this thread's first."""
        return {"workers": len(self.threads), "chunks": [self.main] + self.chunks}


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
    plan = _plan(bytes(planned))
    if sys.stderr.isatty():
        _progress = Progress()
    # --tools FILE: its bytes to the core (which checks and keeps them), or why they could not be read.
    tools: Optional[bytes] = None
    if plan["tools"] is not None:
        why = ""
        try:
            tools = b"".join(bytes(c) for c in _whole_lines(plan["tools"]))
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
            data = b"".join(bytes(c) for c in _whole_lines(src))
        except OSError as e:
            _write(b"", ("%s: %s\n" % (src, _reason(e))).encode("utf-8", "surrogateescape"))
            return 1
        out, err, state, _lines, code = cli_step("target", src, b"", b"", data)
        _write(out, err)
        if code:
            return code
    jobs = 1 if plan["command"] in ("why", "replay") else plan["jobs"] or os.cpu_count() or 1
    inputs = plan["in"] if plan["command"] == "why" else plan["files"]
    # Workers only past MIN_BYTES, never more than the chunks after the first; stdin's size is unknown.
    total = sum(_size(f) for f in inputs if f != "-")
    workers = min(jobs - 1, -(-total // CHUNK) - 1) if jobs > 1 and total >= MIN_BYTES else 0
    pool = _Jobs(workers, args, tools) if workers > 0 else None
    lines = nbytes = chunks = 0
    stop = False

    def here(file: str, first: int, data: Any) -> "Tuple[memoryview, memoryview, int]":
        """A chunk on this thread's instance, its state carried from chunk to chunk (a worker's
        chunk taken back at the end of input too, _Jobs.finish)."""
        nonlocal state, stop
        out, err, state, n, code = cli_step("chunk", file, state, str(first), data)
        stop = code == 1  # why found the call itself
        return out, err, n

    try:
        for file in inputs:
            if _progress:
                _progress.label = file
                _progress.total = _size(file) if file != "-" else None
            first = 1
            stop = False
            try:
                for chunk in _whole_lines(file):
                    nbytes += len(chunk)
                    chunks += 1
                    if pool:
                        n = pool.push(file, first, chunk, here)
                    else:
                        out, err, n = here(file, first, chunk)
                        _write(out, err)
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
        counts = pool.finish(here) if pool else b""
        out, err, _state, _lines, code = cli_step("finish", b"", state, b"", counts)
        _write(out, err)
        if TRACE:
            import json

            with open(TRACE, "w", encoding="utf-8") as f:
                json.dump(pool.trace() if pool else {"workers": 0, "chunks": [chunks]}, f)
        return code
    finally:
        if pool:
            pool.stop()
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
