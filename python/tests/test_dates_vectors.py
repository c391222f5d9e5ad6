"""Datetimes and dates print as V8's ``toISOString()`` prints their instant (D16).

Expected texts come from vectors/dates.vectors.json, made by V8
(scripts/gen-date-vectors.mjs), never from the SDK: the core prints every
date (assembly/text/isodate.ts); Python sends the instant or the day count.
"""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from overturn.fingerprint import canonical_json, fingerprint, fingerprint_json

DOC = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "dates.vectors.json").read_text("utf-8"))


def _datetime(v):
    tz = None if v["offsetUs"] is None else timezone(timedelta(microseconds=v["offsetUs"]))
    return datetime(*v["fields"], tzinfo=tz)


def test_datetimes_equal_v8():
    assert len(DOC["datetimes"]) > 300
    for v in DOC["datetimes"]:
        dt = _datetime(v)
        assert canonical_json(dt) == json.dumps(v["iso"]), v
        # Inside a value, on the walk (a datetime is never marshal's): the same text.
        assert canonical_json({"at": [dt], "n": 1}) == '{"at":[%s],"n":1}' % json.dumps(v["iso"]), v


def test_dates_equal_v8():
    for v in DOC["dates"]:
        assert canonical_json(date(*v["fields"])) == json.dumps(v["iso"]), v


def test_fingerprint_of_a_datetime_is_that_of_its_text():
    v = DOC["datetimes"][8]  # year +010000
    assert fingerprint("t", {"when": _datetime(v)}) == fingerprint_json("t", json.dumps({"when": v["iso"]}))
