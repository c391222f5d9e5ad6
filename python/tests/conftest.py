"""pytest configuration: makes tests/_support importable under any import mode,
and points the compiled-module cache at a folder of this run, so the suite
neither reads nor leaves entries in the user's cache directory."""
import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

if "OVERTURN_FINGERPRINT_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="overturn-fp-cache-")
    os.environ["OVERTURN_FINGERPRINT_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)
