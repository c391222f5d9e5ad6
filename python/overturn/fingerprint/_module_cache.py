"""The compiled core, cached on disk across processes. Internal.

Compiling the ~37 KB module costs 70-90 ms in every new process here, more
than importing wasmtime; loading wasmtime's serialized form of it
(``Module.serialize``/``Module.deserialize``) costs about 1 ms. A serialized
module is machine code: it is valid only for the same wasmtime build, engine
configuration and CPU features, and deserializing bytes that wasmtime did not
write for this host is unsafe. So an entry is

* named after everything it depends on: the wasm's sha256, the wasmtime
  native library (path, size, modification time — a new wasmtime is a new
  file), the engine settings, the interpreter's platform and machine, and
  the CPU's feature flags (``/proc/cpuinfo`` on Linux);
* one file, ``MAGIC + sha256(payload) + payload``, written to a temporary
  file and moved into place with ``os.replace``, so a reader sees a whole
  entry or none;
* checked before use: a short, truncated or corrupt file (digest mismatch)
  is ignored and rewritten, and wasmtime's own check of version and target
  still runs in ``deserialize``. No failure here is ever an error: the
  module is then compiled as without a cache.

Where (the platform's convention for per-user caches), overridable:

* ``OVERTURN_FINGERPRINT_CACHE_DIR``: use this folder;
* ``OVERTURN_FINGERPRINT_NO_CACHE=1``: neither read nor write a cache;
* else ``%LOCALAPPDATA%\\overturn-fingerprint\\Cache`` on Windows,
  ``~/Library/Caches/overturn-fingerprint`` on macOS, and
  ``$XDG_CACHE_HOME/overturn-fingerprint`` (default ``~/.cache``) elsewhere.
"""
from __future__ import annotations

import os
import sys
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start (issue 13)
if TYPE_CHECKING:
    from typing import Optional

from . import _wasmtime

try:  # the interpreter's built-in SHA-256: importing hashlib loads OpenSSL (~3.5 ms here)
    from _sha2 import sha256  # Python >= 3.12
except ImportError:  # pragma: no cover - depends on the Python version
    try:
        from _sha256 import sha256  # Python <= 3.11
    except ImportError:
        from hashlib import sha256

MAGIC = b"overturn-fingerprint cwasm 1\n"
_DIGEST_LEN = 32
NO_CACHE_ENV = "OVERTURN_FINGERPRINT_NO_CACHE"
DIR_ENV = "OVERTURN_FINGERPRINT_CACHE_DIR"


def cache_dir() -> Optional[str]:
    """The folder for entries, or None when caching is off or no home is known."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    where = os.environ.get(DIR_ENV)
    if where:
        return where
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return os.path.join(base, "overturn-fingerprint", "Cache") if base else None
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "overturn-fingerprint")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    if not os.path.isabs(base) or base.startswith("~"):
        return None  # no usable home (XDG requires an absolute path)
    return os.path.join(base, "overturn-fingerprint")


def _cpu_flags() -> str:
    """The CPU's feature flags where the OS lists them cheaply (Linux), else the processor name."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                # x86 says "flags", arm64 says "Features"; the first CPU speaks for all.
                if line.startswith(("flags", "Features")):
                    return line.split(":", 1)[-1].strip()
    except OSError:
        pass
    import platform  # only here: it costs an import

    return platform.processor()


def entry_name(wasm_sha256: str, engine_tag: str) -> str:
    """File name of the entry for this wasm on this wasmtime, engine and host."""
    parts = [wasm_sha256, engine_tag, sys.platform, sys.implementation.name]
    lib = _wasmtime.lib().path  # its folder names the machine (linux-x86_64)
    st = os.stat(lib)  # an OSError: load_module compiles without the cache
    parts += [lib, str(st.st_size), str(st.st_mtime_ns)]
    parts.append(_cpu_flags())
    key = sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return "%s-%s.cwasm" % (wasm_sha256[:16], key[:32])


def _read(path: str) -> Optional[bytes]:
    """The payload of a whole, intact entry, else None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(MAGIC) + _DIGEST_LEN
    if len(data) <= head or not data.startswith(MAGIC):
        return None
    payload = data[head:]
    if sha256(payload).digest() != data[len(MAGIC):head]:
        return None
    return payload


def _write(path: str, payload: bytes) -> None:
    """Writes an entry atomically; any failure leaves no entry and is ignored."""
    folder = os.path.dirname(path)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(MAGIC + sha256(payload).digest() + payload)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def load_module(engine: int, wasm: bytes, engine_tag: str) -> _wasmtime.Module:
    """The compiled module: from the cache when an intact entry matches, else compiled (and stored)."""
    folder = cache_dir()
    if folder is None:
        return _wasmtime.Module.compile(engine, wasm)
    try:
        path = os.path.join(folder, entry_name(sha256(wasm).hexdigest(), engine_tag))
    except Exception:  # an unexpected platform quirk: never worth failing for
        return _wasmtime.Module.compile(engine, wasm)
    payload = _read(path)
    if payload is not None:
        try:
            return _wasmtime.Module.deserialize(engine, payload)
        except Exception:  # wasmtime refused it (another version or target): rebuild below
            pass
    module = _wasmtime.Module.compile(engine, wasm)
    try:
        _write(path, module.serialize())
    except Exception:  # serialize unsupported: the module still works
        pass
    return module
