"""Batch transport: items as the core's batch columns, one ``runBatch`` per chunk.

Internal; the TypeScript twin is ``src/_batch.ts``. A chunk's columns
(``assembly/abi.ts`` ``BATCH_*``: kind, name, matchOn, ignoreArgs, args,
each one value shared by every item or Arrow's offsets layout) are copied
into the input region, the core runs every item and writes the digests back
to back, and they are read out in one copy. Chunks are bounded
(``BATCH_CHUNK_*``), so memory does not follow the batch's length. No rule
lives here: names, kinds, key lists, calls and args are all read by the
core, which also picks digests or preimages and words a failing item's error.
"""
from __future__ import annotations

import struct
from array import array
from bisect import bisect_right
from itertools import accumulate
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _core, _engine, _limits
from ._abi import (BATCH_BASE, BATCH_COLUMNS, BATCH_COUNT, BATCH_END_DIGEST, BATCH_FLAGS, BATCH_ITEM_FLAGS, BATCH_LINES,
                   BATCH_NUL_IN_ITEM, BATCH_OUT_BYTES, BATCH_SEPARATED, BATCH_WORDS, DIGEST_BYTES, F_DIGEST, F_MARSHAL,
                   F_PREIMAGE, RESULT_STATUS)
from ._abi import W_BATCH_STOPPED, W_ITEM
from ._errors import FingerprintError, core_error, host_error

_DESCRIPTOR = (BATCH_WORDS * 4 + 15) // 16 * 16
_RESULT = struct.Struct("<iiiII")  # status, offset, part, text ptr, text len (RESULT_* order)
_U32 = 0xFFFFFFFF

#: Bytes a temporary buffer of a chunk (its joined texts, its digests as str) holds at most, about:
#: glibc maps larger ones anew and faults their pages in each chunk (~0.3 ns a byte here, measured).
PIECE_BYTES = 32 << 10

#: A column: ("shared", bytes) for every item, ("pieces", the items, k, the most bytes they may take): ASCII
#: str items joined NUL-separated and written k items at a time (run_chunk; NotSeparated when it cannot),
#: or ("offsets", offsets, data, shift):
#: u32/i32 little-endian offsets (count + 1) into data, shift subtracted from each
#: (an Arrow slice whose offsets do not start at 0; the core adds them modulo 2**32).
Column = Tuple[Any, ...]
SHARED_EMPTY: Column = ("shared", b"")


class Target:
    """The engine module's instance (this thread's) as a batch runs on it: its SIMD build hashes
    short items four at a time (assembly/ops/batch.ts), and it reads calls (F_CALL).

    ``with Target(settings) as t:`` runs the batch under those limits (the configured ones and the
    batch's own), passed to the instance before each chunk; the core checks every item."""

    def __init__(self, s: Optional[_limits.Settings] = None) -> None:
        # Busy for the whole batch: code run meanwhile on this thread (the iterable, a __del__) that
        # calls into diagnostics gets a temporary instance, never this one's half-written chunk.
        d = self.d = _engine._acquire()
        try:
            self.fn_batch = d.func("runBatch")
            self.s = s or _limits.active
            d.tell(self.s)
        except BaseException:
            _engine._release(d)
            raise

    def __enter__(self) -> "Target":
        return self

    def __exit__(self, *exc: Any) -> None:
        _engine._release(self.d)

    def own(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on this batch's instance, with its limits: the batch's own calls into the
        engine module (an item explained alone, a retry) at a point where no chunk is in use."""
        self.d.busy = False
        try:
            return fn(*args)
        finally:
            self.d.busy = True

    def view(self) -> memoryview:
        """Linear memory as bytes, taken anew after each call into the module (it may grow):
        columns go in and digests come out with one copy, and OpenSSL hashes preimages where the
        core wrote them."""
        self.d.refresh()
        return self.d.view

    def run(self, frm: int, out: int) -> int:
        try:
            return self.d.checked(self.fn_batch, frm, out) & _U32
        except FingerprintError:
            _engine._forget(self.d)
            raise

    def result(self) -> Tuple[int, int, int, int, int]:
        """The result block: status (0 after a batch stopped for room), offset, part, text ptr, text len."""
        return _RESULT.unpack_from(self.view(), self.d.result + RESULT_STATUS)  # type: ignore[return-value]

    def error(self) -> FingerprintError:
        status, offset, part, ptr, size = self.result()
        return core_error(status, offset, str(self.view()[ptr:ptr + size], "utf-8", "surrogatepass"))


class Joined:
    """Byte strings back to back, joined a piece of about PIECE_BYTES at a time as _put copies them
    (one join of a whole chunk is a temporary glibc maps and faults in anew each time), cut where their
    ``offsets`` (text_column's: 0, then each item's end) cross each PIECE_BYTES. ``len``: the bytes."""

    __slots__ = ("items", "offsets")

    def __init__(self, items: Sequence[bytes], offsets: Sequence[int]) -> None:
        self.items, self.offsets = items, offsets

    def __len__(self) -> int:
        return self.offsets[-1]


def _put(v: memoryview, at: int, data: Any) -> int:
    """Copies a bytes-like object (bytes, array, an Arrow buffer of any item format) or Joined to v[at:];
    returns its end."""
    if type(data) is Joined:
        items, offs = data.items, data.offsets
        i = 0
        while i < len(items):  # items i..j-1: all that end within the piece, at least one
            j = max(i + 1, bisect_right(offs, offs[i] + PIECE_BYTES, i + 1) - 1)
            at = _put(v, at, b"".join(items[i:j]))
            i = j
        return at
    m = memoryview(data).cast("B") if type(data) is not bytes else data
    end = at + len(m)
    v[at:end] = m
    return end


def with_index(err: FingerprintError, index: int) -> FingerprintError:
    """The same error with the item's ``index``. The core names the item in the messages it writes
    (``item 3: invalid JSON: …``); one it has no words for (a failure without a message of the
    core's, or found here) is named here."""
    msg, named = str(err), _core.word(W_ITEM, [str(index), ""])
    if not msg.startswith(named):
        msg = named + msg
    return FingerprintError(err.code, msg, offset=err.offset, path=err.path, index=index)


#: A failed item's slot in run_chunk's digests until finish() answers it (None, a retry's digest or a raise).
ZERO = "0" * 64


def run_chunk(t: Target, flags: int, count: int, cols: Sequence[Column], base: int,
              sorts: Optional[List[int]] = None, lines: bool = True) -> Tuple[List[str], Dict[int, Optional[FingerprintError]]]:
    """Runs ``count`` items (``base``: the batch index of the first, for the core's "item N:"); returns their
    digests as hex ``str`` (ZERO where one failed) and the failed items' errors by index in the chunk: the
    core's, or None for a marshal stream it refused another way than by a limit (finish() retries those).
    ``sorts``: each item's sort of input (BATCH_ITEM_FLAGS), added to ``flags`` when they are all alike.
    Raises NotSeparated when a "pieces" column could not be written, or the core found a NUL in one of its
    items (nothing ran).

    With F_DIGEST the core picks (abi.ts): digests in lines (its four lanes: short items, the common
    chunk, split here in one call a piece), or preimages that OpenSSL hashes here. Without ``lines``
    (Arrow's data: no str per item, measured ~8% of a small batch) an entry may hold several digests
    back to back: joined, the digests list is still the chunk's digests in order."""
    stride = DIGEST_BYTES + 1 if lines else DIGEST_BYTES
    if sorts and sorts.count(sorts[0]) == len(sorts):  # the common chunk: no column of sorts
        flags, sorts = flags | sorts[0], None
    size = 4 * count + 4 if sorts else 0  # a "pieces" column's bytes are known once written: room for its most
    for c in cols:
        size += c[3] if c[0] == "pieces" else len(c[1]) + (0 if c[0] == "shared" else len(c[2]) + 8)
    can_hash = (flags & F_DIGEST) != 0
    # The batch's limits again before each chunk: an iterable's own code between chunks may run other calls
    # on this instance, with other limits.
    t.d.tell(t.s)
    # Preimages (if the core picks them): ends[count], then about the input's size and a digest each.
    room = size + DIGEST_BYTES * count if can_hash else 0
    t.d.room(_DESCRIPTOR + max(4 * count + room, stride * count) + size + 64)
    p = t.d.in_ptr
    at = p + _DESCRIPTOR  # the columns, then the digests or preimages after them (one span of memory)
    v = t.view()
    words = [0] * BATCH_WORDS
    words[BATCH_FLAGS] = flags | F_PREIMAGE if can_hash else flags
    words[BATCH_COUNT] = count
    words[BATCH_OUT_BYTES] = room
    words[BATCH_LINES] = 1 if lines else 0
    words[BATCH_BASE] = base
    if sorts:
        words[BATCH_ITEM_FLAGS] = at = (at + 3) & ~3
        at = _put(v, at, array("I", sorts))
    for i, c in enumerate(cols):
        w = BATCH_COLUMNS + 3 * i
        if c[0] != "offsets":
            words[w], words[w + 1] = 0 if c[0] == "shared" else BATCH_SEPARATED, at
            at = _put(v, at, c[1]) if c[0] == "shared" else _put_pieces(v, at, at + c[3], c[1], c[2])
            if at < 0:
                raise NotSeparated(i, at == -2)
            words[w + 2] = at - words[w + 1]
            continue
        words[w] = at = (at + 3) & ~3
        at = _put(v, at, c[1])
        words[w + 1] = (at - c[3]) & _U32  # the data's address, less the shift of its offsets
        at = _put(v, at, c[2])
    out = (at + 15) & ~15
    v[p:p + 4 * BATCH_WORDS] = struct.pack("<%dI" % BATCH_WORDS, *words)
    del v  # not held across a call into the module

    digests: List[str] = []
    errors: Dict[int, Optional[FingerprintError]] = {}
    frm = 0
    while frm < count:
        stop = t.run(frm, out)
        if stop == BATCH_NUL_IN_ITEM and frm == 0:  # an item holds a NUL: the chunk again, with offsets
            raise NotSeparated(-1, False)
        if stop < frm or stop > count:  # pragma: no cover - a core defect, never a loop
            raise host_error(W_BATCH_STOPPED, stop, frm, count)
        if frm == 0 and can_hash:  # the core's pick: preimages (hashed here) or digests
            can_hash = (struct.unpack_from("<I", t.view(), p + 4 * BATCH_FLAGS)[0] & F_PREIMAGE) != 0
            sha = _core._host_sha256 or _core._load_host_sha256(True)  # (used only once can_hash is decided)
        v = t.view()
        if stop > frm and can_hash:
            ends = array("I")
            ends.frombytes(v[out + 4 * frm:out + 4 * stop])
            blob = v[out + 4 * count:out + 4 * count + (ends[-1] & ~BATCH_END_DIGEST)]  # where the core wrote them
            s0 = 0
            for e in ends:  # BATCH_END_DIGEST: an item larger than all the room, its digest the core's
                end = e & ~BATCH_END_DIGEST
                digests.append(_core.digest_text(blob[s0:end]) if e & BATCH_END_DIGEST else sha(blob[s0:end]).hexdigest())
                s0 = end
            del blob
        elif not can_hash:  # lines of digests, split a piece at a time (a chunk-long temporary faults in anew)
            step = PIECE_BYTES // stride * stride
            for a in range(out + stride * frm, out + stride * stop, step):
                piece = bytes(v[a:min(a + step, out + stride * stop)])
                _core.check_digests(piece, stride)  # never a fingerprint that is not 64 lowercase hex digits
                if not lines:
                    digests.append(piece.decode("ascii"))
                    continue
                digests += piece.decode("ascii").split("\n")
                digests.pop()  # after the piece's last newline
        del v
        if stop >= count:
            break
        frm = stop
        if can_hash and not t.result()[0]:  # the room was full: go on from there
            continue
        frm += 1
        digests.append(ZERO)
        # A limit's refusal is final: the text path would read the same tree to the same limit
        # (and a shared-container bomb must never reach json.dumps).
        retry = (sorts[stop] if sorts else flags) & F_MARSHAL and t.result()[0] not in _core._LIMIT_STATUSES
        errors[stop] = None if retry else t.error()
    return digests, errors


def finish(digests: List[Any], errors: Dict[int, Optional[FingerprintError]], base: int, raise_errors: bool,
           mine: Optional[Dict[int, Any]] = None, retry: Optional[Callable[[int], str]] = None) -> List[Any]:
    """run_chunk's answers in order, ``digests`` made whole in place: each failed item's error (``mine``: items
    answered here, an error or a digest, sent empty, which the core failed in its turn), or ``retry(i)``'s digest for a
    marshal stream the core refused. With ``raise_errors`` the first failure raises, naming ``base + i``;
    else its digest is None."""
    for i in sorted(errors):
        e = mine[i] if mine and i in mine else errors[i]
        if type(e) is str:  # an item read alone: its digest
            digests[i] = e
            continue
        if e is None and retry is not None:
            try:
                digests[i] = retry(i)
                continue
            except FingerprintError as x:
                e = x
        if raise_errors:
            raise with_index(e, base + i) from None  # type: ignore[arg-type]
        digests[i] = None
    return digests


class NotSeparated(Exception):
    """A "pieces" column could not be written: raised by run_chunk before anything ran (``column``: its
    index; -1: the core found a NUL in an item). ``too_big``: its bytes outgrew their most; else an item
    is not an ASCII ``str``."""

    def __init__(self, column: int, too_big: bool) -> None:
        super().__init__(column, too_big)
        self.column, self.too_big = column, too_big


def _put_pieces(v: memoryview, at: int, end: int, items: Sequence[Any], k: int) -> int:
    """Writes ``items`` NUL-separated into v[at:end], joined and encoded a piece at a time so that no
    temporary outgrows PIECE_BYTES by much where items are alike (``k`` items first, then as many as the
    last piece's bytes an item say, at most twice as many); returns the end, -1 for an item that is
    not an ASCII str, or -2 for bytes past ``end`` (nothing is written there)."""
    i = 0
    while i < len(items):
        try:  # str subclasses join as their str data, as str.encode reads them
            b = "\0".join(items[i:i + k]).encode("ascii")
        except (TypeError, UnicodeEncodeError):
            return -1
        if i:
            if at >= end:
                return -2
            v[at] = 0
            at += 1
        if at + len(b) > end:
            return -2
        v[at:at + len(b)] = b
        at += len(b)
        i += k
        # The next piece sized by this one's bytes an item, growing at most twofold (items may grow too).
        k = max(1, min(2 * k, PIECE_BYTES * k // (len(b) + 1)))
    return at


def str_column(items: Sequence[Any], most: int) -> Optional[Column]:
    """A column of ``str`` items as UTF-8 (WTF-8 for surrogates), or None if one is not a str.

    ASCII items (the common case) go NUL-separated (BATCH_SEPARATED), joined and encoded a piece at a
    time as run_chunk writes them, at most ``most`` bytes ("pieces": no Python step per item, no
    chunk-long temporary, measured), which raises NotSeparated if they are not all ASCII str
    (wide_column is then the way), outgrow ``most``, or hold a NUL. Others are encoded one by one into
    offsets (joining wide strings widens them all: slower than the per-item encode, measured)."""
    if items and type(items[0]) is str and not items[0].isascii():
        return wide_column(items)
    each = len(items[0]) + 1 if items and type(items[0]) is str else 64  # a guess: the first item's
    # The first piece takes at most 64 items: the first item may be no guide to the others.
    return ("pieces", items, max(1, min(64, PIECE_BYTES // each)), most)


def wide_column(items: Sequence[Any]) -> Optional[Column]:
    """``str`` items as an offsets column of their UTF-8 (WTF-8), or None if one is not a str."""
    try:
        return text_column([wtf8(x) for x in items])
    except TypeError:  # an item that is not a str
        return None


def wtf8(s: str) -> bytes:
    """UTF-8 of a str; one holding surrogates gets WTF-8, a high and low surrogate joined into their
    character first, as the single calls read them (a name's JSON literal, D12) and as JavaScript has them."""
    try:
        return str.encode(s, "utf-8")
    except UnicodeEncodeError:
        return str.encode(s, "utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass").encode(
            "utf-8", "surrogatepass")


def text_column(texts: Sequence[bytes]) -> Column:
    """An offsets column of byte strings (the running sum in C: no Python step per item)."""
    offs = array("I", [0])
    offs.extend(accumulate(map(len, texts)))
    return ("offsets", offs.tobytes(), Joined(texts, offs), 0)
