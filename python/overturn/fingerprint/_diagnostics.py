"""Replay diagnostics (issue 6): explain a fingerprint, diff two calls, find the nearest recorded call.

Internal module; the public names (``explain``, ``explain_json``, ``diff``,
``nearest``) are re-exported by ``overturn.fingerprint``. The TypeScript twin
is ``src/diagnostics.ts``: both return the same values for the same calls.

The core is the single source of truth: every canonical text here is the one
the wasm core wrote (request flag PREIMAGE returns ``kind "\\n" name "\\n"
canonical``, D17), and the digest comes from the core too. Nothing is
canonicalized in Python. The diff walks the core's canonical texts and
compares subtrees by their canonical text, which is exactly the equality the
fingerprint sees: a trimmed space, a dropped null, key order or ``1.0`` vs
``1`` never show up as changes. Both walks are iterative, so deep nesting
(D19) cannot hit Python's recursion limit.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, TypedDict, Union

from . import _core
from ._core import F_DIGEST, F_IGNORE, F_MATCH_ON, F_STRING_INPUT, F_TEXT
from ._encode import key_list, key_name, select_value, to_json_text
from ._errors import FingerprintError
from ._types import KeyList

#: Request flag (assembly/index.ts): return kind "\n" name "\n" canonical as the text.
F_PREIMAGE = 32
_DEFAULT_KIND = "tool_call"
_quote = json.encoder.encode_basestring  # JSON string literal, non-ASCII kept raw


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


class Explanation(TypedDict):
    """Everything the fingerprint of one call is made of (D17)."""

    version: int
    kind: str
    name: str
    selected: Selection
    canonical: str
    preimage: str
    fingerprint: str


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


#: A call: ``{"name", "args" | "args_json", "kind"?, "match_on"?, "ignore_args"?}``
#: (the keyword arguments of fingerprint()), or an Explanation.
CallLike = Mapping[str, Any]


def explain(name: str, args: Any, *, match_on: Optional[KeyList] = None,
            ignore_args: Optional[KeyList] = None, kind: str = _DEFAULT_KIND) -> Explanation:
    """Explains the fingerprint of a call given as Python values.

    Raises:
        FingerprintError: as :func:`fingerprint` does.

    Example:
        >>> explain("search", {"q": " cats ", "page": 2}, ignore_args=["page"])["canonical"]
        '{"q":"cats"}'
    """
    return _explain(name, kind, match_on, ignore_args, False, args)


def explain_json(name: str, args_json: Union[str, bytes, bytearray, memoryview], *,
                 match_on: Optional[KeyList] = None, ignore_args: Optional[KeyList] = None,
                 kind: str = _DEFAULT_KIND) -> Explanation:
    """Explains the fingerprint of a call whose args are JSON text.

    Raises:
        FingerprintError: as :func:`fingerprint_json` does (with the byte ``offset``).

    Example:
        >>> explain_json("search", '{"q":"cats","page":2}', match_on=["q"])["selected"]["dropped"]
        ['page']
    """
    return _explain(name, kind, match_on, ignore_args, True, args_json)


def diff(a: CallLike, b: CallLike) -> Diff:
    """The differences between two calls that change the fingerprint.

    Each side is a call mapping (``{"name", "args" | "args_json", "kind"?,
    "match_on"?, "ignore_args"?}``) or an Explanation from :func:`explain`
    (cheaper when one call is compared with many). Computed on the core's
    canonical texts.

    Raises:
        FingerprintError: when a call cannot be fingerprinted.

    Example:
        >>> diff({"name": "t", "args": {"p": "P0"}}, {"name": "t", "args": {"p": "P1"}})["changes"]
        [{'path': 'p', 'kind': 'changed', 'before': '"P0"', 'after': '"P1"'}]
    """
    ea, eb = _to_explanation(a), _to_explanation(b)
    changes: List[Change] = []
    if ea["kind"] != eb["kind"]:
        changes.append(_change("(kind)", "changed", js_dumps(ea["kind"]), js_dumps(eb["kind"])))
    if ea["name"] != eb["name"]:
        changes.append(_change("(name)", "changed", js_dumps(ea["name"]), js_dumps(eb["name"])))
    _diff_canonical(ea["canonical"], eb["canonical"], changes)
    return {"same": ea["fingerprint"] == eb["fingerprint"], "changes": changes}


def nearest(call: CallLike, recording: Iterable[CallLike]) -> Optional[NearestMatch]:
    """The recorded call with the same kind and name and the fewest changes.

    The first of equals wins; None when no recorded call has that kind and
    name. The recording is read once, in order, and may be any iterable (a
    generator over a file streams); it stops at an exact match.

    Raises:
        FingerprintError: when the call or a candidate cannot be fingerprinted.
    """
    target = _to_explanation(call)
    best: Optional[NearestMatch] = None
    for i, rec in enumerate(recording):
        if not isinstance(rec, Mapping):
            raise FingerprintError("invalid-argument", "a recorded call must be a mapping")
        # Names first: calls of other tools are never fingerprinted.
        kind = rec["kind"] if _is_explanation(rec) else rec.get("kind", _DEFAULT_KIND)
        if rec.get("name") != target["name"] or kind != target["kind"]:
            continue
        explanation = _to_explanation(rec)
        d = diff(explanation, target)
        if best is None or len(d["changes"]) < len(best["diff"]["changes"]):
            best = {"index": i, "call": rec, "explanation": explanation, "diff": d}
        if d["same"]:
            break  # nothing beats an exact match
    return best


def js_dumps(value: Any) -> str:
    """JSON text as JavaScript's JSON.stringify writes it (compact, non-ASCII raw,
    lone surrogates as lowercase ``\\udxxx``), for output both SDKs print alike."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _LONE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


_LONE = re.compile("[\ud800-\udfff]")


# --- explanations from the core ------------------------------------------------

def _is_explanation(x: Any) -> bool:
    return (isinstance(x, Mapping) and isinstance(x.get("canonical"), str)
            and isinstance(x.get("preimage"), str) and isinstance(x.get("fingerprint"), str))


def _to_explanation(x: Any) -> Explanation:
    if _is_explanation(x):
        return x  # type: ignore[no-any-return]
    if not isinstance(x, Mapping):
        raise FingerprintError("invalid-argument",
                               "a call must be a mapping {name, args | args_json, kind?, match_on?, ignore_args?}")
    text = x.get("args_json") is not None
    return _explain(x.get("name"), x.get("kind", _DEFAULT_KIND), x.get("match_on"), x.get("ignore_args"),
                    text, x["args_json"] if text else x.get("args"))


def _literal(s: Any, what: str) -> bytes:
    if not isinstance(s, str):
        raise FingerprintError("invalid-argument", "%s must be a str, got %s" % (what, type(s).__qualname__))
    return _quote(str.__str__(s)).encode("utf-8", "surrogatepass")


def _text(t: Any) -> Tuple[bytes, int]:
    if isinstance(t, str):
        return t.encode("utf-8", "surrogatepass"), F_STRING_INPUT
    if isinstance(t, (bytes, bytearray)):
        return bytes(t), 0
    if isinstance(t, memoryview):
        return t.tobytes(), 0
    raise FingerprintError("invalid-argument", "JSON text must be str or bytes, got %s" % type(t).__qualname__)


def _utf16(s: str) -> str:
    """s as the core reads it: a two-char surrogate pair is one code point (D14)."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _explain(name: Any, kind: Any, match_on: Any, ignore_args: Any, is_text: bool, args: Any) -> Explanation:
    n = _literal(name, "name")
    k = _literal(kind, "kind")
    mt = key_list(match_on, "match_on") if match_on is not None else None
    gt = key_list(ignore_args, "ignore_args") if ignore_args is not None else None
    flags = (F_MATCH_ON if mt is not None else 0) | (F_IGNORE if gt is not None else 0)
    m = _keys_text(mt) if mt is not None else b""
    g = _keys_text(gt) if gt is not None else b""
    if is_text:
        data, tflag = _text(args)
    else:
        # As fingerprint(): select on the value first, so left-out values are never read (D9).
        data, tflag = to_json_text(select_value(args, mt, gt) if flags else args), 0
    preimage = _core.call(flags | tflag | F_TEXT | F_PREIMAGE, k, n, m, g, data)
    digest = _core.call(flags | tflag | F_DIGEST, k, n, m, g, data)
    prefix = _utf16("%s\n%s\n" % (kind, name))
    if not preimage.startswith(prefix):
        raise FingerprintError("bad-request", "the core returned a preimage without the expected kind and name "
                                              "(an SDK bug)")
    canonical = preimage[len(prefix):]
    kept = _top_keys(canonical) or []
    selected: Selection = {"kept": kept, "dropped": [], "missing": []}
    if flags and canonical.startswith("{"):
        if is_text or not isinstance(args, dict):
            selected["dropped"] = _dropped_from_text(data if is_text else to_json_text(args), tflag, kept)
        else:
            selected["dropped"] = _dropped_from_value(args, mt, gt)
        if mt is not None:
            have = set(kept)
            selected["missing"] = [key for key in dict.fromkeys(mt) if key not in have]
    return {"version": 1, "kind": kind, "name": name, "selected": selected, "canonical": canonical,
            "preimage": prefix + canonical, "fingerprint": digest}


def _keys_text(keys: Tuple[str, ...]) -> bytes:
    return ("[" + ",".join(_quote(str.__str__(key)) for key in keys) + "]").encode("utf-8", "surrogatepass")


def _dropped_from_text(data: bytes, tflag: int, kept: List[str]) -> List[str]:
    """Keys of the unselected canonical text (core) that the selected one lacks."""
    have = set(kept)
    return [key for key in _top_keys(_core.call(F_TEXT | tflag, b"", b"", b"", b"", data)) or [] if key not in have]


def _dropped_from_value(args: Dict[Any, Any], mt: Optional[Tuple[str, ...]],
                        gt: Optional[Tuple[str, ...]]) -> List[str]:
    """Keys selection left out of a dict, minus those whose value the core drops
    anyway (canonical text ``null``). A value that cannot be fingerprinted at all
    still counts as dropped: the selection is what kept it out (D9). Ordered by
    the core, which sorts keys."""
    listed = set(mt if mt is not None else gt or ())
    out: Dict[str, int] = {}
    for key, value in args.items():
        kn = key if key.__class__ is str else key_name(key)
        if kn is None or (kn in listed) == (mt is not None):
            continue  # selected (or a key no JSON text can name)
        try:
            text = _core.call(F_TEXT, b"", b"", b"", b"", to_json_text(value))
        except FingerprintError:
            text = ""
        if text != "null":
            out[kn] = 0
    return _top_keys(_core.call(F_TEXT, b"", b"", b"", b"", to_json_text(out))) or []


# --- the canonical text as a tree ------------------------------------------------

class _Node:
    """A value in a canonical text: its span [start, end) and, for containers, its children."""

    __slots__ = ("start", "end", "type", "keys", "raws", "children")

    def __init__(self, type_: str, start: int) -> None:
        self.start = start
        self.end = -1
        self.type = type_  # "{", "[" or "v"
        self.keys: List[str] = []  # decoded member names ("{" only)
        self.raws: List[str] = []  # the same names as canonical string literals
        self.children: List[_Node] = []


_DELIM = re.compile(r"[,\]}]")


def _malformed() -> FingerprintError:
    return FingerprintError("bad-request", "unexpected canonical text from the core (an SDK bug)")


def _string_end(t: str, i: int) -> int:
    """End (exclusive) of the string literal starting at i."""
    j = i + 1
    while True:
        q = t.find('"', j)
        if q < 0:
            raise _malformed()
        b = q - 1
        while t[b] == "\\":
            b -= 1
        if (q - 1 - b) % 2 == 0:  # an even run of backslashes: the quote is not escaped
            return q + 1
        j = q + 1


def _parse_canonical(t: str) -> _Node:
    """Parses canonical text (valid JSON, no whitespace) without recursion;
    only spans and member names are kept, values stay text."""
    stack: List[_Node] = []
    root: Optional[_Node] = None
    key = raw = ""
    i = 0
    n = len(t)
    while True:
        c = t[i] if i < n else ""
        if c == "{" or c == "[":
            node = _Node(c, i)
            i += 1
        else:
            node = _Node("v", i)
            if c == '"':
                i = _string_end(t, i)
            else:
                m = _DELIM.search(t, i)
                i = m.start() if m else n
            node.end = i
            if i == node.start:
                raise _malformed()
        if not stack:
            root = node
        else:
            parent = stack[-1]
            parent.children.append(node)
            if parent.type == "{":
                parent.keys.append(key)
                parent.raws.append(raw)
        if node.type != "v":
            stack.append(node)
        while True:
            if not stack:
                if i != n or root is None:
                    raise _malformed()
                return root
            top = stack[-1]
            d = t[i] if i < n else ""
            if d == "}" or d == "]":
                i += 1
                top.end = i
                stack.pop()
                continue
            if d == ",":
                i += 1
            elif top.children:
                raise _malformed()
            if top.type == "{":
                e = _string_end(t, i)
                raw = t[i:e]
                key = json.loads(raw)
                if t[e:e + 1] != ":":
                    raise _malformed()
                i = e + 1
            break


def _top_keys(canonical: str) -> Optional[List[str]]:
    """Member names of a canonical object text, in order; None when it is not an object."""
    if not canonical.startswith("{"):
        return None
    return _parse_canonical(canonical).keys


# --- the diff --------------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def _change(path: str, kind: str, before: Optional[str], after: Optional[str]) -> Change:
    return {"path": path, "kind": kind, "before": before, "after": after}


def _diff_canonical(ta: str, tb: str, out: List[Change]) -> None:
    """Appends the changes from canonical text ta to tb, depth first in canonical
    order. Objects are compared by member name (str order is code point order,
    the core's key order, D5), arrays index by index (order is meaning for tool
    arguments), everything else by its canonical text."""
    if ta == tb:
        return
    todo: List[Tuple[str, Optional[_Node], Optional[_Node]]] = [("", _parse_canonical(ta), _parse_canonical(tb))]
    while todo:
        path, a, b = todo.pop()
        if a is None:
            assert b is not None
            out.append(_change(path, "added", None, tb[b.start:b.end]))
            continue
        if b is None:
            out.append(_change(path, "removed", ta[a.start:a.end], None))
            continue
        sa, sb = ta[a.start:a.end], tb[b.start:b.end]
        if sa == sb:
            continue
        nxt: List[Tuple[str, Optional[_Node], Optional[_Node]]] = []
        if a.type == "{" and b.type == "{":
            i = j = 0
            while i < len(a.keys) or j < len(b.keys):
                if i >= len(a.keys):
                    c = 1
                elif j >= len(b.keys):
                    c = -1
                else:
                    ka, kb = a.keys[i], b.keys[j]
                    c = -1 if ka < kb else (1 if ka > kb else 0)
                key, raw = (a.keys[i], a.raws[i]) if c <= 0 else (b.keys[j], b.raws[j])
                sub = (path + "." + key if path else key) if _IDENT.match(key) else "%s[%s]" % (path, raw)
                na = nb = None
                if c <= 0:
                    na = a.children[i]
                    i += 1
                if c >= 0:
                    nb = b.children[j]
                    j += 1
                nxt.append((sub, na, nb))
        elif a.type == "[" and b.type == "[":
            la, lb = len(a.children), len(b.children)
            for k in range(max(la, lb)):
                nxt.append(("%s[%d]" % (path, k), a.children[k] if k < la else None,
                            b.children[k] if k < lb else None))
        else:
            out.append(_change(path, "changed", sa, sb))
            continue
        todo.extend(reversed(nxt))
