"""Argument types of the public API. Internal; ``KeyList`` is importable from ``overturn.fingerprint``.

``match_on``/``ignore_args`` take a collection of key names. A ``str`` is
itself an ``Iterable[str]`` (of its characters), so ``match_on="q"`` would
type-check against ``Iterable[str]`` and silently mean the keys ``"q"``
and nothing else — or, for ``"ticketId"``, eight one-letter keys. Typing
has no "iterable but not str", so the accepted types are listed instead:
lists, tuples, sets, frozensets and dict key views. At run time any
non-string iterable of str still works, and a bare ``str`` (or ``bytes``)
raises FingerprintError("invalid-argument").
"""
from typing import AbstractSet, List, Tuple, Union

KeyList = Union[List[str], Tuple[str, ...], AbstractSet[str]]
