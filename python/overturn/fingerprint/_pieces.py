"""Large args into linear memory without a host copy left beside the core.

Internal, used by ``_core._call`` for args that are not ``bytes``: a
``str`` of JSON text (over 64 Ki characters), the value path's JSON text as
the encoder's list of ASCII pieces (``_encode.to_json_args``), or another
buffer (``bytearray``, ``memoryview``).

Why pieces: the core's own peak is ~4.4x its input (its copy, tape and
output). A whole-text host copy (``str.encode``, ``"".join``) alive during
the run would add 1-2x on top; here every piece is freed once written,
before ``run``. Measured at 50 MB (python/bench/memory.py): text 5.45x →
4.40x, value 5.78x → 4.69x.

Over the byte limit (``most``, as the instance answered it, ``_limits``),
only the first most + 1 bytes are written: the core refuses the input by its
length before reading it (``assembly/base/limits.ts``), and no more memory is
taken than the limit allows. A ``str`` is cut by its length first (a
character is one UTF-8 byte or more).
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, List, Tuple

from . import _limits

STEP = 1 << 20  # characters per encoded piece: bounds each temporary to 1-4 MB


def prepare(args: Any, most: int) -> Tuple[int, List[Any]]:
    """(size in bytes, pieces to write) of non-bytes args, at most ``most + 1`` bytes of them."""
    if isinstance(args, str):
        if len(args) > most:
            args = args[:most + 1]
        # Each code point is encoded on its own (lone surrogates included,
        # "surrogatepass"), so the pieces join to the whole text's encoding.
        # Pieces rather than one bytes object: a freed whole-text buffer
        # raises glibc's mmap/trim thresholds to its size and keeps later
        # freed heap resident (measured: +34 MB kept after a 30 MB text and a
        # 30 MB value call, vs 3 MB in pieces).
        pieces: List[Any] = [args[i:i + STEP].encode("utf-8", "surrogatepass") for i in range(0, len(args), STEP)]
        return sum(map(len, pieces)), pieces
    if isinstance(args, list):
        size = sum(map(len, args))  # ASCII pieces: characters are bytes
        if size > most:
            kept: List[Any] = []
            left = most + 1
            for piece in args:
                kept.append(piece[:left])
                left -= len(kept[-1])
                if left == 0:
                    break
            args[:] = kept
            size = most + 1
        return size, args
    view = memoryview(args)
    data = view.cast("B") if view.c_contiguous else view.tobytes()
    if len(data) > most:
        data = data[:most + 1]
    return len(data), [data]


def write(mem: memoryview, p: int, pieces: List[Any]) -> None:
    """Writes the pieces at mem[p:], emptying the list so each is freed once written."""
    start = p
    pieces.reverse()  # pop() from the end takes them in order
    while pieces:
        piece = pieces.pop()
        if piece.__class__ is not str:
            mem[p:p + len(piece)] = piece
            p += len(piece)
            continue
        for i in range(0, len(piece), STEP):  # an ASCII str piece; encoded a bounded slice at a time
            chunk = piece[i:i + STEP].encode("ascii") if len(piece) > STEP else piece.encode("ascii")
            mem[p:p + len(chunk)] = chunk
            p += len(chunk)
    if p - start >= STEP:
        # Freed pieces may stay resident in the C heap under the core's
        # peak (see _limits.trim_heap): measured 5.5x instead of 4.45x of a
        # 30 MB text. A trim costs well under 1 ms; such a call, ~100 ms.
        _limits.trim_heap()
