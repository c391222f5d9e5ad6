"""The compiled core, cached on disk across processes. Internal.

Compiling the ~40 KB module costs 70-90 ms in every new process here, more
than importing wasmtime; loading wasmtime's serialized form of it
(``Module.serialize``/``Module.deserialize``) costs about 1 ms. A serialized
module is machine code that wasmtime maps and runs: an entry is as trusted as
a shared library. The threat model (docs/security.md): files of the current
effective uid in folders only it can write are trusted, as Python trusts its
own bytecode cache (that user could as well edit the installed package);
anything else is not. So:

* an entry is named after everything it depends on: the module (its label
  and the wasm's sha256), the wasmtime native library (path, size,
  modification time), the engine settings, the interpreter's platform and
  the CPU's feature flags (``/proc/cpuinfo`` on Linux);
* it is read only through a descriptor of the folder opened with
  ``O_DIRECTORY|O_NOFOLLOW`` whose owner is the effective uid and which no
  group or other may write, and is itself opened relative to it with
  ``O_NOFOLLOW|O_NONBLOCK`` (a FIFO never blocks) and checked on that
  descriptor — a regular file of the effective uid, one link, not group- or
  world-writable, its size within a bound of the wasm's — before a byte of
  it is read; then its header (``MAGIC + sha256(payload)``: integrity, not
  a signature) and wasmtime's own version and target check. The folders
  above are not checked: everything is reached through the pinned folder
  descriptor, and nobody else can add to or swap the files of that folder;
* it is written as mode 0600 (``fchmod``, whatever the umask) to an
  exclusively created temporary file with a random name (``O_CREAT|O_EXCL|
  O_NOFOLLOW``) in that folder and renamed into place, so a reader sees a
  whole entry or none; folders this code makes are 0700;
* after a write the folder keeps the newest few entries of each module and
  loses older ones, stale temporary files and entries of the previous
  naming: only regular files of the effective uid, at most _SCAN_MOST names
  looked at;
* every module, cached or compiled, passes the known-answer self-test
  (``_selftest.py``) before its first use: a cached one that fails is
  deleted and the module compiled from the wasm bytes; a compiled one that
  fails is a FingerprintError ("internal-error").

Any doubt about an entry means compiling from the packaged wasm, never an
error. The cache needs POSIX (``O_NOFOLLOW``, ``geteuid``, descriptor-relative
calls): elsewhere (Windows) every process compiles.

Where (the platform's convention for per-user caches), overridable:

* ``OVERTURN_FINGERPRINT_CACHE_DIR``: use this folder (an absolute path; a
  relative or empty value means no cache, so a checkout cannot ship one);
* ``OVERTURN_FINGERPRINT_NO_CACHE=1``: neither read nor write a cache;
* else ``~/Library/Caches/overturn-fingerprint`` on macOS and
  ``$XDG_CACHE_HOME/overturn-fingerprint`` (default ``~/.cache``) elsewhere.
"""
from __future__ import annotations

import os
import stat
import sys
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import List, Optional, Tuple

from . import _selftest, _wasmtime
from ._errors import FingerprintError

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
SUFFIX = ".cwasm"
#: wasmtime 50's serialized modules are ~2.4-2.7x their wasm here: 6x + 256 KiB leaves room
#: for another wasmtime's code and bounds what a bad entry can make us read.
_SIZE_FACTOR, _SIZE_SLACK = 6, 256 << 10
_KEEP = 3  # entries kept per module: a few wasmtime or package versions used side by side
_SCAN_MOST = 256  # names looked at when pruning: bounded work whatever the folder holds
_TMP_AGE_S = 600  # a temporary file older than this was left by a writer that died

_SUPPORTED = (hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and hasattr(os, "geteuid")
              and {os.open, os.rename, os.unlink, os.mkdir} <= os.supports_dir_fd and os.scandir in os.supports_fd)
_DIR_FLAGS = (os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def cache_dir() -> Optional[str]:
    """The folder for entries, or None when caching is off, unsupported or no home is known."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    where = os.environ.get(DIR_ENV)
    if where is not None:
        return where if os.path.isabs(where) else None  # relative or empty: a checkout could ship one
    if sys.platform == "win32":
        return None  # no O_NOFOLLOW or owner check there: every process compiles
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        base = os.path.join(home, "Library", "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    if not os.path.isabs(base):
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


def entry_name(wasm_sha256: str, engine_tag: str, label: str = "fingerprint") -> str:
    """File name of the entry for this module on this wasmtime, engine and host."""
    parts = [wasm_sha256, engine_tag, sys.platform, sys.implementation.name]
    lib = _wasmtime.lib().path  # its folder names the machine (linux-x86_64)
    st = os.stat(lib)  # an OSError: load_module compiles without the cache
    parts += [lib, str(st.st_size), str(st.st_mtime_ns)]
    parts.append(_cpu_flags())
    key = sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return "%s-%s-%s%s" % (label, wasm_sha256[:16], key[:32], SUFFIX)


def size_bound(wasm: bytes) -> int:
    """The most bytes an entry for this wasm may have: a larger file is never read."""
    return len(MAGIC) + _DIGEST_LEN + _SIZE_FACTOR * len(wasm) + _SIZE_SLACK


def _trusted(st: os.stat_result, is_kind: object) -> bool:
    """Ours alone: of the effective uid, of the expected kind, writable by no group or other."""
    return bool(is_kind(st.st_mode)) and st.st_uid == os.geteuid() and not st.st_mode & 0o022  # type: ignore[operator]


def _open_folder(folder: str) -> Optional[int]:
    """A descriptor of the folder if it exists and is trusted, else None."""
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return None
    try:
        if _trusted(os.fstat(fd), stat.S_ISDIR):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _make_folder(folder: str) -> None:
    """Makes the folder and its missing parents, each 0700 whatever the umask (failures ignored)."""
    missing: List[str] = []
    p = folder
    while not os.path.lexists(p) and len(missing) < 64:
        missing.append(p)
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    for p in reversed(missing):
        try:
            os.mkdir(p, 0o700)
        except OSError:
            continue  # made meanwhile by another process, or not makeable: the leaf is checked when opened
        try:
            fd = os.open(p, _DIR_FLAGS)
        except OSError:
            continue
        try:
            if os.fstat(fd).st_uid == os.geteuid():
                os.fchmod(fd, 0o700)  # the umask may have taken bits off, or left group/other ones
        except OSError:
            pass
        finally:
            os.close(fd)


def _read(dfd: int, name: str, bound: int) -> Optional[bytes]:
    """The payload of a whole, intact, trusted entry, else None. Nothing is read from a file
    that is not a regular file of ours alone within the size bound."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=dfd)
    except OSError:  # missing, or a symlink (ELOOP)
        return None
    try:
        st = os.fstat(fd)
        head = len(MAGIC) + _DIGEST_LEN
        if not _trusted(st, stat.S_ISREG) or st.st_nlink != 1 or not head < st.st_size <= bound:
            return None
        chunks = []
        left = st.st_size
        while left > 0:
            b = os.read(fd, left)
            if not b:
                return None  # shrank under us
            chunks.append(b)
            left -= len(b)
    except OSError:
        return None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    payload = data[head:]
    if not data.startswith(MAGIC) or sha256(payload).digest() != data[len(MAGIC):head]:
        return None
    return payload


def _token() -> str:
    """The random part of a temporary file's name (mkstemp-style: nobody can plant it in advance)."""
    return os.urandom(8).hex()


def _write(dfd: int, name: str, payload: bytes) -> bool:
    """Writes an entry atomically; any failure leaves no entry (and no temporary file)."""
    tmp = "%s.%s.tmp" % (name, _token())
    try:
        fd = os.open(tmp, _WRITE_FLAGS, 0o600, dir_fd=dfd)
    except OSError:  # a name that exists (even as a dangling symlink) is never written through
        return False
    try:
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(MAGIC + sha256(payload).digest() + payload)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        return True
    except OSError:
        try:
            os.unlink(tmp, dir_fd=dfd)
        except OSError:
            pass
        return False


def _legacy(name: str) -> bool:
    """An entry of this package's earlier naming (``<16 hex>-<32 hex>.cwasm``)."""
    return (len(name) == 55 and name[16] == "-" and name.endswith(SUFFIX)
            and all(c in "0123456789abcdef" for c in name[:16] + name[17:49]))


def _prune(dfd: int, label: str, keep: str) -> None:
    """Deletes this module's older entries beyond the newest _KEEP (``keep`` is one), stale
    temporary files and legacy entries: only regular files of ours, never through a symlink."""
    import time

    prefix = label + "-"
    euid = os.geteuid()
    now = time.time()
    entries: List[Tuple[int, str]] = []
    doomed: List[str] = []
    try:
        with os.scandir(dfd) as it:
            for i, e in enumerate(it):
                if i >= _SCAN_MOST:
                    break
                n = e.name
                legacy = _legacy(n)
                if n == keep or not (legacy or n.startswith(prefix) and (n.endswith(SUFFIX) or n.endswith(".tmp"))):
                    continue
                st = e.stat(follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or st.st_uid != euid:
                    continue
                if n.endswith(".tmp"):
                    if now - st.st_mtime > _TMP_AGE_S:
                        doomed.append(n)
                elif legacy:
                    doomed.append(n)
                else:
                    entries.append((st.st_mtime_ns, n))
    except OSError:
        return
    entries.sort(reverse=True)
    doomed += [n for _, n in entries[_KEEP - 1:]]
    for n in doomed:
        try:
            os.unlink(n, dir_fd=dfd)
        except OSError:
            pass


def _place(wasm: bytes, engine_tag: str, label: str) -> Optional[Tuple[str, str]]:
    """(folder, entry name) when a cache may be used, else None."""
    if not _SUPPORTED:
        return None
    folder = cache_dir()
    if folder is None:
        return None
    try:
        return folder, entry_name(sha256(wasm).hexdigest(), engine_tag, label)
    except Exception:  # an unexpected platform quirk: never worth failing for
        return None


def _from_cache(engine: int, folder: str, name: str, bound: int) -> Optional[_wasmtime.Module]:
    """The cached module if a trusted, intact entry holds one that passes the self-test."""
    dfd = _open_folder(folder)
    if dfd is None:
        return None
    try:
        payload = _read(dfd, name, bound)
        if payload is None:
            return None
        try:
            module = _wasmtime.Module.deserialize(engine, payload)
        except Exception:  # wasmtime refused it (another version or target): rebuilt by the caller
            return None
        if _selftest.failure(module) is None:
            return module
        del module
        try:  # it answers wrong: never loaded again
            os.unlink(name, dir_fd=dfd)
        except OSError:
            pass
        return None
    finally:
        os.close(dfd)


def _store(folder: str, name: str, label: str, payload: bytes, bound: int) -> None:
    if len(payload) + len(MAGIC) + _DIGEST_LEN > bound:
        return  # it would never be read
    dfd = _open_folder(folder)
    if dfd is None and not os.path.lexists(folder):
        _make_folder(folder)
        dfd = _open_folder(folder)
    if dfd is None:
        return  # not makeable, or not ours alone: no cache
    try:
        if _write(dfd, name, payload):
            _prune(dfd, label, name)
    finally:
        os.close(dfd)


def load_module(engine: int, wasm: bytes, engine_tag: str, label: str = "fingerprint") -> _wasmtime.Module:
    """The compiled module, checked by the self-test: from the cache when a trusted entry
    matches, else compiled (and stored). ``label`` names the module in entry names."""
    where = _place(wasm, engine_tag, label)
    bound = size_bound(wasm)
    if where is not None:
        module = _from_cache(engine, where[0], where[1], bound)
        if module is not None:
            return module
    module = _wasmtime.Module.compile(engine, wasm)
    why = _selftest.failure(module)
    if why is not None:
        raise FingerprintError("internal-error", "the %s core compiled from this package's wasm gives wrong "
                               "answers (%s): an SDK defect or a damaged install, please reinstall" % (label, why))
    if where is not None:
        try:
            _store(where[0], where[1], label, module.serialize(), bound)
        except Exception:  # serialize unsupported, or an unexpected platform quirk: the module still works
            pass
    return module
