"""The batch API: fingerprint_batch / fingerprint_batch_json give, item
by item, the contract's answers — the shared vectors (made by the oracle in
test/reference/) and the reject corpus — from lists, generators and pyarrow
arrays, across chunk boundaries; a bad item raises naming its index, or is None.
The pyarrow tests run where pyarrow is installed (scripts/test-spark.sh's venv)."""
from __future__ import annotations

import json
import os

import pytest

from overturn.fingerprint import FingerprintError, fingerprint_batch, fingerprint_batch_json, fingerprint_json

from _support import load_reference

# Expected digests from the pure-Python oracle (python/bench/reference.py), never from the SDK.
_REF = load_reference()


def _oracle(name, text, **kw):
    return _REF.fingerprint(name, _REF.parse_json(text), **kw)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(ROOT, "vectors", "fingerprint.vectors.json"), encoding="utf-8") as f:
    VECTORS = json.load(f)["vectors"]
with open(os.path.join(ROOT, "vectors", "reject.jsonl"), encoding="utf-8") as f:
    REJECTS = [json.loads(line) for line in f if line.strip()]
PLAIN = [v for v in VECTORS if "argsJSON" in v and "kind" not in v and v.get("matchOn") is None
         and v.get("ignoreArgs") is None]


def _want(v):
    return None if "error" in v else v["fingerprint"]


class Short(str):
    """A str whose __len__ says less than it holds (the batch must read its str data, not its length)."""

    def __len__(self):
        return 0


class Long(str):
    """A str whose __len__ says far more than it holds."""

    def __len__(self):
        return 1 << 30


def _utf8(s):
    try:
        s.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def test_calls_give_every_vector_or_none_with_per_call_options():
    vs = [v for v in VECTORS if "argsJSON" in v]
    calls = [{k: v[k] for k in ("name", "argsJSON", "kind", "matchOn", "ignoreArgs") if k in v} for v in vs]
    got = fingerprint_batch(calls, on_error="null")
    assert [(v["id"], g) for v, g in zip(vs, got)] == [(v["id"], _want(v)) for v in vs]
    assert sum(1 for v in vs if "error" in v) > 5


def test_calls_as_lines_and_mappings_and_a_near_miss_names_its_index():
    v = next(x for x in VECTORS if x["id"] == "page-trim-email")
    line = json.dumps({"name": v["name"], "argsJSON": v["argsJSON"]})
    assert fingerprint_batch([line, line.encode(), {"name": v["name"], "args": json.loads(v["argsJSON"])}]) == [
        v["fingerprint"]] * 3
    with pytest.raises(FingerprintError, match=r"^item 1: .*matchOn") as e:
        fingerprint_batch(iter([line, {"name": "t", "args": {}, "match_on": ["a"]}]))
    assert e.value.index == 1


def test_names_and_texts_match_the_vectors_from_lists_and_generators():
    names = [v["name"] for v in PLAIN]
    texts = [v["argsJSON"] for v in PLAIN]
    want = [_want(v) for v in PLAIN]
    assert fingerprint_batch_json(names, texts, on_error="null") == want
    assert fingerprint_batch_json((n for n in names), (t for t in texts), on_error="null") == want


def test_shared_options_as_fingerprint_json_applies_them():
    for v in VECTORS:
        if "argsJSON" in v and "error" not in v and ("kind" in v or v.get("matchOn") is not None
                                                    or v.get("ignoreArgs") is not None):
            got = fingerprint_batch_json([v["name"]] * 2, [v["argsJSON"]] * 2, kind=v.get("kind", "tool_call"),
                                         match_on=v.get("matchOn"), ignore_args=v.get("ignoreArgs"))
            assert (v["id"], got) == (v["id"], [v["fingerprint"]] * 2)


def test_every_reject_corpus_text_is_a_bad_item():
    texts = [bytes.fromhex(r["hex"]) for r in REJECTS]
    got = fingerprint_batch_json(["t"] * len(texts), texts, on_error="null")
    assert [(r["id"], g) for r, g in zip(REJECTS, got)] == [(r["id"], None) for r in REJECTS]


def test_chunk_boundaries_alike_from_tuples_iterators_and_calls():
    # The answers themselves across chunks: vectors/batch.vectors.json (test_batch_vectors.py).
    n = 10_000
    names = ["tool_%d" % (i % 13) for i in range(n)]
    texts = [json.dumps({"i": i, "s": " v%d " % i, "f": i / 7}) for i in range(n)]
    texts[9_000] = '{"i": 1,}'
    got = fingerprint_batch_json(names, texts, on_error="null")
    assert got[9_000] is None and len(set(got)) == n
    # Lists and tuples are cut by slicing, other iterables as they yield: the same items in the same chunks.
    assert fingerprint_batch_json(tuple(names), iter(texts), on_error="null") == got
    assert fingerprint_batch_json(iter(names), tuple(texts), on_error="null") == got
    with pytest.raises(FingerprintError, match="different lengths"):
        fingerprint_batch_json(names, texts[:-1])
    calls = [{"name": n, "argsJSON": t} for n, t in zip(names, texts)]
    assert fingerprint_batch(tuple(calls), on_error="null") == fingerprint_batch(iter(calls), on_error="null") == got
    with pytest.raises(FingerprintError) as e:
        fingerprint_batch_json(names, texts)
    with pytest.raises(FingerprintError) as single:
        fingerprint_json("t", texts[9_000])
    assert (e.value.index, e.value.offset, str(e.value)) == (9_000, 8, "item 9000: %s" % single.value)


def test_bad_names_kinds_limits_and_types_per_item():
    got = fingerprint_batch_json(["a", "", "\ud800", "b", "c"], ["1", "1", "1", "[1,2,3]", "{}"],
                                 on_error="null", limits={"max_input_bytes": 4})
    assert got == [_oracle("a", "1"), None, None, None, _oracle("c", "{}")]
    with pytest.raises(FingerprintError, match="item 0: invalid kind"):
        fingerprint_batch_json(["a"], ["1"], kind="")
    with pytest.raises(FingerprintError, match="item 1: name must be a str"):
        fingerprint_batch_json(["a", 3], ["1", "1"])
    with pytest.raises(FingerprintError, match="different lengths"):
        fingerprint_batch_json(["a", "b"], ["1"])
    with pytest.raises(FingerprintError, match="on_error"):
        fingerprint_batch_json(["a"], ["1"], on_error="skip")


def test_a_kind_checked_in_one_batch_is_checked_again_in_the_next():
    # The core checks a batch's shared kind once per call; the next batch's kind sits at the same
    # address with the same length, so a bad one must still be found (and a good one pass).
    assert fingerprint_batch_json(["a", "b"], ["1", "2"], kind="tool_call") == [_oracle("a", "1"), _oracle("b", "2")]
    for bad in ("tool\ncall", "tool\ud800c"):
        with pytest.raises(FingerprintError, match="item 0: invalid kind"):
            fingerprint_batch_json(["a", "b"], ["1", "2"], kind=bad)
        assert fingerprint_batch_json(["a", "b"], ["1", "2"], kind=bad, on_error="null") == [None, None]
    assert fingerprint_batch_json(["a", "b"], ["1", "2"], kind="tool_cal!") == [
        _oracle("a", "1", kind="tool_cal!"), _oracle("b", "2", kind="tool_cal!")]


def test_the_byte_limit_holds_for_non_ascii_texts():
    # Non-ASCII lists go to the core with offsets: the limit is checked against the texts' bytes
    # (once compared with the offsets' own size, which let long items through).
    big = '"' + "é" * 60 + '"'  # 122 bytes of UTF-8
    got = fingerprint_batch_json(["a", "b"], [big, '"é"'], limits={"max_input_bytes": 100}, on_error="null")
    assert got == [None, _oracle("b", '"é"')]
    with pytest.raises(FingerprintError, match="item 0: limit exceeded"):
        fingerprint_batch_json(["a", "b"], [big, '"é"'], limits={"max_input_bytes": 100})


def test_preimages_that_outgrow_their_hash_lane_are_moved_not_cut():
    # Each preimage is written into its hash lane's 4 KiB buffer when its text is short enough; 1e20 prints
    # 21 bytes from 4, so some outgrow the buffer near its end (copied back into the lane) and others far past
    # it (hashed alone). Short items between keep the lanes queued and the chunk's mean under 1 KB.
    # 185 of them make a preimage of 4,082 bytes + the name's length: names of 1 to 24 bytes end it on each
    # side of 4,096, and a number begun within 32 bytes of the end moves the text out first.
    texts, names = [], []
    for k in (170, 184, 185, 186, 200):
        for n in range(1, 25):
            texts += ["[" + ",".join(["1e20"] * k) + "]", "[%d]" % k, "1", "2", "3"]
            names += ["n" * n, "m", "a", "b", "c"]
    assert fingerprint_batch_json(names, texts) == [_oracle(n, t) for n, t in zip(names, texts)]


def test_items_larger_than_a_chunk():
    big = json.dumps({"xs": list(range(200_000))})
    assert fingerprint_batch_json(["a", "b"], [big, "2"]) == [_oracle("a", big), _oracle("b", "2")]


def test_arrow_arrays_in_and_out_without_per_row_objects():
    pa = pytest.importorskip("pyarrow")
    vs = [v for v in PLAIN if _utf8(v["name"]) and _utf8(v["argsJSON"])]
    names = pa.array([v["name"] for v in vs])
    texts = pa.array([v["argsJSON"] for v in vs])
    got = fingerprint_batch_json(names, texts, on_error="null")
    assert isinstance(got, pa.StringArray)
    assert got.to_pylist() == [_want(v) for v in vs]
    # Slices (offsets not starting at 0), chunked arrays, a kind column with nulls.
    assert fingerprint_batch_json(names.slice(7), texts.slice(7), on_error="null").to_pylist() == [
        _want(v) for v in vs[7:]]
    chunked = pa.chunked_array([texts.slice(0, 10), texts.slice(10)])
    assert fingerprint_batch_json(names, chunked, on_error="null").to_pylist() == [_want(v) for v in vs]
    kinds = pa.array([None, "k"] * 3)
    assert fingerprint_batch_json(pa.array(["t"] * 6), pa.array(["{}"] * 6), kind=kinds).to_pylist() == [
        _oracle("t", "{}", kind=k or "tool_call") for k in kinds.to_pylist()]


def test_arrow_nulls_are_bad_items_and_chunks_cross():
    pa = pytest.importorskip("pyarrow")
    got = fingerprint_batch_json(pa.array(["a", None, "b"]), pa.array(["1", "2", None]), on_error="null")
    assert got.to_pylist() == [_oracle("a", "1"), None, None]
    with pytest.raises(FingerprintError, match="item 1: name must be a string, got NoneType"):
        fingerprint_batch_json(pa.array(["a", None, "b"]), pa.array(["1", "2", "3"]))
    n = 9_000
    texts = [json.dumps({"i": i}) for i in range(n)]
    got = fingerprint_batch_json(pa.array(["t"] * n), pa.large_string() and pa.array(texts, type=pa.large_string()))
    assert got.to_pylist()[::1000] == [_oracle("t", texts[i]) for i in range(0, n, 1000)]


def test_calls_the_core_cannot_read_as_marshal_take_the_text_path():
    from overturn.fingerprint import fingerprint

    # marshal takes all of these; the core's marshal reader refuses the big int,
    # the lone surrogate and the set, so those calls are answered by the JSON-text path.
    args = [{"n": 2 ** 70}, {"s": "a\ud800"}, {"a": [1], "b": " x "}, {"x": {1, 2}}, {"m": [1.5, None]}]
    calls = [{"name": "t", "args": a} for a in args]
    got = fingerprint_batch(calls, on_error="null")
    assert got[:3] + got[4:] == [fingerprint("t", a) for a in args[:3] + args[4:]]
    assert got[3] is None
    with pytest.raises(FingerprintError) as e:
        fingerprint_batch(calls)
    assert (e.value.index, e.value.code) == (3, "unsupported-value")


def test_four_lanes_every_preimage_length_long_items_and_failures_between():
    # The diagnostics module hashes short items four at a time (assembly/ops/batch.ts): lanes of different
    # block counts, an item over a lane's 4 KiB hashed alone, failures returning mid-queue.
    texts = [json.dumps("x" * n) for n in range(301)]
    texts[7:7] = ["{", json.dumps("é" * 3000, ensure_ascii=False), "[1,]"]
    texts[150:150] = [json.dumps({"a": "y" * 5000}), "nope"]
    names = ["t%d" % (i % 7) for i in range(len(texts))]
    want = []
    for n, t in zip(names, texts):
        try:
            want.append(_oracle(n, t))
        except Exception:
            want.append(None)
    assert want.count(None) == 3
    assert fingerprint_batch_json(names, texts, on_error="null") == want
    assert fingerprint_batch([{"name": n, "argsJSON": t} for n, t in zip(names, texts)], on_error="null") == want
    # Long items on average: the core leaves OpenSSL the preimages (abi.ts BATCH_HOST_HASH_FROM).
    long = [json.dumps({"k": "z" * (2000 + i)}) for i in range(9)] + ["{"]
    assert fingerprint_batch_json(["t"] * 10, long, on_error="null") == [_oracle("t", t) for t in long[:9]] + [None]


def test_non_ascii_and_lone_surrogates_in_a_column_of_str():
    texts = ['"\\u00e9"', '"é"', '"\ud800"', '"ok"', '"\U0001f600"']
    names = ["n\u00e9", "n", "n", "n\ud83d\ude00", "n"]  # a pair as two code points: "n\U0001f600"
    # The oracle reads the pair as the one character it stands for (as JavaScript has the string).
    joined = [n.encode("utf-16-le", "surrogatepass").decode("utf-16-le") for n in names]
    want = [_oracle(n, t) for n, t in zip(joined, texts)]
    assert fingerprint_batch_json(names, texts) == want
    assert want == [fingerprint_json(n, t) for n, t in zip(names, texts)]  # and as single calls do
    assert fingerprint_batch_json(names, texts, kind="k\ud83d\ude00") == [
        _oracle(n, t, kind="k\U0001f600") for n, t in zip(joined, texts)]
    with pytest.raises(FingerprintError, match="item 1: invalid name"):
        fingerprint_batch_json(["n", "n\udc00"], ["1", "1"])


def test_a_str_subclass_that_lies_about_its_length_changes_nothing():
    class Liar(str):
        def __len__(self):
            return 1

    texts = [Liar('{"a":1}'), '{"b":2}', Liar('[1,2,3]')]
    assert fingerprint_batch_json([Liar("t"), "u", "v"], texts) == [
        _oracle("t", '{"a":1}'), _oracle("u", '{"b":2}'), _oracle("v", "[1,2,3]")]


def test_a_batch_keeps_its_limits_when_its_iterable_runs_a_batch_between_chunks():
    deep = "[[[[1]]]]"

    def calls():
        for i in range(5000):
            if i == 4096:
                assert len(fingerprint_batch([{"name": "inner", "argsJSON": deep}])) == 1
            yield {"name": "t", "argsJSON": deep if i == 4500 else "1"}

    got = fingerprint_batch(calls(), on_error="null", limits={"max_depth": 3})
    assert got[4500] is None and got.count(None) == 1

    def texts():
        for i in range(5000):
            if i == 4096:
                fingerprint_batch_json(["inner"], [deep])
            yield deep if i == 4500 else "1"

    with pytest.raises(FingerprintError) as e:
        fingerprint_batch_json(["t"] * 5000, texts(), limits={"max_depth": 3})
    assert e.value.index == 4500 and e.value.code == "limit-exceeded"


def test_arrow_long_items_hashed_by_openssl_and_nulls():
    pa = pytest.importorskip("pyarrow")
    texts = [json.dumps({"k": "z" * (3000 + i)}) for i in range(5)]
    got = fingerprint_batch_json(pa.array(["t"] * 6), pa.array(texts + ["{"]), on_error="null")
    assert got.to_pylist() == [_oracle("t", t) for t in texts] + [None]


def test_a_nul_inside_an_item_never_splits_it():
    # str items go to the core NUL-separated; an item holding a NUL must not become two items.
    texts = ["1", '"a\x00b"', "2", '{"k":"\x00"}', "3"]
    want = [_oracle("t", "1"), None, _oracle("t", "2"), None, _oracle("t", "3")]
    assert fingerprint_batch_json(["t"] * 5, texts, on_error="null") == want
    names = ["a", "b\x00c", "d"]
    got = fingerprint_batch_json(names, ["1", "1", "1"], on_error="null")
    assert got[0] == _oracle("a", "1") and got[2] == _oracle("d", "1")
    assert got[1] == _oracle("b\x00c", "1")


def test_every_item_failing_in_a_long_batch():
    # Each failure resumes the core's chunk after it (separated columns, digest lines): all None, in order.
    got = fingerprint_batch_json(["t"] * 5000, ["{"] * 4999 + ["1"], on_error="null")
    assert got == [None] * 4999 + [_oracle("t", "1")]


def test_a_separated_column_with_a_wrong_count_of_items_runs_nothing():
    # The transport's own contract (assembly/abi.ts BATCH_SEPARATED): a chunk whose NUL-separated column
    # does not hold exactly count - 1 NULs (an item holding one, or a host's mistake) runs no item and
    # returns BATCH_NUL_IN_ITEM: a shifted item would be a wrong fingerprint. Never a read past the column.
    from overturn.fingerprint import _batch, _limits
    from overturn.fingerprint._abi import BATCH_NUL_IN_ITEM, F_DIGEST, F_RAW_NAMES, F_STRING_INPUT

    with _batch.Target(_limits.active) as t:
        for data, count in (("1\x002", 5), ("1\x002\x003", 2), ("", 2)):
            cols = [("shared", b"tool_call"), ("shared", b"t"), _batch.SHARED_EMPTY, _batch.SHARED_EMPTY,
                    ("pieces", [data], 1, 1 << 20)]
            seen = []
            real_run = t.run
            t.run = lambda frm, out: seen.append(real_run(frm, out)) or seen[-1]  # type: ignore[method-assign]
            with pytest.raises(_batch.NotSeparated):  # nothing ran: the caller sends the items with offsets
                _batch.run_chunk(t, F_DIGEST | F_RAW_NAMES | F_STRING_INPUT, count, cols, 0)
            t.run = real_run  # type: ignore[method-assign]
            assert seen == [BATCH_NUL_IN_ITEM]
    assert fingerprint_batch_json(["t"], ["3"]) == [_oracle("t", "3")]  # the instance still works


def test_items_holding_a_nul_are_sent_again_with_offsets():
    # Lists of ASCII str go NUL-separated; an item holding a NUL makes the core refuse the chunk and the
    # host sends it with offsets: every item keeps its own fingerprint (or its own error).
    texts = ['{"a":1}', '"x\\u0000y"', '["\x00"]', "[2]"]  # an escaped NUL (valid), a raw one (invalid JSON)
    want = [_oracle("t", texts[0]), _oracle("t", texts[1]), None, _oracle("t", texts[3])]
    assert fingerprint_batch_json(["t", "t", "t", "t"], texts, on_error="null") == want
    assert fingerprint_batch_json(["t", "t\x00", "t", "t"], texts[:2] + ["1", "2"]) == [
        _oracle("t", texts[0]), _oracle("t\x00", texts[1]), _oracle("t", "1"), _oracle("t", "2")]


def test_preimages_past_their_room_in_a_batch_of_calls():
    # 1e20 writes 21 digits: a chunk of long calls (hashed by OpenSSL over preimages) runs out of room for
    # them; failed items in between. Texts alike: vectors/batch.vectors.json.
    wide = "[" + ",".join(["1e20"] * 20000) + "]"
    texts = ["[1]", wide, "[2]", wide, "{", wide, "[3]"]
    want = [_oracle("t", x) if x != "{" else None for x in texts]
    assert fingerprint_batch([{"name": "t", "argsJSON": x} for x in texts], on_error="null") == want


def test_long_chunks_of_str_are_joined_a_piece_at_a_time():
    # A chunk of str over 2 * PIECE_BYTES is joined and encoded as it is written, a piece at a time
    # (no temporary large enough for glibc to map anew per chunk): items at every piece boundary, empty
    # and failing ones among them, keep their places; a late non-ASCII item, a late bytes item, a str
    # subclass whose __len__ lies either way and a NUL inside an item each take another column, not a
    # shifted one.
    from overturn.fingerprint import _batch

    n = 6 * _batch.PIECE_BYTES // 100
    base = [json.dumps({"i": i, "pad": "p" * (i % 150)}) for i in range(n)]
    base[0], base[1], base[n // 3], base[n // 3 + 1], base[-1] = "", "{", "", "[", ""
    cache = {}

    def want(texts, names):
        out = []
        for name, t in zip(names, texts):
            t = str.__str__(t) if isinstance(t, str) else t.decode("utf-8")
            key = (name, t)
            if key not in cache:
                try:
                    cache[key] = _oracle(name, t)
                except Exception:
                    cache[key] = None
            out.append(cache[key])
        return out

    names = ["t%d" % (i % 7) for i in range(n)]
    assert sum(map(len, base)) > 2 * _batch.PIECE_BYTES
    assert fingerprint_batch_json(names, base, on_error="null") == want(base, names)
    for at, item in ((n - 5, '{"é":1}'), (n - 5, b'{"b":1}'), (n // 2, Short('{"s":1}')), (n // 2, Long('{"l":1}')),
                     (n - 2, '{"k":"\x00"}'), (n - 2, '"a\\u0000b"')):
        texts = list(base)
        texts[at] = item
        assert fingerprint_batch_json(names, texts, on_error="null") == want(texts, names), item
    assert fingerprint_batch_json(names[:3], base[2:5]) == want(base[2:5], names[:3])  # the instance still works


def test_pieces_are_written_within_their_bound_or_refused():
    from overturn.fingerprint import _batch

    items = ["ab", "", "cde", "f", "", ""]
    joined = "\0".join(items).encode()
    for k in (1, 2, 3, 6):
        buf = bytearray(b"\xee" * 40)
        assert _batch._put_pieces(memoryview(buf), 5, 5 + len(joined), items, k) == 5 + len(joined)
        assert bytes(buf[5:5 + len(joined)]) == joined
        assert buf[:5] == b"\xee" * 5 and buf[5 + len(joined):] == b"\xee" * (35 - len(joined))
        for end, its, code in ((5 + len(joined) - 1, items, -2), (5, ["", ""], -2), (40, ["a", "é"], -1),
                               (40, ["a", b"b"], -1), (40, ["a", None], -1)):
            buf = bytearray(b"\xee" * 40)
            assert _batch._put_pieces(memoryview(buf), 5, end, its, k) == code
            assert buf[end:] == b"\xee" * (40 - end)  # never past the bound


def test_a_plain_long_chunk_of_str_runs_once_without_offsets(monkeypatch):
    # The pieces path is the fast one only if it holds: one run per chunk, no fallback to offsets
    # (which would give the same digests, slower: the core refuses a column whose NULs do not count).
    from overturn.fingerprint import _batch

    made = []
    real = _batch.text_column
    monkeypatch.setattr(_batch, "text_column", lambda texts: made.append(len(texts)) or real(texts))
    texts = [json.dumps({"i": i, "pad": "p" * (i % 150)}) for i in range(3000)]
    assert sum(map(len, texts)) > 2 * _batch.PIECE_BYTES
    got = fingerprint_batch_json(["t"] * 3000, texts)
    assert made == [] and got[::500] == [_oracle("t", t) for t in texts[::500]]


def test_a_chunk_of_plain_dicts_marshals_in_one_loop_and_falls_back_item_by_item():
    # A chunk of exact dicts is marshalled in one C loop; one value marshal refuses (a datetime, a dict
    # subclass) sends the whole chunk item by item: each keeps its own answer, in its place.
    import datetime

    class D(dict):
        pass

    calls = [{"name": "t%d" % (i % 3), "args": {"i": i, "s": " v%d " % i}} for i in range(5000)]
    want = [_oracle(c["name"], json.dumps(c["args"])) for c in calls]
    assert fingerprint_batch(calls) == want
    for odd in ({"when": datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.timezone.utc)}, D(k=1), {"k": D(j=2)}):
        mixed = list(calls)
        mixed[4100] = {"name": "t", "args": odd}
        got = fingerprint_batch(mixed)
        assert got[4100] == _REF.fingerprint("t", odd) and got[:4100] + got[4101:] == want[:4100] + want[4101:]


def test_pieces_keep_the_byte_limit_and_do_not_trust_the_first_item():
    # The pieces path sums no lengths first: its bytes are capped as they are written. An item over
    # max_input_bytes fails alone, in its place; a chunk whose first item is short and the others long
    # (or the reverse: its guess of the mean decides who hashes) gives every item its own answer.
    texts = [json.dumps({"i": i, "p": "x" * (i % 40)}) for i in range(3000)]
    texts[1234] = json.dumps({"big": "y" * 200})
    got = fingerprint_batch_json(["t"] * 3000, texts, limits={"max_input_bytes": 100}, on_error="null")
    assert got[1234] is None and got.count(None) == 1
    assert [got[i] for i in (0, 1233, 1235, 2999)] == [_oracle("t", texts[i]) for i in (0, 1233, 1235, 2999)]
    with pytest.raises(FingerprintError) as e:
        fingerprint_batch_json(["t"] * 3000, texts, limits={"max_input_bytes": 100})
    assert (e.value.index, e.value.code) == (1234, "limit-exceeded")
    for texts in (["1"] + [json.dumps({"k": "z" * (2000 + i)}) for i in range(300)],
                  [json.dumps({"k": "z" * 5000})] + [json.dumps({"i": i}) for i in range(3000)]):
        got = fingerprint_batch_json(["t"] * len(texts), texts)
        assert [got[i] for i in (0, 1, len(texts) // 2, len(texts) - 1)] == [
            _oracle("t", texts[i]) for i in (0, 1, len(texts) // 2, len(texts) - 1)]


def test_dataframe_columns_as_iterables_and_as_arrow_arrays():
    # As docs/api-python.md says: a pandas column is an iterable (a list back); as an Arrow array it takes
    # the Arrow path (an Arrow array back); the same digests either way.
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    df = pd.DataFrame({"name": ["a", "b", "a"], "args": ['{"x":1}', '{"y":" z "}', "[1.50]"]})
    want = [_oracle(n, t) for n, t in zip(df["name"], df["args"])]
    assert fingerprint_batch_json(df["name"], df["args"]) == want
    assert fingerprint_batch_json(pa.array(df["name"]), pa.array(df["args"])).to_pylist() == want


def test_random_chunks_of_mixed_items_give_each_item_the_oracle_s_answer():
    # Seeded mixes around the piece and chunk boundaries (ASCII and not, empty, invalid, NULs raw and
    # escaped, long items, str subclasses whose __len__ lies, bytes, with and without a byte limit):
    # each item gets the oracle's answer, or None where the oracle refuses it or it is over the limit.
    import random

    from overturn.fingerprint import _batch

    def item(r, ascii_str_only):
        k = r.randrange(12)
        if ascii_str_only and k in (2, 7):  # chunks that stay on the pieces path to their end
            k = 9
        if k == 0:
            return ""
        if k == 1:
            return "{"
        if k == 2:
            return json.dumps({"é": r.random(), "k": " %d " % r.randrange(99)}, ensure_ascii=False)
        if k == 3:
            return '"a\\u0000%d"' % r.randrange(9)
        if k == 4 and r.random() < 0.2 and not ascii_str_only:  # a raw NUL sends the chunk with offsets
            return '["\x00"]'
        if k == 5:
            return json.dumps({"long": "x" * r.randrange(500, 3000)})
        if k == 6:
            return (Short if r.random() < 0.5 else Long)(json.dumps({"s": r.randrange(99)}))
        if k == 7 and r.random() < 0.3:
            return json.dumps({"b": r.randrange(99)}).encode()
        return json.dumps({"i": r.randrange(10 ** 6), "p": "p" * r.randrange(60), "f": r.random()})

    for seed in range(8):
        r = random.Random(seed)
        n = r.choice([1, 7, _batch.PIECE_BYTES // 100, 4096, 4097, 9000])
        texts = [item(r, seed % 2 == 1) for _ in range(n)]
        names = [r.choice(["t", "search", "n\u00e9", "x" * 40]) for _ in range(n)]
        most = 400 if seed % 3 == 2 else None

        def alone(name, text):
            # The oracle's answer (a str's own data, whatever its __len__ says), None past the byte limit.
            data = text if isinstance(text, bytes) else str.__str__(text).encode("utf-8", "surrogatepass")
            if most is not None and len(data) > most:
                return None
            try:
                return _oracle(name, data)
            except Exception:
                return None

        want = [alone(a, b) for a, b in zip(names, texts)]
        limits = {"max_input_bytes": most} if most else None
        assert fingerprint_batch_json(names, texts, on_error="null", limits=limits) == want, seed


def test_pieces_stay_small_when_the_first_item_is_no_guide():
    # No temporary much over PIECE_BYTES where items are alike (each is a buffer glibc would map and fault
    # in anew per chunk): the first piece takes at most 64 items, later ones are sized by the bytes an item
    # of the last one.
    from overturn.fingerprint import _batch

    class Seen(list):
        def __getitem__(self, i):
            got = list.__getitem__(self, i)
            if isinstance(i, slice):
                pieces.append(sum(map(len, got)) + len(got))
            return got

    for items in (["1"] + ["x" * 2000] * 1000, ["x" * 5000] + ["1"] * 4000, ["ab"] * 4096):
        pieces = []
        col = _batch.str_column(Seen(items), 1 << 24)
        buf = bytearray(sum(map(len, items)) + len(items))
        assert _batch._put_pieces(memoryview(buf), 0, len(buf), col[1], col[2]) == len(buf) - 1
        assert bytes(buf[:-1]) == "\0".join(items).encode()
        assert pieces[0] <= 64 * 5001 and max(pieces[1:] or [0]) <= 2 * _batch.PIECE_BYTES


def test_an_offsets_column_is_copied_in_pieces_cut_by_its_offsets():
    # Byte strings (marshalled calls, encoded texts) go in as pieces of at most PIECE_BYTES (one item
    # alone may be more), cut where the offsets cross it: the same bytes and offsets as one join.
    from itertools import accumulate

    from overturn.fingerprint import _batch

    class Seen(list):
        def __getitem__(self, i):
            got = list.__getitem__(self, i)
            if isinstance(i, slice):
                pieces.append((sum(map(len, got)), len(got)))
            return got

    for texts in ([b"1"] + [b"x" * 2000] * 1000, [b"x" * 70000] + [b"1"] * 4000, [b""] * 10, [b"ab"] * 4096, []):
        pieces = []
        col = _batch.text_column(Seen(texts))
        buf = bytearray(len(col[2]) + 8)
        assert _batch._put(memoryview(buf), 3, col[2]) == 3 + len(col[2]) and bytes(buf[3:-5]) == b"".join(texts)
        assert bytes(col[1]) == b"".join(n.to_bytes(4, "little") for n in [0, *accumulate(map(len, texts))])
        assert all(size <= _batch.PIECE_BYTES or count == 1 for size, count in pieces)
        assert sum(count for _, count in pieces) == len(texts)


def test_on_error_null_gives_none_for_a_name_or_text_of_the_wrong_type():
    # The same cases as the TypeScript SDK's test (test/batch.test.ts): None there is null.
    names = ["a", 5, "c", None, "e", "f"]
    texts = ["{}", "{}", 7, "{}", b"[]", None]
    assert fingerprint_batch_json(names, texts, on_error="null") == [
        _oracle("a", "{}"), None, None, None, _oracle("e", "[]"), None]
    with pytest.raises(FingerprintError, match=r"^item 1: name must be a str"):
        fingerprint_batch_json(names, texts)
    assert fingerprint_batch([{"name": 5, "args": {}}, 5, None, {"name": "a", "args": {}}], on_error="null") == [
        None, None, None, _oracle("a", "{}")]


def _first_error(fn):
    with pytest.raises(FingerprintError) as e:
        fn()
    return e.value.index, str(e.value)


def test_the_first_bad_item_in_order_whether_the_core_or_the_host_finds_it():
    # Before: the host raised for the wrongly typed item 1 before the core had read item 0.
    eof = "item 0: invalid JSON: the text ends inside a value at byte %d"
    assert _first_error(lambda: fingerprint_batch_json(["a", "b"], ["{", 5])) == (0, eof % 1)
    assert _first_error(lambda: fingerprint_batch_json(["a", 7], ["[", "1"])) == (0, eof % 1)
    assert _first_error(lambda: fingerprint_batch(['{"name":"x"', {"name": "t", "args": {"d": object()}}])) == (0, eof % 11)
    # The core words a wrongly typed item with the host's word for its type; the text's error before the name's.
    assert _first_error(lambda: fingerprint_batch_json(["a", 7], ["1", None])) == (
        1, "item 1: JSON text must be a string or bytes, got NoneType")
    assert _first_error(lambda: fingerprint_batch_json(["a", []], ["1", "1"])) == (1, "item 1: name must be a string, got list")


def test_a_call_answered_alone_that_fails_leaves_the_next_items_in_place():
    from collections import OrderedDict

    # Before: its text was added twice with on_error="null", and every later item of the chunk got the one before's.
    calls = [OrderedDict(name="a", argsJSON=b"{"), {"name": "b", "args": {}}, '{"name":"c","args":{"k":1}}']
    assert fingerprint_batch(calls, on_error="null") == [None, _oracle("b", "{}"), _oracle("c", '{"k":1}')]


def test_a_wrongly_typed_item_of_a_long_class_name_is_worded_within_the_core_s_room():
    long_name = type("T" + "\u00e9" * 400, (), {})()
    short = type("Short", (), {})()
    assert _first_error(lambda: fingerprint_batch_json(["a"], [short])) == (0, "item 0: JSON text must be a string or bytes, got Short")
    index, msg = _first_error(lambda: fingerprint_batch_json(["a", "b"], ["1", long_name]))
    assert (index, msg) == (1, "item 1: JSON text must be a string or bytes, got ")
    assert fingerprint_batch_json([long_name, "b"], [long_name, "2"], on_error="null") == [None, _oracle("b", "2")]


def test_a_call_the_core_sends_back_to_the_text_path_is_still_first_before_a_later_host_failure():
    # Item 0's marshal stream goes to the text path after the core's run (where its empty name fails);
    # item 1 fails on the host. Before: item 1 raised, as the host's failure skipped the pending retry.
    calls = [{"name": "", "args": {"k": 2 ** 70}}, {"name": "t", "args": {"d": object()}}]
    index, msg = _first_error(lambda: fingerprint_batch(calls))
    assert index == 0 and msg.startswith("item 0: "), msg
    assert fingerprint_batch(calls + [{"name": "t", "args": {}}], on_error="null") == [None, None, _oracle("t", "{}")]
