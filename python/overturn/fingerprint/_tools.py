"""Tool declarations: ``{"create_ticket": {"matchOn": [...]},
"search_docs": {"ignoreArgs": [...]}}`` as a mapping, the JSON text of a
tools.json, or its path. The core checks and applies them
(``assembly/pipeline/tools.ts``); this host only hands their JSON text over. Internal;
the TypeScript twin is ``src/tools.ts``.
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Union

from ._encode import to_json_text
from ._engine import _call_text

#: Declarations by tool name, their JSON text (``str``/``bytes``), or a tools.json path (``os.PathLike``).
Tools = Optional[Union[Mapping[str, Any], str, bytes, "os.PathLike[str]"]]


def tools_text(tools: Tools) -> bytes:
    """The declarations' JSON text as UTF-8 bytes for the core; b"" when none."""
    if tools is None:
        return b""
    if isinstance(tools, os.PathLike):
        with open(tools, "rb") as f:
            return f.read()
    if isinstance(tools, (str, bytes, bytearray, memoryview)):
        return _call_text(tools)[0]  # JSON text as UTF-8 (WTF-8) bytes
    # Plain data: its JSON text is what a tools.json holds; the core checks its
    # shape (a list is its error, not this host's).
    return to_json_text(dict(tools) if isinstance(tools, Mapping) else tools)
