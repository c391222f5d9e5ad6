"""The records the SDK returns are declared once (interface/records.json) and
generated per host (``_records_gen.py``): each record the core writes has
exactly the declared keys, the required ones always (the oracle is the core's
own answer, not the generated types).
"""
from __future__ import annotations

import json
from pathlib import Path

from overturn.fingerprint import diff, explain, explain_call, nearest
from overturn.fingerprint import _explain

ROOT = Path(__file__).resolve().parents[2]


def check(value, name):
    declared = getattr(_explain, name)
    keys = set(value)
    assert keys - declared.__required_keys__ - declared.__optional_keys__ == set(), name
    assert declared.__required_keys__ - keys == set(), name


def test_explanations_diffs_and_nearest_have_the_declared_keys():
    e = explain("search", {"q": "cats", "page": 2}, match_on=["q", "lang"])
    check(e, "Explanation")
    check(e["selected"], "Selection")
    by_tools = explain_call({"name": "t", "args": {"a": 1, "b": 2}}, tools={"t": {"ignoreArgs": ["b"]}})
    check(by_tools, "Explanation")
    assert by_tools["declared"] == "tools"  # the optional key, present
    d = diff({"name": "t", "args": {"p": "P0"}}, {"name": "t", "args": {"p": "P1", "q": 1}})
    check(d, "Diff")
    assert len(d["changes"]) == 2
    for c in d["changes"]:
        check(c, "Change")
    check(nearest({"name": "t", "args": {"p": "P1"}}, [{"name": "t", "args": {"p": "P0"}}]), "NearestMatch")


def test_the_declaration_names_these_records_for_python():
    records = json.loads((ROOT / "interface" / "records.json").read_text("utf-8"))["records"]
    python = sorted(r["name"] for r in records if "name" in r and "py" in r.get("hosts", ["go", "ts", "py"]))
    assert python == ["Change", "Diff", "Explanation", "NearestMatch", "Selection"]
