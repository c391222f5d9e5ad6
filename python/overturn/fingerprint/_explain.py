"""Replay diagnostics: explain a fingerprint, diff two calls, find the nearest recorded call.

Internal module; the public names (``explain``, ``explain_json``, ``diff``,
``nearest``) are re-exported by ``overturn.fingerprint``. The TypeScript twin
is ``src/explain.ts``: both return the same values for the same calls.

The core is the single source of truth: it reads each call (the one call
model: ``{"name", "args" | "argsJSON", "kind"?, "matchOn"?, "ignoreArgs"?}``,
``assembly/pipeline/call.ts``) and writes the explanation record with the digest
(``assembly/pipeline/explain.ts``), in the engine module
(``_engine.py``). Nothing is selected or canonicalized in Python.
The diff compares the core's canonical texts in
the core (``assembly/ops/diff.ts``, linear at any depth), which is exactly the
equality the fingerprint sees: a trimmed space, a dropped null, key order or
``1.0`` vs ``1`` never show up as changes.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, TypedDict, Union

from ._abi import (D_DIFF, D_NEAR_START, D_NEAR_STEP, DEFAULT_KIND, F_FROM_VALUE, F_TEXT, NEAR_EXACT, NEAR_NAME_ONLY,
                   NEAR_SEND_CALL, W_MESSAGE, W_RECORDED, W_TEXT)  # DEFAULT_KIND: D17
from ._engine import _acquire, _call_text, _release, call_keep_mask, compare, explain_text
from ._encode import CALL_ROOT, host_call_text, key_list, to_json_text
from ._select import select_value
from ._read import is_model
from . import _core, _limits
from ._errors import host_error, type_word
from ._tools import Tools, tools_text
from ._types import KeyList



class Selection(TypedDict):
    """Which top-level keys of the args reached the canonical text.

    ``kept``: keys in the canonical text, in its (code point) order.
    ``dropped``: keys match_on/ignore_args left out that would otherwise be in
    the canonical text (code point order). ``missing``: match_on keys that
    are not in the canonical text (absent or None), in listing order, once each.
    """

    kept: List[str]
    dropped: List[str]
    missing: List[str]


class _ExplanationFields(TypedDict):
    version: int
    kind: str
    name: str
    selected: Selection
    canonical: str
    preimage: str
    fingerprint: str


class Explanation(_ExplanationFields, total=False):
    """Everything the fingerprint of one call is made of (D17); ``declared`` is
    ``"tools"`` when the tool's declaration chose the selection."""

    declared: str


class Change(TypedDict):
    """One difference.

    ``path`` is readable (``items[3].when``, ``["odd key"]``), ``""`` for the
    whole args, ``(kind)`` / ``(name)`` for the preimage's other parts.
    ``before`` / ``after`` are canonical JSON texts, None on the side that
    lacks the value. ``kind`` is ``"added"``, ``"removed"`` or ``"changed"``.
    """

    path: str
    kind: str
    before: Optional[str]
    after: Optional[str]


class Diff(TypedDict):
    """``same``: both calls have the same fingerprint (then ``changes`` is empty)."""

    same: bool
    changes: List[Change]


class NearestMatch(TypedDict):
    """The nearest recorded call: its 0-based ``index``, the ``call`` as passed
    in, its ``explanation``, and ``diff(recorded, call)`` (``before`` is the
    recording's side, ``after`` the call's)."""

    index: int
    call: Any
    explanation: Explanation
    diff: Diff


#: A call: ``{"name", "args" | "argsJSON", "kind"?, "matchOn"?, "ignoreArgs"?}`` —
#: the camelCase object a recording line holds — a tool call in a provider's
#: shape, an SDK object read through its ``model_dump`` (D16b), or an
#: Explanation. A near miss (``args_json``, ``match_on``…) is a FingerprintError
#: naming the right key. ``Any``: SDK objects are no Mapping.
CallLike = Any


def explain(name: str, args: Any, *, match_on: Optional[KeyList] = None,
            ignore_args: Optional[KeyList] = None, kind: str = DEFAULT_KIND, limits: Any = None) -> Explanation:
    """Explains the fingerprint of a call given as Python values.

    ``limits``: this call's own :class:`Limits`, which can only tighten the
    configured ones; they apply to the call as the core reads it (the call
    object is a level, and its members count).

    Raises:
        FingerprintError: as :func:`fingerprint` does.

    Example:
        >>> explain("search", {"q": " cats ", "page": 2}, ignore_args=["page"])["canonical"]
        '{"q":"cats"}'
    """
    return _explain(name, kind, match_on, ignore_args, "args", args, limits)


def explain_json(name: str, args_json: Union[str, bytes, bytearray, memoryview], *,
                 match_on: Optional[KeyList] = None, ignore_args: Optional[KeyList] = None,
                 kind: str = DEFAULT_KIND, limits: Any = None) -> Explanation:
    """Explains the fingerprint of a call whose args are JSON text.

    Raises:
        FingerprintError: as :func:`fingerprint_json` does (with the byte ``offset``).

    Example:
        >>> explain_json("search", '{"q":"cats","page":2}', match_on=["q"])["selected"]["dropped"]
        ['page']
    """
    if not isinstance(args_json, (str, bytes, bytearray, memoryview)):
        raise host_error(W_TEXT, type_word(args_json))
    return _explain(name, kind, match_on, ignore_args, "argsJSON", args_json, limits)


def diff(a: CallLike, b: CallLike) -> Diff:
    """The differences between two calls that change the fingerprint.

    Each side is a call mapping (``{"name", "args" | "argsJSON", "kind"?,
    "matchOn"?, "ignoreArgs"?}``) or an Explanation from :func:`explain`
    (cheaper when one call is compared with many). Computed on the core's
    canonical texts.

    Raises:
        FingerprintError: when a call cannot be fingerprinted.

    Example:
        >>> diff({"name": "t", "args": {"p": "P0"}}, {"name": "t", "args": {"p": "P1"}})["changes"]
        [{'path': 'p', 'kind': 'changed', 'before': '"P0"', 'after': '"P1"'}]
    """
    return json.loads(compare(D_DIFF, 0, *_side(a), *_side(b)))  # type: ignore[no-any-return]


def nearest(call: CallLike, recording: Iterable[CallLike]) -> Optional[NearestMatch]:
    """The recorded call with the same kind and name and the fewest changes.

    The first of equals wins; None when no recorded call has that kind and
    name. The recording is read once, in order, and may be any iterable (a
    generator over a file streams); it stops at an exact match. The core
    decides (``assembly/ops/compare.ts``); this hands it each recorded call
    and keeps the one it names.

    Raises:
        FingerprintError: when the call or a candidate cannot be fingerprinted.
    """
    st = _acquire()  # the core keeps the target and the best so far in this instance
    try:
        compare(D_NEAR_START, 0, b"", 0, *_side(call), st=st)
        best: Optional[NearestMatch] = None
        for rec in recording:
            if not (isinstance(rec, Mapping) or is_model(rec)):
                raise host_error(W_RECORDED, type_word(rec))
            # Its name first, when it shows one: the core skips another tool's call unread.
            name = rec.get("name") if isinstance(rec, Mapping) else None
            out = (compare(D_NEAR_STEP, NEAR_NAME_ONLY, name.encode("utf-8", "surrogatepass"), 0, b"", 0, st=st)
                   if isinstance(name, str) else None)
            if out is None or out[0] == NEAR_SEND_CALL:
                out = compare(D_NEAR_STEP, 0, b"", 0, *_side(rec), st=st)
            if len(out) > 4:
                m = json.loads(out[4:])
                # A null explanation: the recorded item is an Explanation, its own.
                best = {"index": m["index"], "call": rec, "explanation": m["explanation"] or rec, "diff": m["diff"]}
            if out[0] == NEAR_EXACT:
                break
        return best
    finally:
        _release(st)


def _side(x: Any) -> Tuple[bytes, int]:
    """A side of diff or nearest as the core reads it: JSON text as given, a host value (a call or
    an Explanation) as explain sends a call."""
    if isinstance(x, (str, bytes, bytearray, memoryview)):
        return _call_text(x)
    return _sent(x, b"", None), F_FROM_VALUE


def explain_call(call: Any, *, tools: Tools = None) -> Explanation:
    """Explains one call: a call mapping, an SDK object (read as
    ``model_dump(mode="json", by_alias=True)``, D16b), or a recording line's JSON
    text (``str`` or ``bytes``, read by the core — never by ``json.loads``). ``tools``: tool
    declarations applied by the call's name (a conflicting call is an error);
    the explanation's ``declared`` is ``"tools"`` when one applied.

    Raises:
        FingerprintError: for a call the core cannot read or fingerprint.
    Example:
        >>> explain_call('{"name":"t","args":{"p":"P0"}}')["canonical"]
        '{"p":"P0"}'
    """
    return explain_record(call, tools_text(tools))[0]  # type: ignore[return-value]


def fingerprint_call(call: Any, *, tools: Tools = None) -> str:
    """The fingerprint of one call (any shape the core reads, or its JSON text),
    with the tool declarations ``tools`` applied.

    Raises:
        FingerprintError: as explain_call does.
    Example:
        >>> fingerprint_call({"name": "search", "args": {"q": "x", "requestId": 7}},
        ...                  tools={"search": {"ignoreArgs": ["requestId"]}}) == fingerprint("search", {"q": "x"})
        True
    """
    return explain_record(call, tools_text(tools))[1]


def explain_calls(message: Any, *, tools: Tools = None) -> List[Explanation]:
    """Explains every call of a message that holds several, in order: a Chat
    Completions, Anthropic, Vercel AI SDK, Bedrock or Gemini message, a
    Chat Completions, Responses, Bedrock Converse or Gemini response, a
    LangChain message (also as ``messages_to_dict`` or ``dumpd`` write it),
    or a list of calls or messages (the containers: README, "Tool calls as
    agents emit them"). A single call gives one explanation, a message
    without calls none; a piece of a stream is a ``partial-call`` error.
    Read by the core (``assembly/pipeline/shapes.ts``).

    Raises:
        FingerprintError: for a call the core cannot read or fingerprint.
    """
    from_value = not isinstance(message, (str, bytes, bytearray, memoryview))
    if from_value:
        message = host_call_text(message, W_MESSAGE)
    return explain_text(message, tools_text(tools), None, from_value, every=True)  # type: ignore[no-any-return]


def explain_record(call: Any, tools: bytes = b"", s: Any = None) -> Tuple[Dict[str, Any], str]:
    """The core's explanation record and digest for a call (for the CLI). Internal.
    ``s``: the call's limits (None: the configured ones)."""
    from_value = not isinstance(call, (str, bytes, bytearray, memoryview))
    record = explain_text(_sent(call, tools, s) if from_value else call, tools, s, from_value)
    # Checked as every digest from a module is (_core.digest_text): never anything else as a fingerprint.
    return record, _core.digest_text(str(record.get("fingerprint")).encode("utf-8", "surrogatepass"))


def _sent(call: Any, tools: bytes, s: Any) -> bytes:
    """A host value's call as the core is sent it: JSON text, argsJSON bytes as text, args only as
    far as selection reads them."""
    if not isinstance(call, Mapping):
        # An SDK object (D16b) or a list (D22): its JSON is JSON values only, read by the core.
        return host_call_text(call)
    c = dict(call)
    if isinstance(c.get("argsJSON"), (bytes, bytearray, memoryview)):
        # Read by the core as bytes (a BOM, surrogates as three-byte sequences, the first error and its
        # offset: D12, D14); its canonical text stands in for them (the same args, D13).
        c["argsJSON"] = _core.call(F_TEXT, b"", b"", b"", b"", bytes(c["argsJSON"]), s)
    elif "args" in c and c.get("argsJSON") is None and (tools or c.get("matchOn") is not None
                                                        or c.get("ignoreArgs") is not None):
        # The core says which args members to read (D9): the rest go in as what says whether
        # they hold a value (``selected.dropped``), never walked; a value D16 rejects there is no error.
        def ask(names: List[str]) -> str:
            return call_keep_mask(to_json_text(dict(c, args=dict.fromkeys(names, 1)), CALL_ROOT), tools, s)
        # A member left out goes in as None or an exact number or string as it is (NaN and too large an
        # int are null), anything else as a plain True (never null, D16).
        c["args"] = select_value(c.get("args"), ask, lambda v: v if v is None or type(v) in (str, int, float, bool) else True)
    return to_json_text(c, CALL_ROOT)


def _explain(name: Any, kind: Any, match_on: Any, ignore_args: Any, key: str, args: Any, limits: Any) -> Explanation:
    """explain and explain_json: their call mapping, under the call's own limits (argsJSON bytes as _sent reads them)."""
    c: Dict[str, Any] = {"name": name, "kind": kind}
    if match_on is not None:
        c["matchOn"] = list(key_list(match_on, "match_on"))
    if ignore_args is not None:
        c["ignoreArgs"] = list(key_list(ignore_args, "ignore_args"))
    c[key] = args
    return explain_record(c, b"", _limits.active.over(limits))[0]  # type: ignore[return-value]
