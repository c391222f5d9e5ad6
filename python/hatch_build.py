"""Hatchling build hook: puts the core's ``.wasm`` modules into the package, byte for byte.

Build-time only, not shipped. Takes ``../build/fingerprint.wasm`` (the
artifact of record, made by ``scripts/build-wasm.mjs``) and checks it against
``../build/fingerprint.wasm.sha256`` before force-including it as
``overturn/fingerprint/fingerprint.wasm``. When the repository's ``build/`` is
not there (a wheel built from an sdist), the copy the sdist already carries is
used and checked against the digest the sdist carries beside it.
"""
from __future__ import annotations

import hashlib
import os
from typing import Any, Dict

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules of record: the fingerprint path, and the engine module
#: (explain/diff/nearest and the CLI, loaded on first use).
MODULES = ("fingerprint.wasm", "engine.wasm")


def _check(wasm: str, sha_file: str) -> None:
    with open(wasm, "rb") as f:
        got = hashlib.sha256(f.read()).hexdigest()
    with open(sha_file, encoding="ascii") as f:
        want = f.read().split()[0]
    if got != want:
        raise RuntimeError("%s has sha256 %s but %s records %s: rebuild with node scripts/build-wasm.mjs"
                           % (wasm, got, sha_file, want))


class WasmHook(BuildHookInterface):  # type: ignore[misc]
    def initialize(self, version: str, build_data: Dict[str, Any]) -> None:
        for name in MODULES:
            self._include(name, build_data)

    def _include(self, name: str, build_data: Dict[str, Any]) -> None:
        root = self.root
        target = "overturn/fingerprint/" + name
        digest = target + ".sha256"
        wasm = os.path.normpath(os.path.join(root, "..", "build", name))
        sha = wasm + ".sha256"
        if os.path.exists(wasm):
            _check(wasm, sha)
            build_data["force_include"][wasm] = target
            build_data["force_include"][sha] = digest
            return
        inside = os.path.join(root, target)
        if os.path.exists(inside) and os.path.exists(os.path.join(root, digest)):
            _check(inside, os.path.join(root, digest))
            return
        raise RuntimeError("build/%s not found beside python/: run node scripts/build-wasm.mjs first" % name)
