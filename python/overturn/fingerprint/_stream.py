"""Host values to the core as CPython marshal. Internal.

``marshal.dumps(value, 4)`` walks exactly ``dict``, ``list``, ``tuple``,
``str``, ``int``, ``float``, ``bool`` and ``None`` in C, with floats as
binary doubles and ints exact, and raises ``ValueError`` for anything else —
subclasses (``IntEnum``, ``OrderedDict``, a namedtuple), ``datetime``, other
objects. It calls no user code. The core reads that stream onto the same tape
as JSON text (``assembly/json/marshal.ts``, request flag MARSHAL), so the
canonical writer and its rules are shared.

What the stream can hold that D16 answers differently — a set, bytes, a
complex, a code object, a non-str dict key, a str with a surrogate, an int
of 60 bits or more, a list or dict inside itself (a cycle) — the core
refuses, and so does marshal for every other type; both go to the JSON-text
path (``_encode``), which gives the D16 text or the error with its path.
Only those rare values pay for the second attempt. A list or dict that
appears twice (data built in code shares them: one tags list in every
record) is written once and referred back to; the core copies it, within
a budget that keeps its reader linear in the stream (``marshal.ts``). A
limit's refusal is final here: the text path would read the same tree to
the same limit, at json.dumps' cost (for a reference bomb, minutes).

Measured in one run (medians, bench payloads small/medium/large):
``marshal.dumps`` 0.7 µs / 19 µs / 2.7 ms against 1.9 µs / 236 µs / 36 ms
for the json encoder's text.

Depth: marshal recurses on the C stack to at most 2,000 levels, then raises
``ValueError`` (→ the text path, iterative beyond the json encoder's depth).
Measured on CPython 3.11 x86-64: a 1,999-deep list marshals in a thread of
384 KiB and kills the process in one of 256 KiB (< 200 bytes a level). So it
is used only where the stack holds 2,000 levels at the 400 bytes a level that
``_encode`` assumes (``_encode.stack_levels``: the process stack, which glibc
also gives new threads, or a smaller ``threading.stack_size()``); otherwise
the text path runs. Not covered, as for the json encoder: a thread started
while a smaller ``stack_size`` was set, after it was set back to 0.
"""
from __future__ import annotations

import marshal
from typing import Any

from . import _core
from ._encode import stack_levels
from ._errors import FingerprintError

from ._abi import F_MARSHAL  # request flag, generated from assembly/abi.ts

_dumps = marshal.dumps


def marshal_allowed() -> bool:
    """Whether marshal may walk values on this thread's stack (see the module comment).
    The value path asks once per thread (its plain function), batches once per chunk."""
    return stack_levels() >= 2_000  # marshal's own depth cap (CPython 3.9-3.13)


#: marshal_call's answer when the value is not plain: marshal refused it (a
#: subclass, a datetime, another type, too deep), so user code may be involved.
NOT_PLAIN = "not-plain"
#: Its answer when marshal could not be asked (small thread stacks).
UNKNOWN = "unknown"


def marshal_call(flags: int, kind: bytes, name: bytes, args: Any, s: Any) -> str:
    """One core call on the marshal stream of a plain value.

    Returns the answer, or one of the markers for the JSON-text path:
    ``NOT_PLAIN`` (marshal refused the value: it holds something user code
    may stand behind), ``PLAIN`` (marshal took it, so the C json encoder will
    call no user code on it — the core refused the stream, or a byte limit,
    defined on the JSON text, applies), or ``UNKNOWN``. ``s``: the call's limits.
    """
    if not marshal_allowed():
        return UNKNOWN
    try:
        data = _dumps(args, 4)
    except Exception:  # ValueError: unmarshallable or too deep; the text path decides
        return NOT_PLAIN
    # A byte limit counts the JSON text a value becomes, so a call
    # under one takes the text path, which sends that text.
    if not s.any_bytes:
        try:
            return _core.call(flags | F_MARSHAL, kind, name, b"", b"", data, s)
        except FingerprintError as e:
            if e.code == "limit-exceeded":
                raise  # the text path would read the same tree to the same limit, at json.dumps' cost
            # else refused by the core's reader: the text path gives the answer or the error
    return PLAIN


PLAIN = "plain"
