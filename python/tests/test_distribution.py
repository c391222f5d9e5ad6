"""The wheel and sdist as PyPI users get them: license, project
URLs, classifiers, the tested wasmtime range, the console script; and the
console script installed in this environment runs.

Builds both with hatchling (pinned in scripts/test-python.sh) from ./python
into a temporary folder; offline.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from _support import ROOT


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-d", str(out)], cwd=ROOT / "python", check=True,
                   capture_output=True)
    return out


def metadata(dists: Path):
    [wheel] = dists.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = Parser().parsestr(z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode())
        entry_points = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
        license_text = z.read(next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))).decode()
    return names, meta, entry_points, license_text


def test_the_license_is_the_repository_license() -> None:
    assert (ROOT / "python" / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()


def test_wheel_metadata(dists: Path) -> None:
    names, meta, entry_points, license_text = metadata(dists)
    assert license_text == (ROOT / "LICENSE").read_text()
    assert meta["License-Expression"] == "MIT"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) >= {"Homepage", "Source", "Issues"}
    assert all(u.startswith("https://github.com/overturn/fingerprint") for u in urls.values())
    classifiers = set(meta.get_all("Classifier"))
    assert {"Typing :: Typed", "Operating System :: OS Independent"} <= classifiers
    assert {"Programming Language :: Python :: 3.%d" % v for v in range(9, 14)} <= classifiers
    # wasmtime is the one dependency; pyarrow only under the [arrow] extra, never a hard one.
    requires = [r.replace(" ", "") for r in meta.get_all("Requires-Dist")]
    [hard] = [r for r in requires if "extra==" not in r]
    assert hard in ("wasmtime<51,>=50.0.1", "wasmtime>=50.0.1,<51")
    assert [r.replace('"', "'") for r in requires if "extra==" in r] == ["pyarrow>=14;extra=='arrow'"]
    assert meta.get_all("Provides-Extra") == ["arrow"]
    assert "overturn-fingerprint = overturn.fingerprint.__main__:run" in entry_points
    wasm = next(n for n in names if n.endswith("fingerprint/fingerprint.wasm"))
    with zipfile.ZipFile(next(dists.glob("*.whl"))) as z:
        digest = hashlib.sha256(z.read(wasm)).hexdigest()
    assert digest == (ROOT / "build" / "fingerprint.wasm.sha256").read_text().split()[0]


def test_sdist_carries_the_license(dists: Path) -> None:
    [sdist] = dists.glob("*.tar.gz")
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "pyproject.toml", "hatch_build.py", "overturn/fingerprint/fingerprint.wasm",
            "overturn/fingerprint/_module_cache.py"} <= names


def test_the_console_script_runs(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / ("overturn-fingerprint" + (".exe" if os.name == "nt" else ""))
    assert script.exists(), "pip did not install the overturn-fingerprint console script"
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"name": "search", "args": {"q": " cats "}}\n')
    out = subprocess.run([str(script), str(calls)], capture_output=True, text=True, check=True)
    want = hashlib.sha256(b'tool_call\nsearch\n{"q":"cats"}').hexdigest()
    assert out.stdout.split() == [want, "search"]
    # It names itself as typed, like the Node CLI: "overturn-fingerprint 1.0.0 (...)".
    version = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("overturn-fingerprint "), version
