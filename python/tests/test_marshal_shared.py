"""Shared lists and dicts on the marshal path: marshal writes a container
that appears twice once, then refers back to it; the core copies the
finished subtree (D16 reads a value, not its identity), under the depth
limit where the copy lands and a copy budget that keeps the reader linear in
its input. Oracles: python/bench/reference.py and strings built here."""
from __future__ import annotations

import copy
import json
import marshal
import random
import time
from typing import Any, List

import pytest

from _support import load_reference
from overturn.fingerprint import FingerprintError, Limits, canonical_json, fingerprint
from overturn.fingerprint import _api, _core, _stream

ref = load_reference()
F_TEXT = 2


def via_marshal(v: Any) -> str:
    return _core.call(F_TEXT | _stream.F_MARSHAL, b"", b"", b"", b"", marshal.dumps(v, 4))


def unshared(v: Any) -> Any:
    """The same value with no container appearing twice (json round trip keeps floats exact)."""
    return json.loads(json.dumps(v))


def no_text_path(monkeypatch: pytest.MonkeyPatch) -> None:
    if not _stream.marshal_allowed():
        pytest.skip("this process's stack is too small for marshal's depth")

    def fail(*a: Any, **k: Any) -> Any:
        raise AssertionError("the JSON-text path ran")

    monkeypatch.setattr(_api, "to_json_args", fail)


def shared_value(r: random.Random, pool: List[Any], depth: int = 0) -> Any:
    """A random plain value whose lists and dicts are often reused from ``pool`` (finished ones)."""
    pick = r.random() if depth < 5 else r.random() * 0.4
    if pick < 0.2 and pool:
        return r.choice(pool)
    if pick < 0.3:
        return r.choice([None, True, False, -0.0, 2**40])
    if pick < 0.45:
        return r.choice(["", "a", " pad ", "é", "😀", '"q"', "x\ny", "東京"])
    if pick < 0.55:
        return r.choice([r.randint(-10**6, 10**6), r.random() * 1e6, float("nan")])
    if pick < 0.75:
        made: Any = [shared_value(r, pool, depth + 1) for _ in range(r.randint(0, 4))]
        if r.random() < 0.2:
            made = tuple(made)
    else:
        made = {r.choice(["k", "id", " a", "é", "z"]) + str(r.randint(0, 6)): shared_value(r, pool, depth + 1)
                for _ in range(r.randint(0, 4))}
    pool.append(made)
    return made


def records(shared: bool) -> Any:
    """The benchmark's shape: 30 records sharing one tags list and one nested dict."""
    tags = ["alpha", "Zürich", "  padded  "]
    geo = {"lat": 47.37, "lon": 8.54, "where": {"city": "Zürich", "codes": [8001, 8002]}}
    rows = [{"id": i, "tags": tags, "geo": geo, "score": i / 7} for i in range(30)]
    v = {"requestId": "req-1", "records": rows}
    return v if shared else unshared(v)


def bomb(levels: int) -> Any:
    x: Any = [1]
    for _ in range(levels):
        x = [x, x]
    return x


def bomb_text(levels: int) -> str:
    s = "[1]"
    for _ in range(levels):
        s = "[" + s + "," + s + "]"
    return s


def test_shared_containers_read_as_their_copies() -> None:
    r = random.Random(2929)
    copies = 0
    for _ in range(1500):
        pool: List[Any] = []
        v = shared_value(r, pool)
        data = marshal.dumps(v, 4)
        copies += data.count(b"r")  # roughly: a repeat's type byte
        want = ref.canonical_json(v)
        assert via_marshal(v) == want
        assert canonical_json(v) == want
        assert fingerprint("t", v) == ref.fingerprint("t", v) == fingerprint("t", unshared(v))
    assert copies > 1000


def test_records_sharing_a_list_and_a_dict_take_the_marshal_path(monkeypatch: pytest.MonkeyPatch) -> None:
    v = records(True)
    want = ref.fingerprint("search", records(False))
    assert b"r" in marshal.dumps(v, 4)  # marshal did write back-references
    no_text_path(monkeypatch)
    assert fingerprint("search", v) == want
    assert fingerprint("search", v, limits=Limits(max_depth=6, max_members=4)) == want
    assert canonical_json(v) == ref.canonical_json(v)


def test_shared_records_match_json_dumps_and_hashlib(monkeypatch: pytest.MonkeyPatch) -> None:
    # A second oracle, Python's own: for values with nothing to trim, no null
    # and floats whose repr is their Number::toString, the canonical text is
    # json.dumps with sorted keys and no spaces, which writes a shared list or
    # dict again wherever it appears.
    import hashlib

    tags = ["alpha", "Zürich", "東京", 'q"uote', "tab\there", "😀"]
    geo = {"lat": 47.376887, "lon": 8.541694, "area": {"code": "CH-ZH", "zips": [8001, 8002], "ok": True}}
    v = {"id": "req-1", "records": [{"n": i, "score": i / 7 + 0.5, "tags": tags, "geo": geo} for i in range(30)]}
    v["first"] = v["records"][0]
    text = json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    want = hashlib.sha256(("tool_call\nsearch\n" + text).encode("utf-8")).hexdigest()
    assert b"r" in marshal.dumps(v, 4)
    no_text_path(monkeypatch)
    assert canonical_json(v) == text
    assert fingerprint("search", v) == want
    assert fingerprint("search", v, limits=Limits(max_depth=6, max_members=30)) == want
    with pytest.raises(FingerprintError) as e:  # records[i].geo.area.zips: six levels
        fingerprint("search", v, limits=Limits(max_depth=5))
    assert e.value.code == "limit-exceeded"


def test_a_copy_is_refs_inside_refs() -> None:
    # A shared list whose items are themselves shared containers and strings:
    # the copy carries the first reading, nested refs already resolved.
    leaf = {"s": "shared string", "n": 12345678901}
    mid = [leaf, leaf, "shared string", (leaf,)]
    top = {"a": mid, "b": [mid, mid], "c": {"d": mid}}
    v = [top, top, mid]
    assert via_marshal(v) == ref.canonical_json(v) == via_marshal(unshared(v))


@pytest.mark.parametrize("at", [0, 1, 3])
def test_the_depth_limit_counts_a_copy_where_it_lands(at: int) -> None:
    deep: Any = "x"
    for _ in range(6):
        deep = [deep]  # 6 levels
    holder: Any = [deep]
    for _ in range(at):
        holder = {"k": holder}
    v = [deep, holder]  # the copy of `deep` lands at depth 2 + at: 8 + at levels in all
    total = 8 + at
    want = ref.fingerprint("t", v)
    assert fingerprint("t", v, limits=Limits(max_depth=total)) == want
    for lim in (Limits(max_depth=total - 1), Limits(max_depth=total - 1, max_members=1)):
        with pytest.raises(FingerprintError) as e:
            fingerprint("t", v, limits=lim)
        with pytest.raises(FingerprintError) as plain:
            fingerprint("t", unshared(v), limits=lim)
        assert e.value.code == plain.value.code == "limit-exceeded"
        assert str(e.value) == str(plain.value)


def test_the_members_limit_holds_for_copies() -> None:
    d = {"a": 1, "b": 2, "c": 3}
    v = {"x": d, "y": d}
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", v, limits=Limits(max_members=2))
    assert e.value.code == "limit-exceeded" and "maxMembers" in str(e.value)
    assert fingerprint("t", v, limits=Limits(max_members=3)) == ref.fingerprint("t", v)


@pytest.mark.parametrize("lim", [Limits(max_depth=64), Limits(max_members=1000), Limits(max_depth=64, max_members=10)])
def test_a_reference_bomb_under_limits_is_refused_at_once(lim: Limits) -> None:
    v = bomb(30)  # 2**30 leaves from a stream of ~300 bytes
    t0 = time.perf_counter()
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", v, limits=lim)
    assert e.value.code == "limit-exceeded" and "shared lists or dicts" in str(e.value)
    with pytest.raises(FingerprintError) as e2:
        fingerprint("t", [v], limits=lim)
    assert e2.value.code == "limit-exceeded"
    assert time.perf_counter() - t0 < 2.0  # milliseconds when measured; json.dumps would take minutes


def test_a_reference_bomb_without_limits_is_refused_by_the_reader_at_once() -> None:
    # The reader stops at its copy budget; the host's text path then costs what json.dumps does.
    t0 = time.perf_counter()
    with pytest.raises(FingerprintError) as e:
        via_marshal(bomb(30))
    assert e.value.code == "bad-request"
    assert time.perf_counter() - t0 < 2.0


def test_a_bomb_past_the_budget_still_gets_its_answer_without_limits() -> None:
    v = bomb(17)  # 2**17 leaves: past the copy budget, answered by the text path
    with pytest.raises(FingerprintError):
        via_marshal(v)
    assert canonical_json(v) == bomb_text(17)
    small = bomb(10)  # within it: read by the core
    assert via_marshal(small) == bomb_text(10)


def test_a_cycle_through_shared_containers_names_its_path() -> None:
    a: List[Any] = [1]
    b = {"x": a, "y": a}  # a copied once, then a cycle back to the open list
    a.append([b, b])
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", {"v": a})
    assert e.value.code == "circular-value" and e.value.path == "args.v[1][0].x"
    with pytest.raises(FingerprintError) as e2:
        fingerprint("t", {"v": a}, limits=Limits(max_depth=100))
    assert e2.value.code == "circular-value"


def test_damaged_streams_with_copies_are_errors_or_values_never_traps() -> None:
    r = random.Random(29)
    base = [marshal.dumps(shared_value(r, []), 4) for _ in range(300)]
    for data in base:
        for _ in range(6):
            b = bytearray(data)
            how = r.random()
            if how < 0.3 and b:
                del b[r.randrange(len(b)):]
            elif how < 0.6 and b:
                b[r.randrange(len(b))] = r.randrange(256)
            elif how < 0.8 and b:  # a repeat's index changed: a different (maybe open) target
                i = data.find(b"r", r.randrange(len(data)))
                if i >= 0 and i + 5 <= len(b):
                    b[i + 1] = r.randrange(8)
            else:
                b[r.randrange(len(b) + 1):r.randrange(len(b) + 1)] = bytes(r.randrange(256) for _ in range(4))
            try:
                _core.call(1 | _stream.F_MARSHAL, b"", b"", b"", b"", bytes(b))
            except FingerprintError as e:
                assert e.code != "internal-error", e


def test_the_copy_keeps_the_original_intact() -> None:
    v = records(True)
    before = copy.deepcopy(v)
    fingerprint("t", v)
    assert v == before


def test_batches_read_shared_containers_and_refuse_a_bomb_under_limits() -> None:
    from overturn.fingerprint import fingerprint_batch

    v = records(True)
    calls = [{"name": "search", "args": v}, {"name": "t", "args": {"a": v["records"][0], "b": v["records"][1]}}]
    assert fingerprint_batch(calls) == [ref.fingerprint(c["name"], unshared(c["args"])) for c in calls]
    t0 = time.perf_counter()
    out = fingerprint_batch([{"name": "t", "args": bomb(30)}, {"name": "t", "args": 1}],
                            limits=Limits(max_depth=64), on_error="null")
    assert out == [None, ref.fingerprint("t", 1)]
    with pytest.raises(FingerprintError) as e:
        fingerprint_batch([{"name": "t", "args": bomb(30)}], limits=Limits(max_depth=64))
    assert e.value.code == "limit-exceeded"
    assert time.perf_counter() - t0 < 2.0  # the text path would have run json.dumps on 2**30 leaves
