"""Every form in which the provider SDKs hand over a tool call, through the
Python API and CLI (the TypeScript twin: test/sdk-forms.test.ts).

The recorded forms (``vectors/sdk-forms.npm.json``, ``vectors/sdk-forms.pypi.json``,
built by the SDKs themselves) go in as JSON text and as the parsed value; the
live Python SDK objects (built at test time, where the SDKs are installed)
go in as they are (D16b). Each gives the fingerprints of exactly the calls it
holds, in order — ``fingerprint(name, args)`` by hashlib over the preimage —
or the decisions' error (D21 ``bad-call``, D23 ``partial-call``): never zero
calls in silence.
"""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, Dict, List

import pytest

from _support import ROOT
from overturn.fingerprint import FingerprintError, Recording, explain_calls, fingerprint, fingerprint_call

import gen_sdk_forms

FILES = {reg: json.loads((ROOT / "vectors" / ("sdk-forms.%s.json" % reg)).read_text("utf-8")) for reg in ("npm", "pypi")}
FORMS = [dict(f, registry=reg) for reg, data in FILES.items() for f in data["forms"] if f["json"] is not None]
IDS = ["%s %s: %s" % (f["registry"], f["sdk"], f["form"]) for f in FORMS]
CALLS = FILES["npm"]["calls"]


def answer_of(value: Any) -> Dict[str, Any]:
    """What the API answers: the calls' fingerprints, or the error's code."""
    try:
        return {"calls": [{"name": e["name"], "fingerprint": e["fingerprint"]} for e in explain_calls(value)]}
    except FingerprintError as e:
        assert str(e)
        return {"error": e.code}


def check_one_call_paths(value: Any, want: Dict[str, Any]) -> None:
    """A single call through fingerprint_call and a recording's answer; a message through fingerprint_call errs,
    whatever its number of calls (a message is never read as one call: the count may differ tomorrow)."""
    if "calls" not in want:
        return
    if len(want["calls"]) == 1:
        try:
            assert fingerprint_call(value) == want["calls"][0]["fingerprint"]
        except FingerprintError as e:  # a message holding one call: the error points to explain_calls
            assert e.code == "bad-call" and "explain_calls" in str(e)
        rec = Recording.load([json.dumps({"name": n, "args": c["args"], "result": i}) for i, (n, c) in enumerate(CALLS.items())])
        a = rec.answer(value)
        assert a["hit"] is True and a["fingerprint"] == want["calls"][0]["fingerprint"]
    else:
        with pytest.raises(FingerprintError) as e:
            fingerprint_call(value)
        # A message given where one call is expected points to explainCalls (the core's wording).
        assert "explain" in str(e.value).lower() and "calls" in str(e.value).lower()


def test_oracles_agree():
    """hashlib's fingerprints (the PyPI file) equal node:crypto's (the npm file) and the SDK's own fingerprint()."""
    for data in FILES.values():
        for name, c in data["calls"].items():
            assert c["fingerprint"] == gen_sdk_forms.oracle_fingerprint(name, c["args"])
            assert c["fingerprint"] == fingerprint(name, c["args"])


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the pinned SDKs need Python >= 3.11 (requirements-sdks.txt)")
def test_pypi_file_is_what_the_installed_sdks_build():
    assert gen_sdk_forms.render() == (ROOT / "vectors" / "sdk-forms.pypi.json").read_text("utf-8")


@pytest.mark.parametrize("form", FORMS, ids=IDS)
def test_recorded_form(form):
    for value in (form["json"], json.loads(form["json"])):
        assert answer_of(value) == form["expect"]
        check_one_call_paths(value, form["expect"])


def _live_forms() -> List[Any]:
    if sys.version_info < (3, 11):
        return []
    import sdk_forms

    return sdk_forms.build_pypi_forms()


LIVE = _live_forms()
LIVE_WANT = {f["form"]: f["expect"] for f in FILES["pypi"]["forms"]}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the pinned SDKs need Python >= 3.11 (requirements-sdks.txt)")
def test_every_recorded_pypi_form_is_built():
    assert [form for _sdk, form, _v, _e in LIVE] == [f["form"] for f in FILES["pypi"]["forms"]]


@pytest.mark.parametrize("live", LIVE, ids=["pypi live %s: %s" % (sdk, form) for sdk, form, _v, _e in LIVE])
def test_live_sdk_object(live):
    """The objects themselves, lists of them, and the Python-mode dumps (D16b), as the SDK returned them."""
    _sdk, form, value, _expect = live
    want = LIVE_WANT[form]
    assert answer_of(value) == want
    check_one_call_paths(value, want)


def test_cli_gives_every_form_line_by_line(tmp_path):
    p = tmp_path / "forms.jsonl"
    # The CLI reads JSON Lines: a pretty-printed dump (to_json()) goes in as one line.
    p.write_text("".join((json.dumps(json.loads(f["json"])) if "\n" in f["json"] else f["json"]) + "\n" for f in FORMS),
                 "utf-8")
    r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", "--json", str(p)], cwd=ROOT,
                       capture_output=True, timeout=300)
    by_line: Dict[int, List[Dict[str, Any]]] = {}
    for line in r.stdout.decode("utf-8").strip().split("\n"):
        rec = json.loads(line)
        by_line.setdefault(rec["line"], []).append(rec)
    got = []
    for i, f in enumerate(FORMS):
        recs = by_line.get(i + 1, [])
        err = next((x for x in recs if isinstance(x.get("code"), str)), None)
        got.append((IDS[i], {"error": err["code"]} if err else
                    {"calls": [{"name": x["name"], "fingerprint": x["fingerprint"]} for x in recs]}))
    assert got == [(IDS[i], f["expect"]) for i, f in enumerate(FORMS)]
