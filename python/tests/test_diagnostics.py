"""Replay diagnostics (issue 6): explain / explain_json, diff, nearest.

Oracles: hashlib for every digest (sha256 of the preimage), json.dumps for the
canonical text of simple leaves (integers, untrimmable ASCII strings), and
hand-written expectations for selection and paths — the same cases as
test/diagnostics.test.ts, whose values these must equal.
"""
from __future__ import annotations

import hashlib
import json
import random
import re

import pytest

from overturn.fingerprint import (FingerprintError, canonical_json, diff, explain, explain_json, fingerprint,
                                  fingerprint_json, nearest)


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


def test_code_point_key_order():
    e = explain("t", {"\U0001F600": 1, "\uFF01": 2, "a": 3, "b": None}, ignore_args=["a", "b"])
    assert e["canonical"] == '{"！":2,"😀":1}'
    assert e["selected"]["kept"] == ["\uFF01", "\U0001F600"]
    assert e["selected"]["dropped"] == ["a"]


def test_explain_json_reads_text_in_the_core():
    text = '{"limit": 10.0, "query": " refund policy ", "limit": 1e1, "cursor": null, "page": 3}'
    e = explain_json("search_docs", text, ignore_args=["page"])
    assert e["canonical"] == '{"limit":10,"query":"refund policy"}'
    assert e["selected"] == {"kept": ["limit", "query"], "dropped": ["page"], "missing": []}
    assert e["fingerprint"] == fingerprint_json("search_docs", text, ignore_args=["page"])
    assert explain_json("search_docs", b"\xef\xbb\xbf" + text.encode(), ignore_args=["page"]) == e
    check_digest(e)


@pytest.mark.parametrize("args", [[{"a": 1}, " x "], " x ", 5, None])
def test_non_objects_pass_through(args):
    e = explain("t", args, match_on=["a"])
    assert e["selected"] == {"kept": [], "dropped": [], "missing": []}
    assert e["canonical"] == canonical_json(args)
    check_digest(e)


@pytest.mark.parametrize("kind,name", [("\uFEFFk", "n"), ("k", "line\nbreak"), ("tool_call", " spaced "),
                                       ("x", "\U0001F600")])
def test_unusual_kinds_and_names(kind, name):
    e = explain(name, {"a": 1}, kind=kind)
    assert (e["kind"], e["name"], e["canonical"]) == (kind, name, '{"a":1}')
    check_digest(e)
    assert e["fingerprint"] == fingerprint(name, {"a": 1}, kind=kind)


def test_large_args():
    args = {"text": " " + "x" * 5000 + " ", "n": [1.5, -0.0, 1e21]}
    e = explain("big", args, ignore_args=["n"])
    assert e["canonical"] == '{"text":"%s"}' % ("x" * 5000)
    assert e["selected"]["dropped"] == ["n"]
    check_digest(e)


def test_errors():
    with pytest.raises(FingerprintError) as info:
        explain_json("t", '{"a":,}')
    assert info.value.offset == 5
    with pytest.raises(FingerprintError):
        explain("", 1)
    with pytest.raises(FingerprintError, match=r"args\.a"):
        explain("t", {"a": {1, 2}})
    with pytest.raises(FingerprintError):
        explain("t", 1, match_on="a")


# --- diff -----------------------------------------------------------------------------

def call(args, **kw):
    return dict(name="create_ticket", args=args, **kw)


def test_no_change_in_whitespace_nulls_order_numbers():
    a = call({"title": "Login 500", "priority": "P0", "n": 10, "tags": ["a", "b"], "deep": {"x": 1, "y": 2}})
    b = {"name": "create_ticket", "argsJSON": '{"deep":{"y":2.0,"x":1,"z":null},"tags":[" a ",null,"b\\t"],'
                                                '"n":1e1,"priority":"P0","title":"  Login 500 ","gone":null}'}
    assert diff(a, b) == {"same": True, "changes": []}


def test_no_change_in_noise_keys():
    assert diff(call({"title": "T", "priority": "P0", "requestId": "r-1"}, matchOn=["title", "priority"]),
                call({"title": "T", "priority": "P0", "requestId": "r-2", "at": 17}, matchOn=["title", "priority"])) \
        == {"same": True, "changes": []}


def test_changed_priority():
    m = ["ticketId", "priority"]
    assert diff(call({"ticketId": "T-1", "priority": "P0", "requestId": "a"}, matchOn=m),
                call({"ticketId": "T-1", "priority": "P1", "requestId": "b"}, matchOn=m)) == {
        "same": False, "changes": [{"path": "priority", "kind": "changed", "before": '"P0"', "after": '"P1"'}]}


def test_nested_changes_and_paths():
    a = {"items": [0, 1, 2, {"when": "2024-01-01", "what": "x"}], "odd key": {"a-b": 1}, "gone": True, "arr": [1, 2, 3]}
    b = {"items": [0, 1, 2, {"when": "2024-01-02", "what": "x", "extra": []}], "odd key": {"a-b": 2},
         "added": {"k": 1}, "arr": [1, 2]}
    assert diff(call(a), call(b))["changes"] == [
        {"path": "added", "kind": "added", "before": None, "after": '{"k":1}'},
        {"path": "arr[2]", "kind": "removed", "before": "3", "after": None},
        {"path": "gone", "kind": "removed", "before": "true", "after": None},
        {"path": "items[3].extra", "kind": "added", "before": None, "after": "[]"},
        {"path": "items[3].when", "kind": "changed", "before": '"2024-01-01"', "after": '"2024-01-02"'},
        {"path": '["odd key"]["a-b"]', "kind": "changed", "before": "1", "after": "2"},
    ]


def test_code_point_order_of_changes():
    changes = diff(call({"\U0001F600": 1, "\uFF01": 1}), call({"\U0001F600": 2, "\uFF01": 2}))["changes"]
    assert [c["path"] for c in changes] == ['["！"]', '["😀"]']


def test_type_changes_and_root():
    assert diff(call({"a": [1]}), call({"a": {0: 1}}))["changes"] == [
        {"path": "a", "kind": "changed", "before": "[1]", "after": '{"0":1}'}]
    assert diff(call([1, 2]), call(" x "))["changes"] == [{"path": "", "kind": "changed", "before": "[1,2]",
                                                          "after": '"x"'}]
    assert diff(call(None), call({}))["changes"] == [{"path": "", "kind": "changed", "before": "null", "after": "{}"}]


def test_kind_and_name():
    assert diff({"name": "a", "args": 1}, {"name": "b", "args": 2, "kind": "resource"}) == {
        "same": False,
        "changes": [
            {"path": "(kind)", "kind": "changed", "before": '"tool_call"', "after": '"resource"'},
            {"path": "(name)", "kind": "changed", "before": '"a"', "after": '"b"'},
            {"path": "", "kind": "changed", "before": "1", "after": "2"},
        ]}


def test_selection_difference():
    assert diff(call({"a": 1, "b": 2}, matchOn=["a"]), call({"a": 1, "b": 2}))["changes"] == [
        {"path": "b", "kind": "added", "before": None, "after": "2"}]


def test_accepts_explanations():
    ea, eb = explain("t", {"a": " 1 "}), explain_json("t", '{"a":"1"}')
    assert diff(ea, eb) == {"same": True, "changes": []}
    assert diff(ea, {"name": "t", "args": {"a": 2}})["same"] is False


def test_deep_nesting_without_recursion():
    depth = 5000
    deep = lambda leaf: "[" * depth + str(leaf) + "]" * depth  # noqa: E731
    d = diff({"name": "t", "argsJSON": deep(1)}, {"name": "t", "argsJSON": deep(2)})
    assert d["changes"] == [{"path": "[0]" * depth, "kind": "changed", "before": "1", "after": "2"}]


def test_random_single_leaf_edit():
    rng = random.Random(0x6D1FF)
    keys = ["a", "b", "id", "_x", "$y", "a b", "1", "é", "k-2", ""]
    ident = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")

    def gen(depth, path, leaves):
        r = rng.randrange(10)
        if depth > 3 or r < 4:
            return rng.randrange(1000) if rng.randrange(2) else "s%d" % rng.randrange(1000)
        if r < 7:
            arr = []
            for i in range(rng.randrange(4)):
                p = "%s[%d]" % (path, i)
                v = gen(depth + 1, p, leaves)
                arr.append(v)
                if not isinstance(v, (dict, list)):
                    leaves.append((p, arr, i))
            return arr
        obj = {}
        for _ in range(rng.randrange(5)):
            k = rng.choice(keys)
            if k in obj:
                continue
            p = ((path + "." + k) if path else k) if ident.match(k) else "%s[%s]" % (path, json.dumps(k, ensure_ascii=False))
            v = gen(depth + 1, p, leaves)
            obj[k] = v
            if not isinstance(v, (dict, list)):
                leaves.append((p, obj, k))
        return obj

    checked = 0
    for _ in range(300):
        leaves = []
        args = gen(0, "", leaves)
        if not leaves or not isinstance(args, (dict, list)):
            continue
        before = explain("t", args)
        path, holder, key = rng.choice(leaves)
        old = holder[key]
        new = old + 1 if isinstance(old, int) else old + "!"
        holder[key] = new
        d = diff(before, {"name": "t", "args": args})
        assert d == {"same": False, "changes": [{"path": path, "kind": "changed",
                                                 "before": json.dumps(old, ensure_ascii=False),
                                                 "after": json.dumps(new, ensure_ascii=False)}]}
        checked += 1
        if checked >= 150:
            break
    assert checked > 100


# --- nearest --------------------------------------------------------------------------------

RECORDING = [
    {"name": "search_docs", "args": {"query": "refund policy", "limit": 10}},
    {"name": "create_ticket", "args": {"title": "Login", "priority": "P0", "tags": ["a", "b"]}, "ignoreArgs": ["requestId"]},
    {"name": "create_ticket", "args": {"title": "Login", "priority": "P2", "tags": ["a"]}, "ignoreArgs": ["requestId"]},
    {"name": "create_ticket", "args": {"title": "Login", "priority": "P1", "tags": ["a", "c"]}, "ignoreArgs": ["requestId"]},
    {"name": "create_ticket", "args": {"title": "Login", "priority": "P1", "tags": ["a", "b"]}, "kind": "other"},
]
UNSEEN = {"name": "create_ticket", "args": {"title": " Login", "priority": "P1", "tags": ["a", "b"], "requestId": "r-9"},
          "ignoreArgs": ["requestId"]}


def test_nearest_fewest_changes_same_kind_and_name():
    m = nearest(UNSEEN, RECORDING)
    assert m is not None
    assert m["index"] == 1
    assert m["call"] is RECORDING[1]
    assert m["diff"] == {"same": False, "changes": [{"path": "priority", "kind": "changed", "before": '"P0"',
                                                     "after": '"P1"'}]}
    check_digest(m["explanation"])


def test_nearest_first_of_equals_and_none():
    two = [{"name": "t", "args": {"a": 1, "b": 9}}, {"name": "t", "args": {"a": 9, "b": 2}}]
    assert nearest({"name": "t", "args": {"a": 1, "b": 2}}, two)["index"] == 0
    assert nearest({"name": "zzz", "args": {}}, RECORDING) is None
    assert nearest({"name": "create_ticket", "args": {}, "kind": "nope"}, RECORDING) is None


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


def test_nearest_never_fingerprints_other_tools():
    assert nearest({"name": "t", "args": 1}, [{"name": "other", "args": {"x": object()}},
                                             {"name": "t", "args": 2}])["index"] == 1
