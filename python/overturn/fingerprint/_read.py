"""How host containers and keys are read, as ``json.dumps`` reads them (D16).

Internal, shared by the walk (``_encode``) and selection (``_select``).
Types are tested on ``type(v)``; a subclass is read by its base type's value
(``int.__repr__``, ``float.__repr__``, ``str.__str__``); a dict subclass is
read through ``items()`` (not called when its own storage is empty, as the C
encoder skips it) and must yield 2-tuples. Data that cannot be read is a
FingerprintError naming the path with the original exception as cause; the
user's own exceptions pass through.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ._abi import W_DUMP_MODEL, W_DUMP_RAISED, W_INT_KEY, W_NOT_ITERABLE, W_NOT_PAIR
from ._errors import FingerprintError, path_error

_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}  # float's repr: json.dumps' word


def key_name(k: Any, where: Tuple[Any, ...] = ()) -> Optional[str]:
    """The JSON name json.dumps gives a dict key (D16), None for other types.

    Always an exact ``str`` (a subclass key by its content: its ``__eq__`` and
    ``__hash__`` are never used, D9). An int key whose decimal digits exceed
    the interpreter's int→str limit raises FingerprintError naming ``where``
    (the object that holds the key), with the ValueError as cause.
    """
    t = type(k)
    if t is str:
        return k
    if issubclass(t, str):
        return str.__str__(k)
    if k is True or k is False or k is None:
        return "null" if k is None else "true" if k else "false"
    if issubclass(t, int):
        try:
            return int.__repr__(k)
        except ValueError as e:
            raise path_error(W_INT_KEY, where) from e
    if issubclass(t, float):
        text = float.__repr__(k)
        return _NON_FINITE.get(text, text)
    return None


def type_name(v: Any) -> str:
    """The name of v's type, as messages name it (the core's words say "a value of type ...")."""
    t = type(v)
    return t.__qualname__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__, t.__qualname__)


Where = Any  # where a value is (path_error's ``at``), or a callable that makes it: only the error path pays for it


def _where(where: Where) -> Tuple[Any, ...]:
    return where if type(where) is tuple else where()


def iterate(res: Any, what: str, where: Where) -> Any:
    """``iter(res)`` where ``res`` came from user code; not iterable → FingerprintError."""
    try:
        return iter(res)
    except TypeError as e:
        t = type(res)
        if getattr(t, "__iter__", None) is None and getattr(t, "__getitem__", None) is None:
            raise path_error(W_NOT_ITERABLE, _where(where), what, type_name(res)) from e
        raise  # raised by the object's own __iter__


def items_of(d: Dict[Any, Any], where: Where) -> Any:
    """An iterator over a dict's (key, value) pairs, read as json.dumps reads them.

    An exact dict is read directly; a subclass through its ``items()`` (user
    code, whose exceptions pass through) — unless its own storage is empty,
    which the C encoder writes as ``{}`` without calling ``items()``. Use
    with :func:`pair`.
    """
    if type(d) is dict or not dict.__len__(d):
        return dict.items(d).__iter__()
    return iterate(d.items(), "items()", where)


def pair(item: Any, where: Where) -> Tuple[Any, Any]:
    """One element of ``items()`` as (key, value); anything but a 2-tuple is FingerprintError."""
    if issubclass(type(item), tuple) and tuple.__len__(item) == 2:  # a subclass's own methods never called
        return tuple.__getitem__(item, 0), tuple.__getitem__(item, 1)
    e = ValueError("items must return 2-tuples")  # the C json encoder's own message
    raise path_error(W_NOT_PAIR, _where(where), type_name(item)) from e




# --- D16b: objects of the provider SDKs ------------------------------------------

_DUMP_ARGS = 'model_dump(mode="json", by_alias=True)'


def is_model(v: Any) -> bool:
    """Whether ``v`` is read through its ``model_dump`` (D16b): its type has a callable one.

    Looked up on the type (as ``json.dumps`` looks up its hooks), so an
    instance attribute cannot make a value of another kind look like a model.
    Only asked for values D16 does not take (a dict subclass with a
    ``model_dump`` stays a dict).
    """
    return callable(getattr(type(v), "model_dump", None))


def model_value(v: Any, where: Tuple[Any, ...]) -> Any:
    """``v.model_dump(mode="json", by_alias=True)``: the wire form, so google-genai's
    ``functionCall`` keeps its name (D16b). Called once per object; its result
    must hold JSON values only (the walker checks, with the path). An exception
    it raises becomes a FingerprintError naming ``where``, with it as cause.
    """
    try:
        return v.model_dump(mode="json", by_alias=True)
    except Exception as e:
        raise path_error(W_DUMP_RAISED, where, type_name(v), _DUMP_ARGS, type(e).__qualname__, e) from e


def model_in_dump(v: Any, where: Tuple[Any, ...]) -> FingerprintError:
    """The error for a model inside what a ``model_dump`` returned (itself, another
    model): not followed, so a dump that returns models cannot loop (D16b)."""
    return path_error(W_DUMP_MODEL, where, type_name(v), _DUMP_ARGS)
