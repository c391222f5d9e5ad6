"""Replay diagnostics through Python's own values: what only this host can show.

The cases that are data (explain / diff / nearest of recording lines) live in
vectors/diagnostics.vectors.json (test_diagnostics_vectors.py). Here: the
keyword API (explain, explain_json with bytes), D16 values left out by
selection (never an error, D9), host hashing, argument errors, explanations
passed back in, iterables read once. Oracles: hashlib and hand-written values.
"""
from __future__ import annotations

import hashlib

from overturn.fingerprint import diff, explain, explain_json, fingerprint, fingerprint_json, nearest


def sha(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def check_digest(e):
    assert e["preimage"] == "%s\n%s\n%s" % (e["kind"], e["name"], e["canonical"])
    assert e["fingerprint"] == sha(e["preimage"])


# --- explain ------------------------------------------------------------------------

def test_explain_match_on_noise_keys():
    args = {"title": "  Login page returns 500 ", "priority": "P0", "requestId": "req-7f3a", "tags": ["auth"],
            "cursor": None}
    e = explain("create_ticket", args, match_on=["title", "priority", "ticketId", "title"])
    pre = 'tool_call\ncreate_ticket\n{"priority":"P0","title":"Login page returns 500"}'
    assert e == {
        "version": 1, "kind": "tool_call", "name": "create_ticket",
        "selected": {"kept": ["priority", "title"], "dropped": ["requestId", "tags"], "missing": ["ticketId"]},
        "canonical": '{"priority":"P0","title":"Login page returns 500"}', "preimage": pre, "fingerprint": sha(pre),
    }
    assert e["fingerprint"] == fingerprint("create_ticket", args, match_on=["title", "priority", "ticketId", "title"])


def test_explain_ignore_args_and_nulls():
    e = explain("search", {"q": " cats ", "page": 2, "cursor": None, "nan": float("nan")},
                ignore_args=["page", "cursor", "nan"])
    assert e["selected"] == {"kept": ["q"], "dropped": ["page"], "missing": []}
    assert e["canonical"] == '{"q":"cats"}'
    check_digest(e)


def test_left_out_values_are_never_read_but_named():
    e = explain("t", {"keep": 1, "blob": object(), 7: "seven"}, match_on=["keep"])
    assert e["selected"] == {"kept": ["keep"], "dropped": ["7", "blob"], "missing": []}
    check_digest(e)


def test_explain_json_reads_text_in_the_core():
    text = '{"limit": 10.0, "query": " refund policy ", "limit": 1e1, "cursor": null, "page": 3}'
    e = explain_json("search_docs", text, ignore_args=["page"])
    assert e["canonical"] == '{"limit":10,"query":"refund policy"}'
    assert e["selected"] == {"kept": ["limit", "query"], "dropped": ["page"], "missing": []}
    assert e["fingerprint"] == fingerprint_json("search_docs", text, ignore_args=["page"])
    assert explain_json("search_docs", b"\xef\xbb\xbf" + text.encode(), ignore_args=["page"]) == e
    check_digest(e)


def test_large_args():
    args = {"text": " " + "x" * 5000 + " ", "n": [1.5, -0.0, 1e21]}
    e = explain("big", args, ignore_args=["n"])
    assert e["canonical"] == '{"text":"%s"}' % ("x" * 5000)
    assert e["selected"]["dropped"] == ["n"]
    check_digest(e)


# --- diff -----------------------------------------------------------------------------

def call(args, **kw):
    return dict(name="create_ticket", args=args, **kw)


def test_deep_nesting_without_recursion():
    depth = 5000
    deep = lambda leaf: "[" * depth + str(leaf) + "]" * depth  # noqa: E731
    d = diff({"name": "t", "argsJSON": deep(1)}, {"name": "t", "argsJSON": deep(2)})
    assert d["changes"] == [{"path": "[0]" * depth, "kind": "changed", "before": "1", "after": "2"}]


def test_nearest_stops_at_exact_match():
    read = []

    def rec():
        for i in range(10):
            read.append(i)
            yield {"name": "t", "args": {"n": i}}
        raise AssertionError("read past the exact match")

    m = nearest({"name": "t", "args": {"n": 3.0}}, rec())
    assert (m["index"], m["diff"]) == (3, {"same": True, "changes": []})
    assert len(read) == 4


def test_nearest_returns_a_recorded_explanation_as_passed():
    e, c = explain("t", {"n": 1}), {"name": "t", "args": {"n": 2}}
    assert nearest({"name": "t", "args": {"n": 1}}, [e])["explanation"] is e
    assert nearest({"name": "t", "args": {"n": 3}}, [c])["explanation"] == explain("t", {"n": 2})


def test_nearest_never_fingerprints_other_tools():
    assert nearest({"name": "t", "args": 1}, [{"name": "other", "args": {"x": object()}},
                                             {"name": "t", "args": 2}])["index"] == 1


def test_nearest_keeps_its_target_while_the_recording_runs_other_searches():
    # The engine instance the search holds keeps its target; calls made from the recording's
    # iterator between its steps run on a spare and leave it alone.
    def rec():
        for i in range(4):
            assert nearest({"name": "u", "args": {"m": 9}}, [{"name": "u", "args": {"m": 1}},
                                                              {"name": "u", "args": {"m": 9}}])["index"] == 1
            assert len(diff({"name": "u", "args": {"m": 1}}, {"name": "u", "args": {"m": 2}})["changes"]) == 1
            assert explain("u", {"m": i})["canonical"] == '{"m":%d}' % i
            yield {"name": "t", "args": {"n": i, "k": "x" if i == 2 else "y"}}

    m = nearest({"name": "t", "args": {"n": 2, "k": "z"}}, rec())
    assert m["index"] == 2
    assert m["diff"]["changes"] == [{"path": "k", "kind": "changed", "before": '"x"', "after": '"z"'}]
