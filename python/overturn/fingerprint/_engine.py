"""The engine module (``engine.wasm``, entry ``assembly/entry/engine.ts``).

Internal; the TypeScript twin is ``src/_engine.ts``. The module has
the fingerprint module's ABI plus calls (``F_CALL``, ``assembly/pipeline/call.ts``),
Explanations (``F_EXPLAIN``), diffs and the nearest recorded call (``F_DIFF``,
``assembly/ops/compare.ts``), the CLI engine and batches. Transport only, on the instances of its pool (``_instance.py``): a
call goes in as JSON text (a recording line, or a mapping encoded by
``_encode.to_json_text`` under D16), the core's text comes out.
It is compiled on first use (sharing the fingerprint module's Engine and its
disk cache), so the fingerprint path never pays for it.
"""
from __future__ import annotations

import struct
import threading
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, Dict, Tuple

from . import _core
from ._abi import F_FROM_VALUE, F_STRING_INPUT, F_TOOLS, W_TEXT
from ._errors import host_error, type_word
from ._instance import Instance, Pool
from ._module_cache import load_module
from ._wasmtime import Module, engine

WASM_FILE = "engine.wasm"

_lock = threading.Lock()
_module: Any = None  # the compiled engine (a _wasmtime.Module)


def _compiled() -> Module:
    global _module
    if _module is None:
        with _lock:
            if _module is None:
                # Through the fingerprint module's disk cache (_module_cache.py): compiling this
                # module costs ~100 ms per process, most of a CLI run's start. (package_bytes, not
                # importlib.resources: ~6 ms of a CLI's start.)
                _module = load_module(engine(), _core.package_bytes(WASM_FILE), _core.ENGINE_TAG, "engine")
    return _module


# Each thread's instance of the engine, and spares for calls re-entered while it is busy (a
# ``__del__`` under GC, a signal handler): they never write over the request, or read the result,
# of the call they interrupted. The CLI's plan and tools live in the thread's instance.
_pool = Pool(lambda: Instance(_compiled(), "engine"), "engine")
_local = _pool.local
_new_instance = _pool.new
_acquire = _pool.acquire
_release = _pool.release
_forget = _pool.forget


def _call_text(text: Any) -> Tuple[bytes, int]:
    """A call's JSON text as bytes, and F_STRING_INPUT for a ``str``."""
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass"), F_STRING_INPUT
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text), 0
    raise host_error(W_TEXT, type_word(text))


def _ask(kind: str, parts: Dict[str, Any], flags: int = 0, s: Any = None, st: Any = None) -> Tuple[bytes, Dict[str, int]]:
    """Request ``kind`` of the generated table on ``st`` (None: one of the pool's) under the limits ``s``
    (None: the configured ones): the bytes the core returned (a copy) and the result's words, or the
    FingerprintError (a trap leaves the instance dead, D19)."""
    if st is None:
        st = _acquire()
        try:
            return _ask(kind, parts, flags, s, st)
        finally:
            _release(st)
    view, ptr, size, words = st.ask(kind, parts, flags, s)
    return bytes(view[ptr:ptr + size]), words


def explain_text(text: Any, tools: bytes = b"", s: Any = None, from_value: bool = False, every: bool = False) -> Any:
    """The Explanation of a call given as JSON text (``str`` or UTF-8 ``bytes``) as the core writes it
    (assembly/pipeline/explain.ts); ``every``: the list of every call's in a message that holds several
    (ALL_CALLS: the core parses it once), [] for one without calls.
    ``tools``: declarations' JSON text (F_TOOLS, the ignoreArgs part; assembly/pipeline/tools.ts).
    ``s``: the call's limits (None: the configured ones); ``from_value``: the text was made here
    from the caller's value (F_FROM_VALUE: a limit error names no offset into it)."""
    data, flags = _call_text(text)
    flags |= (F_TOOLS if tools else 0) | (F_FROM_VALUE if from_value else 0)
    import json  # here: the CLI never needs it (~5 ms of its start)

    return json.loads(_ask("explainAll" if every else "explain", {"ignoreArgs": tools, "args": data}, flags, s)[0])


def call_keep_mask(text: bytes, tools: bytes = b"", s: Any = None) -> str:
    """The core's keep-mask for a call's JSON text (made here from the caller's mapping) whose args
    are an object of its key names (``_select``): the call's own selection or its tool's decides."""
    return str(_ask("callKeepMask", {"ignoreArgs": tools, "args": text}, F_FROM_VALUE | (F_TOOLS if tools else 0), s)[0], "ascii")


# ---- diff and nearest (assembly/ops/compare.ts): sides in, the core's answer out ----

def compare(op: int, arg: int, a: bytes, flags_a: int, b: bytes, flags_b: int, st: Any = None) -> bytes:
    """One F_DIFF request: the kind part (op, argument, how a and b are sent), then the name (a)
    and args (b) parts; the answer's bytes. ``st``: the instance a nearest search holds (else one
    of the pool's)."""
    return _ask("diff", {"kind": struct.pack("<IIII", op, arg, flags_a, flags_b), "name": a, "args": b}, st=st)[0]


def cli_step(step: str, name: Any = b"", match: Any = b"", ignore: Any = b"",
             args: Any = b"") -> Tuple[Any, ...]:
    """One step of the core's CLI engine (``assembly/cli/steps.ts`` lists the steps):
    (stdout bytes, stderr bytes, state to hand back, lines read, code, the driver's action, its payload,
    its second number), the bytes as views of one read of wasm memory (no further copies: a CLI moves
    megabytes a step)."""
    kind, name, match, ignore = [p.encode("utf-8", "surrogateescape") if isinstance(p, str) else p
                                 for p in (step, name, match, ignore)]
    # The configured limits; a CLI run's --max-* options tighten them in the core (cli/args.ts).
    out, w = _ask("cli", {"kind": kind, "name": name, "matchOn": match, "ignoreArgs": ignore, "args": args})
    text = memoryview(out)
    n_out, e, s = w["out"], w["out"] + w["err"], w["out"] + w["err"] + w["state"]
    code = w["code"] - ((w["code"] >> 31) << 32)  # the exit code is signed
    return text[:n_out], text[n_out:e], text[e:s], w["lines"], code, w["op"], text[s:s + w["data"]], w["arg"]
