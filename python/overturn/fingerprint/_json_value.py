"""A recorded line as a Python value, built from the core's items of it
(``assembly/ops/items.ts``) with an explicit stack: any depth the core reads
(D19; ``json.loads`` recurses and stops near 1,000 levels), bare
NaN/Infinity (D12) as ``float("nan")`` / ``float("inf")``, as ``json.loads``
reads them. Scalars are read by ``json.loads`` itself, so numbers (``int``
for an integer literal, else ``float``), escapes and lone surrogates are
exactly what it makes of them. Internal; the TypeScript twin is
``src/_json_value.ts``.
"""
from __future__ import annotations

import json
import struct
from typing import Any, List

from ._abi import J_ARRAY, J_END, J_NONFINITE, J_OBJECT, J_SCALAR, J_STRING

_ITEM = struct.Struct("<3I")  # tag, from, to


def build_value(text: str, items: bytes) -> Any:
    """The value of ``text`` from its items (code point positions); ValueError on items that do not fit."""
    values: List[Any] = []  # holds the value, when read
    open_: List[Any] = [values]  # open containers, innermost last
    key: Any = None  # an object's member name, read, its value still to come
    has_key = False
    loads = json.loads
    for tag, start, end in _ITEM.iter_unpack(items[:len(items) - len(items) % 12]):
        if tag == J_END:
            if len(open_) == 1 or has_key:
                raise ValueError("an unbalanced close")
            open_.pop()
            continue
        if tag == J_ARRAY:
            v: Any = []
        elif tag == J_OBJECT:
            v = {}
        elif tag == J_STRING:
            v = text[start + 1:end - 1]
        elif tag == J_SCALAR:
            v = loads(text[start:end])
        elif tag == J_NONFINITE:
            v = float(text[start:end])
        else:
            raise ValueError("item tag %d" % tag)
        top = open_[-1]
        if type(top) is list:
            if top is values and values:
                raise ValueError("more than one value")
            top.append(v)
        elif not has_key:
            if type(v) is not str or tag > J_SCALAR:
                raise ValueError("a member name that is not a string")
            key, has_key = v, True
            continue
        else:
            top[key] = v
            has_key = False
        if tag == J_ARRAY or tag == J_OBJECT:
            open_.append(v)
    if not values or len(open_) > 1:
        raise ValueError("an incomplete value")
    return values[0]
