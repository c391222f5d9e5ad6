"""Python host values under D16, and the SDK's argument checks.

Expected texts are written out from the contract (D1–D17), dates are checked
against ``datetime.isoformat`` (an independent formatter), digests against
hashlib.
"""
from __future__ import annotations

import collections
import enum
import math
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

import pytest

from _support import oracle_digest
from overturn.fingerprint import (
    FingerprintError, canonical_json, canonicalize_json, fingerprint, fingerprint_json,
)


def err(fn, *a, **k) -> FingerprintError:
    with pytest.raises(FingerprintError) as e:
        fn(*a, **k)
    return e.value


def iso_oracle(dt: datetime) -> str:
    """toISOString() via datetime's own formatter (naive = UTC)."""
    if dt.tzinfo is None or dt.utcoffset() is None:
        dt = dt.replace(tzinfo=timezone.utc)
    s = dt.astimezone(timezone.utc).isoformat(timespec="milliseconds")  # truncates, like D16
    assert s.endswith("+00:00")
    return s[:-6] + "Z"


# --- datetimes and dates ----------------------------------------------------

TZ = [timezone.utc, timezone(timedelta(hours=2)), timezone(-timedelta(hours=5, minutes=30)),
      timezone(timedelta(hours=23, minutes=59)), timezone(timedelta(seconds=3601, microseconds=7))]


def test_naive_datetime_is_utc_and_microseconds_truncate():
    dt = datetime(2024, 5, 6, 7, 8, 9, 999999)
    assert canonical_json({"a": dt}) == '{"a":"2024-05-06T07:08:09.999Z"}'
    assert canonical_json(datetime(2024, 5, 6, 7, 8, 9, 123456)) == '"2024-05-06T07:08:09.123Z"'
    assert canonical_json(datetime(2024, 5, 6)) == '"2024-05-06T00:00:00.000Z"'


@pytest.mark.parametrize("tz", TZ, ids=str)
@pytest.mark.parametrize("dt", [datetime(2024, 5, 6, 7, 8, 9, 999999), datetime(2024, 1, 1, 0, 0, 0, 500),
                                datetime(1969, 12, 31, 23, 59, 59, 999999), datetime(2000, 2, 29, 12),
                                datetime(1, 1, 2, 0, 0), datetime(9999, 12, 30, 23, 59, 59, 1000)])
def test_aware_datetime_converted_to_utc(dt, tz):
    aware = dt.replace(tzinfo=tz)
    assert canonical_json([aware]) == '["%s"]' % iso_oracle(aware)
    assert canonical_json(aware) == canonical_json(aware.astimezone(timezone.utc))


def test_aware_equal_instants_share_a_fingerprint():
    a = datetime(2024, 5, 6, 9, 8, 9, 123999, tzinfo=timezone(timedelta(hours=2)))
    b = datetime(2024, 5, 6, 7, 8, 9, 123000)
    assert fingerprint("t", {"at": a}) == fingerprint("t", {"at": b})


def test_utc_instant_outside_datetime_years_prints_like_javascript():
    # new Date("0001-01-01T00:00+05:00").toISOString() and the 10000 case.
    assert canonical_json(datetime(1, 1, 1, 1, 0, tzinfo=timezone(timedelta(hours=5)))) == \
        '"0000-12-31T20:00:00.000Z"'
    assert canonical_json(datetime(9999, 12, 31, 23, 0, 0, 999, tzinfo=timezone(-timedelta(hours=5)))) == \
        '"+010000-01-01T04:00:00.000Z"'


def test_dates():
    assert canonical_json(date(2024, 5, 6)) == '"2024-05-06"'
    assert canonical_json({"d": date(1, 1, 1), "e": date(9999, 12, 31)}) == '{"d":"0001-01-01","e":"9999-12-31"}'


def test_datetime_subclass_is_a_datetime():
    class Stamp(datetime):
        def isoformat(self, *a, **k):  # ignored: the contract's format is used
            return "nope"
    assert canonical_json(Stamp(2024, 5, 6, 7, 8, 9)) == '"2024-05-06T07:08:09.000Z"'


# --- numbers and booleans ---------------------------------------------------

def test_big_ints_become_the_nearest_double():
    assert canonical_json(10**30) == "1e+30"
    assert canonical_json([2**53 + 1, -(2**53) - 1]) == "[9007199254740992,-9007199254740992]"
    assert canonical_json(2**64) == "18446744073709552000"
    assert canonical_json(2**1024) == "null"  # Infinity → null (D16, D2)
    assert canonical_json({"a": 2**1024, "b": -(2**1024), "c": 1}) == '{"c":1}'
    # Just below the overflow threshold 2**1024 - 2**970 rounds to the max double.
    assert canonical_json(2**1024 - 2**970 - 1) == "1.7976931348623157e+308"
    assert canonical_json(2**1024 - 2**970) == "null"
    assert canonical_json([10**5000, -(10**5000)]) == "[]"  # beyond int→str limits: still Infinity


def test_int_float_text_agree_with_float_conversion():
    for x in [0, 1, -1, 12345678901234567890, 3**100, -(7**300), 2**1023]:
        assert canonical_json(x) == canonical_json(float(x))


def test_bool_is_never_a_number():
    assert canonical_json({"a": True, "b": 1, "c": False, "d": 0}) == '{"a":true,"b":1,"c":false,"d":0}'
    assert fingerprint("t", [True]) != fingerprint("t", [1])


def test_floats():
    assert canonical_json([1.0, -0.0, 0.1 + 0.2, 1e21, 1e-7, 5e-324, float("nan"), float("inf"), -math.inf]) == \
        "[1,0,0.30000000000000004,1e+21,1e-7,5e-324]"
    assert canonical_json(float("nan")) == "null"


def test_enums_and_subclasses_count_as_their_base_type():
    class Color(enum.IntEnum):
        RED = 3

    class Mode(str, enum.Enum):
        FAST = "fast"

    class Flags(enum.IntFlag):
        A = 1
        B = 2

    Point = collections.namedtuple("Point", "x y")
    value = [Color.RED, Mode.FAST, Flags.A | Flags.B, Point(1, 2), collections.OrderedDict(b=1, a=2),
             collections.defaultdict(int, z=1), collections.Counter("aa")]
    assert canonical_json(value) == '[3,"fast",3,[1,2],{"a":2,"b":1},{"z":1},{"a":2}]'


# --- containers and keys ----------------------------------------------------

def test_tuples_are_arrays():
    assert canonical_json((1, "x", (None, (2,)))) == '[1,"x",[[2]]]'
    assert fingerprint("t", {"a": (1, 2)}) == fingerprint("t", {"a": [1, 2]})


def test_dict_keys_per_d16():
    assert canonical_json({7: "i", True: "t", False: "f", None: "n", "s": "s"}) == \
        '{"7":"i","false":"f","null":"n","s":"s","true":"t"}'
    # float keys are written as json.dumps writes them (not JavaScript's names).
    assert canonical_json({1.5: "a", 2.0: "b", float("inf"): "c", -0.0: "d"}) == \
        '{"-0.0":"d","1.5":"a","2.0":"b","Infinity":"c"}'
    assert canonical_json({-7: 1, 10**20: 2}) == '{"-7":1,"100000000000000000000":2}'


def test_keys_that_share_a_name_keep_the_last():
    assert canonical_json({1: "a", "1": "b"}) == '{"1":"b"}'
    assert canonical_json({"1": "a", 1: "b"}) == '{"1":"b"}'


def test_keys_are_not_trimmed_values_are():
    assert canonical_json({" k ": " v "}) == '{" k ":"v"}'


@pytest.mark.parametrize("key", [(1, 2), b"k", frozenset(), Decimal(1), date(2024, 1, 1)], ids=repr)
def test_other_key_types_are_errors(key):
    e = err(canonical_json, {"outer": {"a": 1, key: 2}})
    assert e.code == "unsupported-value"
    assert e.path == "args.outer"
    assert type(key).__qualname__ in str(e)


# --- strings: trimming (D4), escaping (D6), surrogates (D14) ---------------

def test_trim_set_is_ecmascripts():
    assert canonical_json(" \x1cx\x85 ") == '"\\u001cx\x85"'  # U+001C and U+0085 stay
    assert canonical_json("\ufeffx\ufeff") == '"x"'
    assert canonical_json("\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\t\n\v\f\rx \u3000") == '"x"'
    assert canonical_json(["\x1f", "\x1d\x1e"]) == '["\\u001f","\\u001d\\u001e"]'
    # str.strip would disagree on these, which is why the core trims.
    assert "\x1cx\x85".strip() == "x"


def test_lone_surrogates_and_pairs():
    assert canonical_json(["\ud800", "a\udc00b", "\udbff\ud800"]) == '["\\ud800","a\\udc00b","\\udbff\\ud800"]'
    # A two-char surrogate pair in a Python str is one code point, as in UTF-16.
    assert canonical_json("\ud83d\ude00") == canonical_json("\U0001F600") == '"\U0001F600"'
    assert fingerprint("t", {"\ud83d\ude00": 1}) == fingerprint("t", {"\U0001F600": 1})
    # Key order is by code point: U+FF01 sorts before U+1F600 (D5).
    assert canonical_json({"\U0001F600": 1, "\uff01": 2}) == '{"\uff01":2,"\U0001F600":1}'


def test_str_subclass_is_its_text():
    class Name(str):
        def __str__(self):
            return "other"
    assert canonical_json({Name("k"): Name(" v ")}) == '{"k":"v"}'


# --- rejected values --------------------------------------------------------

class Thing:
    pass


@pytest.mark.parametrize("bad", [{1, 2}, frozenset([1]), b"x", bytearray(b"x"), memoryview(b"x"), Decimal("1.5"),
                                 Fraction(1, 3), 1j, object(), Thing(), time(1, 2), timedelta(1), range(3),
                                 iter([1]), print, enum.Enum("E", "A").A],
                         ids=lambda b: type(b).__qualname__)
def test_unsupported_values_name_the_path(bad):
    e = err(canonical_json, {"items": [0, 1, 2, {"when": bad}]})
    assert e.code == "unsupported-value"
    assert e.path == "args.items[3].when"
    assert "args.items[3].when" in str(e) and type(bad).__qualname__ in str(e)
    e = err(fingerprint, "t", bad)
    assert e.path == "args"


def test_path_notation():
    assert err(canonical_json, {"a b": [{"0": {1}}]}).path == 'args["a b"][0]["0"]'
    assert err(canonical_json, {7: (None, b"")}).path == 'args["7"][1]'
    assert err(canonical_json, {"$x_1": [[[{1}]]]}).path == "args.$x_1[0][0][0]"


def test_cycles():
    a: list = [1]
    a.append(a)
    e = err(canonical_json, {"x": a})
    assert (e.code, e.path) == ("circular-value", "args.x[1]")
    d: dict = {}
    d["k"] = {"again": d}
    e = err(fingerprint, "t", d)
    assert (e.code, e.path) == ("circular-value", "args.k.again")
    # A value seen twice without a cycle is fine.
    shared = [1]
    assert canonical_json([shared, shared, {"s": shared}]) == '[[1],[1],{"s":[1]}]'


def test_error_type_is_a_value_error_and_pickles():
    import pickle
    e = err(canonical_json, {"a": {1}})
    assert isinstance(e, ValueError)
    e2 = pickle.loads(pickle.dumps(e))
    assert (e2.code, e2.path, str(e2)) == (e.code, e.path, str(e))


# --- selection (D9, D10) ----------------------------------------------------

def test_values_left_out_are_never_read():
    args = {"ticketId": "T-1", "blob": object(), "when": {1, 2}}
    fp = fingerprint("t", args, match_on=["ticketId"])
    assert fp == oracle_digest("tool_call", "t", '{"ticketId":"T-1"}')
    assert fingerprint("t", args, ignore_args=["blob", "when"]) == fp
    assert err(fingerprint, "t", args, ignore_args=["blob"]).path == "args.when"


def test_match_on_wins_even_empty():
    args = {"a": 1, "b": 2}
    assert fingerprint("t", args, match_on=[], ignore_args=["a"]) == oracle_digest("tool_call", "t", "{}")
    assert fingerprint("t", args, match_on=("b", "b", "zz")) == oracle_digest("tool_call", "t", '{"b":2}')


def test_selection_uses_json_key_names():
    assert fingerprint("t", {7: "x", "y": 1}, match_on=["7"]) == fingerprint_json("t", '{"7":"x","y":1}',
                                                                                   match_on=["7"])
    assert fingerprint("t", {True: 1, "a": 2}, ignore_args=["true"]) == oracle_digest("tool_call", "t", '{"a":2}')


def test_selection_only_for_dicts():
    for v in [[{"a": 1}], "s", 3, None, (1,), datetime(2024, 1, 1)]:
        assert fingerprint("t", v, match_on=["a"]) == fingerprint("t", v)


def test_value_and_text_agree():
    v = {"q": " cats ", "n": [1.0, None, {"z": -0.0}], "u": "\u00e9\U0001F600"}
    text = '{"u":"\u00e9\\ud83d\\ude00","n":[1,null,{"z":-0}],"q":" cats "}'
    assert fingerprint("s", v) == fingerprint_json("s", text) == fingerprint_json("s", text.encode())
    assert canonical_json(v) == canonicalize_json(text)


# --- kind, name, arguments --------------------------------------------------

def test_kind_and_name():
    assert fingerprint("n", 1, kind="tool_call") == fingerprint("n", 1) == oracle_digest("tool_call", "n", "1")
    assert fingerprint(" n ", 1, kind="agent") == oracle_digest("agent", " n ", "1")  # name not trimmed
    assert fingerprint("\U0001F600", 1) == oracle_digest("tool_call", "\U0001F600", "1")
    for kind in ["", "a\nb", "\ud800"]:
        assert err(fingerprint, "n", 1, kind=kind).code == "bad-kind"
        assert err(fingerprint_json, "n", "1", kind=kind).code == "bad-kind"
    for name in ["", "x\udc00"]:
        assert err(fingerprint, name, 1).code == "bad-name"
    assert fingerprint("a\nb", 1) == oracle_digest("tool_call", "a\nb", "1")  # a name may hold "\n"


@pytest.mark.parametrize("call", [
    lambda: fingerprint(3, {}),
    lambda: fingerprint(b"n", {}),
    lambda: fingerprint("n", {}, kind=None),
    lambda: fingerprint("n", {}, match_on="a"),
    lambda: fingerprint("n", {}, match_on=[1]),
    lambda: fingerprint("n", {}, ignore_args={"a": 1}),
    lambda: fingerprint("n", {}, ignore_args=5),
    lambda: fingerprint_json("n", 5),
    lambda: fingerprint_json("n", None),
    lambda: canonicalize_json(["[]"]),
])
def test_invalid_arguments(call):
    with pytest.raises(FingerprintError) as e:
        call()
    assert e.value.code == "invalid-argument"


def test_bom_only_in_bytes():
    assert fingerprint_json("n", b"\xef\xbb\xbf{}") == oracle_digest("tool_call", "n", "{}")
    e = err(fingerprint_json, "n", "\ufeff{}")
    assert (e.code, e.offset) == ("unexpected-character", 0)


def test_text_errors_carry_byte_offsets():
    e = err(canonicalize_json, '{"\u00e9":tru}')
    assert (e.code, e.offset) == ("unexpected-character", 6)  # "é" is two bytes
    assert "byte 6" in str(e)
    assert err(canonicalize_json, "").code == "empty-input"
    assert err(canonicalize_json, b"[1,]").code == "unexpected-character"
    assert err(canonicalize_json, b"\"\xff\"").code == "invalid-utf8"


# --- depth (D19) -------------------------------------------------------------

@pytest.mark.parametrize("depth", [999, 1000, 1001, 5000, 50_000])
def test_deep_values(depth):
    v: object = "  x "
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    expected = '"x"'
    for i in range(depth):
        expected = "[%s]" % expected if i % 2 else '{"k":%s}' % expected
    assert canonical_json(v) == expected
    assert canonicalize_json(expected) == expected
    assert fingerprint("t", v) == oracle_digest("tool_call", "t", expected)


def test_very_deep_text_is_an_error_or_works():
    depth = 1_000_000
    text = "[" * depth + "]" * depth
    try:
        out = canonicalize_json(text)
    except FingerprintError as e:
        assert e.code in ("too-deep", "out-of-memory")
    else:
        assert out == text
    assert canonical_json([1]) == "[1]"
