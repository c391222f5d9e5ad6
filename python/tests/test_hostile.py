"""Hostile host values: odd subclasses, lying ``__class__``,
poisoned caches, user callbacks that raise or call back into the SDK.

Every case ends in one of three outcomes, never a fourth: the digest of the
independent pure-Python reference (``python/bench/reference.py``, which
reads values as ``json.dumps`` does and never through overridable methods),
a FingerprintError naming the path with the original exception as
``__cause__``, or the user's own exception, the very object raised.
"""
from __future__ import annotations

import threading
from datetime import date, datetime, timedelta, timezone, tzinfo

import pytest

from _support import load_reference, oracle_digest
from overturn.fingerprint import (
    FingerprintError, canonical_json, canonicalize_json, explain, fingerprint, fingerprint_json,
)

ref = load_reference()
HUGE = 10 ** 5000  # beyond the int→str limit: the C encoder fails, so the walk runs (the slow path)


class Boom(Exception):
    """The user's own exception: must reach the caller unchanged."""


def expect_ref(args, name="t", **opts):
    """fingerprint(...) equals the reference's digest (which is computed first)."""
    want = ref.fingerprint(name, args, **opts)
    assert fingerprint(name, args, **opts) == want
    return want


def fp_error(fn, *a, **k) -> FingerprintError:
    with pytest.raises(FingerprintError) as e:
        fn(*a, **k)
    return e.value


def user_error(exc, fn, *a, **k) -> None:
    with pytest.raises(Boom) as e:
        fn(*a, **k)
    assert e.value is exc and type(e.value) is Boom
    exc.__traceback__ = None  # the value holds exc: break the cycle through the frames


# --- 1. caches and selection compare exact content (D9) --------------------

class CIStr(str):
    """Case-insensitive equality: must never decide what is selected."""

    def __eq__(self, o):
        return isinstance(o, str) and self.lower() == o.lower()

    def __ne__(self, o):
        return not self.__eq__(o)

    def __hash__(self):
        return hash(self.lower())


def test_case_insensitive_str_in_match_on_does_not_poison_the_key_list_cache():
    want_auth = oracle_digest("tool_call", "t", '{"auth":2}')
    want_empty = oracle_digest("tool_call", "t", "{}")
    assert fingerprint("x", {}, match_on=[CIStr("AUTH")]) == oracle_digest("tool_call", "x", "{}")
    assert fingerprint("t", {"auth": 2}, match_on=["auth"]) == want_auth
    assert fingerprint("t", {"auth": 2}, match_on=[CIStr("AUTH")]) == want_empty
    assert fingerprint("t", {"auth": 2}, match_on=("auth",)) == want_auth
    assert fingerprint("t", {"auth": 2, "b": 1}, ignore_args=[CIStr("AUTH")]) == \
        oracle_digest("tool_call", "t", '{"auth":2,"b":1}')
    assert fingerprint("t", {"auth": 2, "b": 1}, ignore_args=["auth"]) == oracle_digest("tool_call", "t", '{"b":1}')
    assert explain("t", {"auth": 2}, match_on=["auth"])["fingerprint"] == want_auth


def test_case_insensitive_str_in_fingerprint_json_options():
    fingerprint_json("x", "{}", match_on=[CIStr("AUTH")])
    assert fingerprint_json("t", '{"auth":2}', match_on=["auth"]) == oracle_digest("tool_call", "t", '{"auth":2}')
    assert fingerprint_json("t", '{"auth":2}', match_on=[CIStr("AUTH")]) == oracle_digest("tool_call", "t", "{}")


def test_case_insensitive_str_as_name_and_kind_is_its_content():
    assert fingerprint(CIStr("T"), {}) == oracle_digest("tool_call", "T", "{}")
    assert fingerprint("t", {}) == oracle_digest("tool_call", "t", "{}")
    assert fingerprint("t", {}, kind=CIStr("TOOL_CALL")) == oracle_digest("TOOL_CALL", "t", "{}")
    assert fingerprint("t", {}, kind="tool_call") == oracle_digest("tool_call", "t", "{}")


def test_str_subclass_keys_in_args_select_by_content():
    args = {CIStr("AUTH"): 1, CIStr("b"): 2}
    assert expect_ref(args, match_on=["auth", "b"]) == oracle_digest("tool_call", "t", '{"b":2}')
    assert expect_ref(args, ignore_args=["auth"]) == oracle_digest("tool_call", "t", '{"AUTH":1,"b":2}')


class LyingStr(str):
    """Every way to read a str but its content lies."""

    def __str__(self):
        return "lie"

    def __repr__(self):
        return "'lie'"

    def __iter__(self):
        return iter("lie")

    def __getitem__(self, i):
        return "l"

    def __len__(self):
        return 3

    def strip(self, *a):
        return "lie"

    def encode(self, *a, **k):
        return b"lie"

    def lower(self):
        return "lie"


def test_str_subclass_is_read_by_content_everywhere():
    s = LyingStr(" real ")
    assert canonical_json({s: s, "l": [s]}) == '{" real ":"real","l":["real"]}'
    assert expect_ref({s: s, "x": 1}, match_on=[LyingStr(" real ")]) == \
        oracle_digest("tool_call", "t", '{" real ":"real"}')
    assert fingerprint(LyingStr("n"), [s], kind=LyingStr("k")) == oracle_digest("k", "n", '["real"]')
    assert canonical_json({"big": HUGE, "s": s, s: 1}) == '{" real ":1,"s":"real"}'  # the slow path too


def test_surrogate_pair_keys_select_as_the_core_reads_them():
    # "\ud83d\ude00" (two chars) and "😀" are one UTF-16 string (D14): selection agrees with text input.
    args = {"\ud83d\ude00": 1, "b": 2}
    want = oracle_digest("tool_call", "t", '{"\U0001F600":1}')
    assert expect_ref(args, match_on=["\U0001F600"]) == want
    assert fingerprint("t", {"\U0001F600": 1, "b": 2}, match_on=["\ud83d\ude00"]) == want
    assert fingerprint_json("t", '{"\\ud83d\\ude00":1,"b":2}', match_on=["\U0001F600"]) == want
    assert expect_ref(args, ignore_args=["\U0001F600"]) == oracle_digest("tool_call", "t", '{"b":2}')


# --- 2. numbers, bools, keys ------------------------------------------------

class OddInt(int):
    def __repr__(self):
        return "999"

    __str__ = __repr__

    def __float__(self):
        return 999.0

    def __index__(self):
        return 999

    def __int__(self):
        return 999

    def __eq__(self, o):
        return True

    __hash__ = int.__hash__


class OddFloat(float):
    def __repr__(self):
        return "999.0"

    __str__ = __repr__

    def __float__(self):
        return 999.0

    def __eq__(self, o):
        return False

    def __ne__(self, o):
        return True

    __hash__ = float.__hash__

    def __abs__(self):
        return 999.0


def test_int_and_float_subclasses_are_their_value():
    v = {"i": OddInt(7), "f": OddFloat(0.5), "n": OddFloat("nan"), "k": {OddInt(3): 1, OddFloat(1.5): 2}}
    assert canonical_json(v) == '{"f":0.5,"i":7,"k":{"1.5":2,"3":1}}'
    expect_ref(v)
    expect_ref({**v, "big": HUGE})  # the slow path reads them alike
    assert canonical_json({OddFloat("inf"): 1, OddFloat("nan"): 2}) == '{"Infinity":1,"NaN":2}'


def test_int_key_beyond_the_int_str_limit_is_a_fingerprint_error_with_cause():
    e = fp_error(canonical_json, {"a": {HUGE: 1}})
    assert e.code == "unsupported-value" and e.path == "args.a"
    assert type(e.__cause__) is ValueError
    e = fp_error(fingerprint, "t", {HUGE: 1, "a": 1}, match_on=["a"])
    assert e.path == "args" and type(e.__cause__) is ValueError
    with pytest.raises(ref.ReferenceError_):
        ref.fingerprint("t", {"a": {HUGE: 1}})


def test_int_value_beyond_the_int_str_limit_is_infinity():
    assert expect_ref({"a": HUGE, "b": -HUGE, "c": OddInt(1)}) == oracle_digest("tool_call", "t", '{"c":1}')


# --- 3. dict and list subclasses: read as json.dumps reads them ---------------

class ItemsDict(dict):
    """Only items() counts (json.dumps); the other protocols lie."""

    def keys(self):
        return ["lie"]

    def __iter__(self):
        return iter(["lie"])

    def __getitem__(self, k):
        return "lie"

    def __len__(self):
        return 99

    def __contains__(self, k):
        return True


class IterList(list):
    """json.dumps reads a list subclass through its iteration."""

    def __iter__(self):
        return iter(["from-iter"])

    def __len__(self):
        return 99

    def __getitem__(self, i):
        return "lie"


def test_dict_subclass_read_through_items():
    d = ItemsDict(a=1, b=" x ")
    assert canonical_json(d) == '{"a":1,"b":"x"}'
    expect_ref({"d": d})
    expect_ref(d, match_on=["a", "lie"])
    expect_ref({"d": d, "big": HUGE})


def test_list_subclass_read_through_iteration_on_both_paths():
    v = {"l": IterList([1, 2]), "t": (1,)}
    assert canonical_json(v) == '{"l":["from-iter"],"t":[1]}'
    assert canonical_json({**v, "big": HUGE}) == canonical_json(v)
    expect_ref(v)


@pytest.mark.parametrize("items", [[(1, 2, 3)], [("a",)], ["ab"], [["a", 1]], [5]])
def test_items_that_are_not_pairs_name_the_path(items):
    class Bad(dict):
        def items(self):
            return items

    e = fp_error(canonical_json, {"x": [Bad(a=1)]})
    assert e.code == "unsupported-value" and e.path == "args.x[0]"
    assert type(e.__cause__) is ValueError
    e = fp_error(fingerprint, "t", Bad(a=1), match_on=["a"])
    assert e.path == "args" and type(e.__cause__) is ValueError
    with pytest.raises(ref.ReferenceError_):
        ref.canonical_json({"x": [Bad(a=1)]})


def test_items_returning_a_non_iterable_names_the_path():
    class Bad(dict):
        def items(self):
            return 5

    e = fp_error(canonical_json, {"x": Bad(a=1)})
    assert e.path == "args.x" and type(e.__cause__) is TypeError


def test_tuple_subclass_pairs_are_pairs():
    class Pair(tuple):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            return "lie"

    class D(dict):
        def items(self):
            return [Pair(("a", 1))]

    assert canonical_json({"d": D(x=0)}) == '{"d":{"a":1}}'
    expect_ref({"d": D(x=0)})


def test_dict_subclass_with_empty_storage_is_empty_on_every_path():
    # The C encoder writes {} for an empty dict without calling items(); so must the walk and selection.
    class D(dict):
        def items(self):
            return [("a", 1)]

    assert canonical_json({"d": D()}) == '{"d":{}}'
    assert canonical_json({"d": D(), "big": HUGE}) == '{"d":{}}'
    assert expect_ref(D(), ignore_args=[]) == oracle_digest("tool_call", "t", "{}")
    expect_ref({"d": D()})


@pytest.mark.parametrize("where", ["items", "iter", "items-iter"])
def test_user_exceptions_in_callbacks_pass_through_unchanged(where):
    exc = Boom("mine")

    class D(dict):
        def items(self):
            if where == "items":
                raise exc
            return self._gen()

        def _gen(self):
            yield ("a", 1)
            raise exc

    class L(list):
        def __iter__(self):
            raise exc

    v = {"v": L([1]) if where == "iter" else D(a=1)}
    user_error(exc, canonical_json, v)
    user_error(exc, fingerprint, "t", {**v, "big": HUGE})
    if where != "iter":
        user_error(exc, fingerprint, "t", v["v"], match_on=["a"])


def test_user_value_error_and_type_error_are_not_relabelled():
    for exc in (ValueError("user"), TypeError("user"), RecursionError("user"), KeyError("user")):
        class D(dict):
            def items(self, exc=exc):
                raise exc

        with pytest.raises(type(exc)) as e:
            canonical_json({"a": D(x=1)})
        assert e.value is exc


# --- 4. datetimes -------------------------------------------------------------

class TZ(tzinfo):
    def __init__(self, result):
        self.result = result

    def utcoffset(self, dt):
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result

    def dst(self, dt):
        return None

    def tzname(self, dt):
        return "TZ"


@pytest.mark.parametrize("result,cause", [("+01:00", TypeError), (5, TypeError), (timedelta(hours=24), ValueError),
                                          (timedelta(days=-2), ValueError)])
def test_tzinfo_with_a_bad_offset_names_the_path(result, cause):
    v = {"when": [datetime(2024, 5, 6, tzinfo=TZ(result))]}
    e = fp_error(canonical_json, v)
    assert e.code == "unsupported-value" and e.path == "args.when[0]"
    assert type(e.__cause__) is cause
    with pytest.raises(ref.ReferenceError_):
        ref.canonical_json(v)


def test_tzinfo_exception_passes_through():
    exc = Boom("tz")
    user_error(exc, canonical_json, {"when": datetime(2024, 5, 6, tzinfo=TZ(exc))})


def test_tzinfo_odd_but_valid_offsets():
    class TD(timedelta):
        def __eq__(self, o):
            return True

        def __bool__(self):
            return False

    v = {"a": datetime(2024, 5, 6, 7, tzinfo=TZ(TD(hours=2))), "b": datetime(2024, 5, 6, tzinfo=TZ(None))}
    assert canonical_json(v) == '{"a":"2024-05-06T05:00:00.000Z","b":"2024-05-06T00:00:00.000Z"}'
    expect_ref(v)


def test_datetime_and_date_subclasses_are_read_by_their_fields():
    class DT(datetime):
        year = property(lambda self: 1)

        def utcoffset(self):
            return timedelta(hours=5)

        def replace(self, *a, **k):
            raise Boom("replace")

        def __sub__(self, o):
            raise Boom("sub")

        def isoformat(self, *a, **k):
            return "lie"

    class D(date):
        @property
        def month(self):
            raise Boom("month")

    v = {"a": DT(2024, 5, 6, 7, 8, 9, 123456, tzinfo=timezone(timedelta(hours=2))), "d": D(2024, 1, 2),
         "n": DT(2024, 5, 6)}
    assert canonical_json(v) == '{"a":"2024-05-06T05:08:09.123Z","d":"2024-01-02","n":"2024-05-06T00:00:00.000Z"}'
    expect_ref(v)


# --- 5. objects that lie about their class -------------------------------------

@pytest.mark.parametrize("claimed", [str, int, float, dict, list, datetime, date])
def test_a_lying_class_attribute_is_unsupported(claimed):
    class Liar:
        __class__ = property(lambda self: claimed)

    v = {"a": [Liar()]}
    assert isinstance(v["a"][0], claimed)  # what isinstance would have believed
    e = fp_error(canonical_json, v)
    assert e.code == "unsupported-value" and e.path == "args.a[0]"
    with pytest.raises(ref.ReferenceError_):
        ref.canonical_json(v)
    e = fp_error(fingerprint, Liar(), {})
    assert e.code == "invalid-argument"
    e = fp_error(fingerprint, "t", {}, match_on=[Liar()])
    assert e.code == "invalid-argument"
    e = fp_error(canonical_json, {Liar(): 1})
    assert e.path == "args"


def test_properties_that_raise_are_never_read():
    class Obj(dict):
        @property
        def __dict__(self):
            raise Boom("dict")

        @property
        def real(self):
            raise Boom("real")

    assert canonical_json(Obj(a=1)) == '{"a":1}'


# --- 6. re-entrant calls from every callback point -----------------------------

INNER_OK = ("inner", {"q": [1, 2]})
INNER_WANT = oracle_digest("tool_call", "inner", '{"q":[1,2]}')


def _inner_calls(log):
    """Calls the SDK from inside a callback: one success, three failures, text input."""
    log.append(fingerprint(*INNER_OK) == INNER_WANT)
    for bad in ({1: object()}, {"c": [1, {2}]}, "dead"):
        try:
            fingerprint("inner", bad) if bad != "dead" else canonicalize_json('{"a":')
        except FingerprintError:
            log.append(True)
        else:
            log.append(False)
    log.append(canonicalize_json('{"b":1,"a":2}') == '{"a":2,"b":1}')
    log.append(fingerprint("inner", {"q": 1, "r": 2}, match_on=["q"]) ==
               oracle_digest("tool_call", "inner", '{"q":1}'))


def _callback_values(log):
    class D(dict):
        def items(self):
            _inner_calls(log)
            return dict.items(self)

    class L(list):
        def __iter__(self):
            _inner_calls(log)
            return list.__iter__(self)

    class Z(tzinfo):
        def utcoffset(self, dt):
            _inner_calls(log)
            return timedelta(hours=1)

    return {
        "items": D(a=1, b=[2]),
        "iter": L([1, " x "]),
        "utcoffset": datetime(2024, 5, 6, 7, tzinfo=Z()),
    }


@pytest.mark.parametrize("point", ["items", "iter", "utcoffset"])
@pytest.mark.parametrize("slow", [False, True], ids=["fast", "slow"])
def test_reentrant_calls_give_both_calls_their_results(point, slow):
    log: list = []
    value = {"v": _callback_values(log)[point], "z": 1}
    if slow:
        value["big"] = HUGE
    plain = {"v": _callback_values([])[point], "z": 1}
    want = ref.fingerprint("outer", plain)
    assert fingerprint("outer", value) == want
    assert log and all(log)


def test_reentrant_call_inside_selection_items():
    log: list = []

    class D(dict):
        def items(self):
            _inner_calls(log)
            return dict.items(self)

    assert fingerprint("outer", D(a=1, b=2), match_on=["a"]) == oracle_digest("tool_call", "outer", '{"a":1}')
    assert log and all(log)


def test_reentrant_from_key_list_iteration():
    log: list = []

    class Keys:
        def __iter__(self):
            _inner_calls(log)
            return iter(["a"])

    assert fingerprint("outer", {"a": 1, "b": 2}, match_on=Keys()) == oracle_digest("tool_call", "outer", '{"a":1}')
    assert fingerprint_json("outer", '{"a":1,"b":2}', ignore_args=Keys()) == \
        oracle_digest("tool_call", "outer", '{"b":2}')
    assert log and all(log)


def test_reentrant_from_eq_and_hash_is_never_triggered():
    calls = []
    armed = []

    class K(str):
        def __eq__(self, o):
            if armed:
                calls.append(fingerprint("inner", 1))
            return str.__eq__(self, o)

        def __hash__(self):
            if armed:
                calls.append(fingerprint("inner", 1))
            return str.__hash__(self)

    args = {K("a"): 1, "b": 2}
    armed.append(True)
    assert fingerprint("t", args, match_on=[K("a")]) == oracle_digest("tool_call", "t", '{"a":1}')
    assert canonical_json(args) == '{"a":1,"b":2}'
    assert calls == []


def test_reentrant_failure_inside_items_then_outer_failure():
    # The inner failure must not disturb the outer call's own error report.
    class D(dict):
        def items(self):
            with pytest.raises(FingerprintError):
                canonical_json([{3}])
            return dict.items(self)

    e = fp_error(canonical_json, {"a": D(b=1), "c": {4}})
    assert e.path == "args.c" and e.code == "unsupported-value"


# --- 7. threads -----------------------------------------------------------------

def test_threads_with_reentrant_callbacks_agree_with_the_reference():
    logs = [[] for _ in range(6)]
    cases = []
    for t in range(6):
        vals = _callback_values(logs[t])
        cases.append({"n": t, "items": vals["items"], "iter": vals["iter"], "when": vals["utcoffset"]})
    plain = _callback_values([])
    wants = [ref.fingerprint("thr", {"n": t, "items": plain["items"], "iter": plain["iter"],
                                     "when": plain["utcoffset"]}) for t in range(6)]
    results: dict = {}
    barrier = threading.Barrier(6)

    def work(t: int) -> None:
        barrier.wait()
        got = []
        for j in range(40):
            got.append(fingerprint("thr", cases[t]) == wants[t])
            if j % 10 == 0:
                got.append(fingerprint("thr", {**cases[t], "big": HUGE}) == wants[t])
        results[t] = got

    ts = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    assert sorted(results) == list(range(6))
    assert all(all(r) for r in results.values())
    assert all(log and all(log) for log in logs)


# --- 8. JSON text input ------------------------------------------------------------

def test_json_text_str_subclass_is_read_by_content():
    class T(str):
        def encode(self, *a, **k):
            return b'{"lie":1}'

    want = oracle_digest("tool_call", "t", '{"a":1}')
    assert fingerprint_json("t", T('{"a":1}')) == want
    assert canonicalize_json(T(' {"a": 1} ')) == '{"a":1}'

    class Liar:
        __class__ = property(lambda self: str)

    assert fp_error(fingerprint_json, "t", Liar()).code == "invalid-argument"


# --- 9. re-entry while the core call itself runs (__del__ under GC, signal handlers) ---

@pytest.mark.parametrize("outer", ["value", "text"])
def test_nested_call_while_the_core_is_busy(monkeypatch, outer):
    # The nested call runs after the outer one wrote its request, right
    # before the core runs it (the value path's _core.plain and _core._run
    # both call through here): it must not overwrite that request.
    from overturn.fingerprint import _core
    st = _core.instance()
    inner: list = []
    run = st.call_unchecked

    def nesting(*a):
        if not inner:
            inner.append(None)
            inner[0] = fingerprint("inner", {"q": [1, " x "]})  # st is busy: a temporary instance serves it
        return run(*a)

    monkeypatch.setattr(st, "call_unchecked", nesting)
    # The thread's plain function binds call_unchecked when it is made: make it again, here and after.
    _core._local.__dict__.pop("plain", None)
    _core._local.__dict__.pop("value", None)
    try:
        got = fingerprint("outer", {"a": 1}) if outer == "value" else fingerprint_json("outer", '{"a": 1}')
    finally:
        _core._local.__dict__.pop("plain", None)
        _core._local.__dict__.pop("value", None)
    assert got == oracle_digest("tool_call", "outer", '{"a":1}')
    assert inner == [oracle_digest("tool_call", "inner", '{"q":[1,"x"]}')]


def test_del_under_gc_fingerprints_during_calls():
    import gc
    seen: list = []

    class Litter:
        def __init__(self):
            self.me = self  # a cycle: only the collector frees it, at any allocation

        def __del__(self):
            seen.append(fingerprint("del", {"n": [2]}) == oracle_digest("tool_call", "del", '{"n":[2]}'))

    want = oracle_digest("tool_call", "t", '{"a":[1,2,3],"b":"x"}')
    old = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        for _ in range(300):
            Litter()
            assert fingerprint("t", {"b": " x ", "a": [1, 2, 3]}, ignore_args=["c"]) == want
    finally:
        gc.set_threshold(*old)
        gc.collect()
    assert len(seen) >= 250 and all(seen)


@pytest.mark.parametrize("outer", ["explain", "batch", "cli", "calls"])
def test_a_diagnostics_call_re_entered_mid_call_gets_its_own_instance(outer):
    # The nested call runs after the outer one wrote its request (or chunk), right before the core
    # runs it, as a __del__ under GC or a signal handler could: neither may read the other's bytes.
    from overturn.fingerprint import _engine, explain_call, explain_calls, fingerprint_batch_json
    explain_call({"name": "warm", "args": {}})
    st = _engine._pool.instance()
    real = st.call
    inner: list = []

    def nesting(func, *args):
        if not inner:
            inner.append(None)
            inner[0] = [explain_call({"name": "inner", "args": {"q": [1]}})["fingerprint"],
                        *fingerprint_batch_json(["inner"], ['{"q": [1]}'])]
        return real(func, *args)

    st.call = nesting
    try:
        if outer == "explain":
            got = [explain_call({"name": "outer", "args": {"a": 1}})["fingerprint"]]
        elif outer == "calls":
            got = [e["fingerprint"] for e in explain_calls({"tool_calls": [
                {"type": "function", "function": {"name": "outer", "arguments": '{"a": 1}'}}] * 2})]
        elif outer == "batch":
            got = fingerprint_batch_json(["outer"] * 3, ['{"a": 1}'] * 3)
        else:
            from overturn.fingerprint._engine import cli_step
            cli_step("worker", b"-:-\0")  # a CLI worker's instance: a task of one line of file "-", line 1
            out = cli_step("job", b"", b"", b"", b"\1\0\0\0\1\0\0\0-" b'{"name": "outer", "args": {"a": 1}}\n')[0]
            got = [bytes(out).split()[0].decode()]
    finally:
        del st.call
    assert set(got) == {oracle_digest("tool_call", "outer", '{"a":1}')} and len(got) >= 1
    assert inner == [[oracle_digest("tool_call", "inner", '{"q":[1]}')] * 2]
    assert not st.busy  # released: the next call uses it again
    assert explain_call({"name": "outer", "args": {"a": 1}})["fingerprint"] == got[0]


def test_a_recording_used_from_inside_its_own_call_is_refused_not_a_deadlock():
    from overturn.fingerprint import Recording
    rec = Recording.loads('{"name": "t", "args": {"a": 1}, "result": 7}\n' * 2)  # each line answers once
    other = Recording.loads('{"name": "t", "args": {"a": 1}, "result": 8}\n')
    st = rec._st
    real = st.call
    inner: list = []

    def nesting(func, *args):
        if not inner:
            inner.append(None)
            try:
                rec.answer({"name": "t", "args": {"a": 1}})
            except FingerprintError as e:
                inner[0] = (e.code, other.answer({"name": "t", "args": {"a": 1}})["value"]["result"])
        return real(func, *args)

    st.call = nesting
    try:
        got = rec.answer({"name": "t", "args": {"a": 1}})
    finally:
        del st.call
    assert got["hit"] and got["value"]["result"] == 7
    assert inner == [("invalid-argument", 8)]
    assert rec.answer({"name": "t", "args": {"a": 1}})["value"]["result"] == 7


# --- 10. a user's exception is not retried --------------------------------------------

@pytest.mark.parametrize("exc_type", [ValueError, TypeError, OverflowError, Boom])
def test_a_callback_that_raises_once_is_not_called_again(exc_type):
    # Retrying would call user code twice and could turn the user's error into a fingerprint.
    calls = []

    class Flaky(dict):
        def items(self):
            calls.append(1)
            if len(calls) == 1:
                raise exc_type("first read fails")
            return dict.items(self)

    class FlakyTZ(tzinfo):
        def utcoffset(self, dt):
            calls.append(1)
            if len(calls) == 1:
                raise exc_type("first read fails")
            return None

    for v in ({"a": Flaky(b=1)}, {"a": datetime(2024, 1, 2, tzinfo=FlakyTZ())}):
        calls.clear()
        with pytest.raises(exc_type, match="first read fails"):
            canonical_json(v)
        assert calls == [1]


def test_nested_call_while_this_thread_compiles_the_core():
    # A __del__ (or signal handler) that fingerprints during the first call's compile must not deadlock.
    import subprocess
    import sys
    code = """
from overturn.fingerprint import _core, fingerprint
real = _core.wasm_bytes
inner = []
def wasm_bytes():
    if not inner:
        inner.append(None)
        inner[0] = fingerprint("inner", [1])
    return real()
_core.wasm_bytes = wasm_bytes
print(fingerprint("outer", [2]), inner[0])
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == [oracle_digest("tool_call", "outer", "[2]"), oracle_digest("tool_call", "inner", "[1]")]


# --- 11. keys that share a name --------------------------------------------------------

def test_keys_sharing_a_name_keep_the_last_value_and_check_every_value():
    # {1: …, "1": …} is JSON text with "1" twice: the last wins (D13), every value must be valid (D16).
    for opts in ({}, {"ignore_args": ["x"]}, {"match_on": ["1", "a"]}):
        assert expect_ref({1: "first", "a": 0, "1": " last "}, **opts) == \
            oracle_digest("tool_call", "t", '{"1":"last","a":0}')
        e = fp_error(fingerprint, "t", {1: {1, 2}, "1": "ok"}, **opts)
        assert e.code == "unsupported-value" and e.path == "args[\"1\"]"
        with pytest.raises(ref.ReferenceError_):
            ref.fingerprint("t", {1: {1, 2}, "1": "ok"}, **opts)
    assert expect_ref(ItemsDict({True: 1, "true": 2}), match_on=["true"]) == \
        oracle_digest("tool_call", "t", '{"true":2}')


# --- read once: the error path does not call user code again -----

class _CountingItems(dict):
    calls = 0

    def items(self):  # type: ignore[override]
        type(self).calls += 1
        return dict.items(self)


class _CountingZone(tzinfo):
    calls = 0

    def utcoffset(self, dt):  # type: ignore[override]
        type(self).calls += 1
        return timedelta(hours=2)

    def dst(self, dt):  # type: ignore[override]
        return None


@pytest.mark.parametrize("later", [{1, 2}, b"bytes", object()], ids=["set", "bytes", "object"])
def test_user_code_runs_once_when_a_later_value_is_rejected(later):
    _CountingItems.calls = 0
    _CountingZone.calls = 0
    value = {"a": _CountingItems(x=1), "b": datetime(2024, 5, 6, 7, 8, 9, tzinfo=_CountingZone()), "z": [1, later]}
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", value)
    assert e.value.path == "args.z[1]"
    assert (_CountingItems.calls, _CountingZone.calls) == (1, 1)


@pytest.mark.parametrize("later", [{1, 2}, b"bytes", object()], ids=["set", "bytes", "object"])
def test_user_code_runs_once_in_a_thread_with_a_small_stack(later):
    # There marshal is not asked (_stream: UNKNOWN), so the value may hold
    # user code: the walk reads it once, as for a value marshal refused.
    _CountingItems.calls = 0
    _CountingZone.calls = 0
    value = {"a": _CountingItems(x=1), "b": datetime(2024, 5, 6, 7, 8, 9, tzinfo=_CountingZone()), "z": [1, later]}
    errors: list = []

    def work():
        try:
            fingerprint("t", value)
        except FingerprintError as e:
            errors.append(e)

    old = threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=work)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    assert [e.path for e in errors] == ["args.z[1]"]
    assert (_CountingItems.calls, _CountingZone.calls) == (1, 1)


def test_user_code_runs_once_on_success_too():
    _CountingItems.calls = 0
    _CountingZone.calls = 0
    value = {"a": _CountingItems(x=1), "b": datetime(2024, 5, 6, 7, 8, 9, tzinfo=_CountingZone())}
    want = oracle_digest("tool_call", "t", '{"a":{"x":1},"b":"2024-05-06T05:08:09.000Z"}')
    assert fingerprint("t", value) == want
    assert (_CountingItems.calls, _CountingZone.calls) == (1, 1)


def test_module_functions_patched_after_use_change_nothing(monkeypatch):
    """Code that patches marshal, json or hashlib after the SDK's first calls cannot change a digest:
    the SDK holds the functions it found (its C encoder, quote, marshal and OpenSSL's SHA-256)."""
    import _hashlib
    import hashlib
    import json
    import json.encoder
    import marshal

    values = [{"q": "cats", "n": [1, 2.5, None], "s": 'a "quoted" \ud800 x'},  # marshal, read by the core
              {"big": HUGE, "t": " trimmed "},  # the C encoder refuses: the walk writes the text
              {"d": datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc), "k": (1, 2)}]
    want = [ref.fingerprint("t", v) for v in values]
    want_text = [ref.canonical_json(v) for v in values]
    assert [fingerprint("t", v) for v in values] == want  # every path used once before the patches
    wrong_md = hashlib.md5
    monkeypatch.setattr(marshal, "dumps", lambda v, version=4: b"N")
    monkeypatch.setattr(json, "dumps", lambda *a, **k: '"patched"')
    monkeypatch.setattr(json.encoder, "encode_basestring_ascii", lambda s: '"patched"')
    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    monkeypatch.setattr(hashlib, "sha256", wrong_md)
    monkeypatch.setattr(_hashlib, "openssl_sha256", wrong_md)
    assert [fingerprint("t", v) for v in values] == want
    assert [canonical_json(v) for v in values] == want_text
