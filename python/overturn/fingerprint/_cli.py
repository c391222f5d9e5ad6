"""``python -m overturn.fingerprint``: a thin shell over the core's CLI engine.

Internal module (the entry is ``__main__.py``); the twin of ``overturn-fingerprint``
(``src/cli.ts``), printing the same bytes. The core (``assembly/cli/``, through
``cli_step``) reads the arguments and makes the plan (``cli/plan.ts``: which
files, in which step, how many workers and how they share the chunks), splits
and reads the lines, fingerprints and formats every byte printed, words read
errors and the progress line, keeps the counts and returns the exit status.
This file only moves bytes: argv and the sizes at its paths in, files and
stdin in chunks of whole lines, stdout/stderr out, the terminal, a closed
pipe, and the worker threads the plan asks for (``_Jobs``), each with its own
core instance.
"""
from __future__ import annotations

import collections
import os
import sys
import time
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from . import __version__
from ._engine import cli_step

PROG = "python -m overturn.fingerprint"
# Tests (python/tests/test_cli_vectors.py): the size from which workers start and chunks dealt in turn go to the
# core's plan; the chunks each job ran are written to TRACE at the end.
TRACE = os.environ.get("OVERTURN_FINGERPRINT_JOBS_TRACE")


def _size(path: str) -> Optional[int]:
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return None


def _argv_bytes(argv: List[str]) -> bytes:
    """argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL."""
    sizes = [_size(a) for a in argv]
    return b"".join(b"%s:%s\0" % (b"-" if n is None else b"%d" % n, a.encode("utf-8", "surrogateescape"))
                    for a, n in zip(argv, sizes))


def _host_facts() -> bytes:
    """What the core needs to know of this host for the plan (``cli/plan.ts``): worker threads share the
    compiled module ("thread")."""
    env = os.environ
    min_bytes = env.get("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES")
    return b"cores=%d\0worker=thread\0%s%s" % (os.cpu_count() or 1, b"min-bytes=%s\0" % min_bytes.encode() if min_bytes else b"",
                                               b"deal=1\0" if env.get("OVERTURN_FINGERPRINT_JOBS_DEAL") == "1" else b"")


def _err_name(e: OSError) -> str:
    """The name of a read error (ENOENT), worded by the core; "-" when it has none."""
    import errno
    return errno.errorcode.get(e.errno or 0, "-")


_progress = False
_started = time.monotonic()


def _write(out: "bytes | memoryview", err: "bytes | memoryview") -> None:
    if _progress and (err or (out and sys.stdout.isatty())):
        erase = cli_step("progress")[1]  # the progress line drawn, if any, goes first
        if erase:
            sys.stderr.buffer.write(erase)
            sys.stderr.buffer.flush()
    if err:
        sys.stderr.flush()
        sys.stderr.buffer.write(err)
        sys.stderr.buffer.flush()
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()


def _show_progress(file: str, total: int, nbytes: int, lines: int) -> None:
    p = cli_step("progress", file, b"", "%d %d %d %d" % (nbytes, total, lines, (time.monotonic() - _started) * 1000))[1]
    if p:
        sys.stderr.buffer.write(p)
        sys.stderr.buffer.flush()


def _whole_lines(file: str, chunk: int) -> Iterator[Any]:
    """A file's bytes in chunks of whole lines of about ``chunk`` bytes (the last may lack its newline).

    One reused buffer, read into in place: objects of a chunk's size made and
    freed per chunk fragment the C heap, and the peak then creeps up with the
    file's size. A file's chunk is a view of that buffer, released when the
    next is read: whoever keeps a chunk copies it (a worker's, in ``_Jobs.push``);
    the core reads it where it is (no copy per chunk: ~13 ms of 200,000 lines).
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
        buf = bytearray(chunk)
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

class _Jobs:
    """This thread's core instance and the plan's worker threads, each with its own.

    Threads, not processes: the core runs outside the GIL (ctypes releases it
    for wasmtime's calls, and each thread has its own instance,
    ``_engine``), so N threads use N cores, while a spawned process
    took 150-250 ms to start and pickled every chunk. A chunk goes to a started
    worker holding fewer than ``inflight``, else this thread runs it itself.
    Results are written in input order, at most ``queue`` per job waiting, so
    memory stays constant. Workers are joined at the end.
    """

    def __init__(self, policy: Dict[str, int], argv: bytes, facts: bytes, tools: Optional[bytes]) -> None:
        import queue
        import threading

        workers = policy["workers"]
        self.inflight, self.takeback, self.deal = policy["inflight"], policy["takeback"] == 1, policy["deal"] == 1
        self.empty = queue.Empty
        self.tasks: List[Any] = [queue.SimpleQueue() for _ in range(workers)]
        self.done: Any = queue.SimpleQueue()  # (worker, entry, result): entry None when the worker has started
        self.stopping = False
        self.threads = [threading.Thread(target=self._work, args=(k, argv, facts, tools), daemon=True) for k in range(workers)]
        for t in self.threads:
            t.start()
        self.started = [False] * workers
        self.waiting: List["collections.deque[List[Any]]"] = [collections.deque() for _ in range(workers)]
        self.counts: List[bytes] = [b""] * workers
        self.chunks = [0] * workers
        self.queue: "collections.deque[List[Any]]" = collections.deque()  # [result or None], in input order
        self.limit = policy["queue"] * (workers + 1)
        self.main = 0
        self.dealt = 0

    def _work(self, k: int, argv: bytes, facts: bytes, tools: Optional[bytes]) -> None:
        """A worker thread: planned like the main one, then chunks in, (out, err, its counts so far) back."""
        from . import _engine

        try:
            cli_step("plan", argv, PROG, __version__, facts)
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
        if self.deal:
            while not all(self.started):
                self._receive(True)
            k = self.dealt % (len(self.threads) + 1) - 1
            self.dealt += 1
            if k < 0:
                return None
            while len(self.waiting[k]) >= self.inflight:
                self._write_oldest()
            return k
        self._receive(False)
        free = [i for i, s in enumerate(self.started) if s and len(self.waiting[i]) < self.inflight]
        return min(free, key=lambda i: len(self.waiting[i])) if free else None

    def push(self, file: str, first: int, data: Any, here: Any) -> int:
        """Runs a chunk here (``here(file, first, data)``) or in a worker; writes what is ready in order.
        Returns its line count."""
        k = self._free()
        if k is not None:
            data = bytes(data)  # the worker's own copy (the reader reuses its buffer)
            n = cli_step("lines", b"", b"", b"", data)[3]  # counted by the core: the next chunk's first line
            e: List[Any] = [None]
            self.waiting[k].append(e)
            self.queue.append(e)
            self.tasks[k].put((file, first, data, e))
        else:
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
        """Every worker's counts, for finish; stops the workers. First, with the plan's takeback, the chunks
        a worker has not started are run here (``here(file, first, data)``)."""
        for k, q in enumerate(self.tasks):
            while self.takeback:
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


def _run(argv: List[str]) -> int:
    global _progress
    args, facts = _argv_bytes(argv), _host_facts()
    out, err, planned, _lines, code = cli_step("plan", args, PROG, __version__, facts)
    if code >= 0:
        _write(out, err)
        return code
    plan = [r.partition("=")[::2] for r in bytes(planned).decode("utf-8", "surrogateescape").split("\0")[:-1]]
    policy = {k: 0 for k in ("workers", "chunk", "inflight", "queue", "takeback", "deal")}
    policy.update((k, int(v)) for k, v in plan if k in policy)
    chunk = policy["chunk"]
    _progress = sys.stderr.isatty()
    state: "bytes | memoryview" = b""
    tools: Optional[bytes] = None
    pool: Optional[_Jobs] = None
    lines = chunks = 0
    stop = False

    def here(file: str, first: int, data: Any) -> "Tuple[memoryview, memoryview, int]":
        """A chunk on this thread's instance, its state carried from chunk to chunk (a worker's
        chunk taken back at the end of input too, _Jobs.finish)."""
        nonlocal state, stop
        out, err, state, n, code = cli_step("chunk", file, state, str(first), data)
        stop = code == 1  # why found the call itself
        return out, err, n

    try:
        for step, file in plan:
            if stop:
                break
            if step in ("tools", "target"):
                # Read whole and handed over, or the error's name; the core answers (a usage error, why's call).
                data, name = b"", ""
                try:
                    data = b"".join(bytes(c) for c in _whole_lines(file, chunk))
                except OSError as e:
                    name = _err_name(e)
                out, err, st, _lines, code = cli_step(step, file, b"", name, data)
                if step == "tools":
                    if code >= 0:
                        _write(out, err)
                        return code
                    tools = data
                else:
                    _write(out, err)
                    if code:
                        return code
                    state = st
                continue
            if step not in ("load", "here", "shared"):
                continue
            if step == "shared" and pool is None:
                pool = _Jobs(policy, args, facts, tools)
            total = (_size(file) or 0) if _progress and file != "-" else 0
            first = 1
            nbytes = 0
            try:
                for data in _whole_lines(file, chunk):
                    nbytes += len(data)
                    chunks += 1
                    if step == "shared":
                        n = pool.push(file, first, data, here)  # type: ignore[union-attr]
                    else:
                        if pool:
                            pool.drain()  # answered as its lines arrive, after what came before
                        if step == "load":
                            out, err, _st, n, _code = cli_step("load", file, b"", str(first), data)
                        else:
                            out, err, n = here(file, first, data)
                        _write(out, err)
                    first += n
                    lines += n
                    if _progress:
                        _show_progress(file, total, nbytes, lines)
                    if stop:
                        break
            except BrokenPipeError:
                raise
            except OSError as e:  # the file, not the output
                if pool:
                    pool.drain()
                out, err = cli_step("unreadable", file, b"", _err_name(e))[:2]
                _write(out, err)
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
            sys.stderr.buffer.write(cli_step("progress")[1])
            sys.stderr.buffer.flush()


def main(argv: List[str]) -> int:
    try:
        return _run(argv)
    except BrokenPipeError:
        # The reader left (| head): stop quietly; point stdout at devnull so
        # the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
