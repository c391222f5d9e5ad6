"""Deep values under any recursion limit (D19): a result or a
FingerprintError, never a crash.

The C json encoder recurses on the C stack as deep as
``sys.getrecursionlimit()`` allows; with the limit raised to 100,000 a list
nested 80,000 deep used to kill the interpreter (SIGSEGV). Crash cases run in
a subprocess, so a regression fails the test instead of the test run.
Expected texts are built by string repetition, digests by hashlib.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from _support import oracle_digest
from overturn.fingerprint import FingerprintError, canonical_json, fingerprint


def nested_list(n: int):
    v: list = []
    for _ in range(n):
        v = [v]
    return v


def nested_dict(n: int):
    v: dict = {}
    for _ in range(n):
        v = {"a": v}
    return v


def run_child(body: str, timeout: float = 120) -> subprocess.CompletedProcess:
    code = textwrap.dedent("""
        import sys, threading
        from overturn.fingerprint import FingerprintError, canonical_json, fingerprint
        def nested_list(n):
            v = []
            for _ in range(n):
                v = [v]
            return v
        def nested_dict(n):
            v = {}
            for _ in range(n):
                v = {"a": v}
            return v
    """) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("depth", [1_000, 5_000])
def test_deep_values_at_the_default_limit(depth):
    assert canonical_json(nested_list(depth)) == "[" * (depth + 1) + "]" * (depth + 1)
    want = "{" + '"a":{' * depth + "}" * (depth + 1)
    assert canonical_json(nested_dict(depth)) == want
    assert fingerprint("t", nested_dict(depth)) == oracle_digest("tool_call", "t", want)


def test_raised_limit_deep_list_does_not_crash():
    # The reproduction: signal 11 before the fix.
    r = run_child("""
        sys.setrecursionlimit(100_000)
        n = 80_000
        print(canonical_json(nested_list(n)) == "[" * (n + 1) + "]" * (n + 1))
        print(canonical_json(nested_dict(n)).count("{") == n + 1)
        v = nested_list(50_000); v[0][0].append(v)
        try:
            canonical_json(v)
        except FingerprintError as e:
            print(e.code)
    """)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["True", "True", "circular-value"]


@pytest.mark.parametrize("limit", [50, 1_000, 10_000, 10_001, 1_000_000])
def test_every_limit_gives_the_same_text(limit):
    # Just under and over the fast path's bound, and limits far below the default.
    r = run_child("""
        import hashlib
        fingerprint("warm-up", 1)  # loading wasmtime itself needs more than 50 frames
        sys.setrecursionlimit(%d)
        out = []
        for n in (10, 900, 9_500, 120_000):
            out.append(hashlib.sha256(canonical_json(nested_list(n)).encode()).hexdigest())
        out.append(fingerprint("t", {"a": [1, {"b": " x "}]}))
        print(" ".join(out))
    """ % limit)
    assert r.returncode == 0, r.stderr[-2000:]
    import hashlib
    want = [hashlib.sha256(("[" * (n + 1) + "]" * (n + 1)).encode()).hexdigest() for n in (10, 900, 9_500, 120_000)]
    want.append(oracle_digest("tool_call", "t", '{"a":[1,{"b":"x"}]}'))
    assert r.stdout.split() == want


def test_raised_limit_in_threads_does_not_crash():
    r = run_child("""
        sys.setrecursionlimit(200_000)
        res = []
        def work():
            res.append(canonical_json(nested_list(100_000)).count("[") == 100_001)
        ts = [threading.Thread(target=work) for _ in range(3)]
        for t in ts: t.start()
        for t in ts: t.join()
        print(res)
    """)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[True, True, True]"


def test_deep_error_path_names_the_path():
    v = nested_list(3_000)
    inner = v
    for _ in range(2_999):
        inner = inner[0]
    inner.append({1, 2})
    with pytest.raises(FingerprintError) as e:
        canonical_json(v)
    assert e.value.path == "args" + "[0]" * 2_999 + "[1]"


def test_deep_subclass_nesting_is_linear():
    # The walk names paths only when it fails: a deep value of subclasses costs O(depth), not O(depth²).
    import collections
    import time

    class L(list):
        pass

    n = 60_000
    v: object = 1
    for i in range(n):
        v = collections.OrderedDict(a=v) if i % 2 else L([v])
    t = time.perf_counter()
    text = canonical_json(v)
    took = time.perf_counter() - t
    assert text == '{"a":[' * (n // 2) + "1" + "]}" * (n // 2)
    assert took < 10, took


def test_small_process_stack_lowers_the_fast_path_bound():
    # RLIMIT_STACK of 1 MiB holds fewer than 10,000 C encoder levels (~120 B each, measured).
    import resource

    def small_stack() -> None:
        resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))

    code = textwrap.dedent("""
        import sys
        from overturn.fingerprint import canonical_json, _encode
        sys.setrecursionlimit(10_000)
        v = []
        for _ in range(9_900):
            v = [v]
        print(_encode.FAST_MAX_RECURSION_LIMIT, canonical_json(v) == "[" * 9_901 + "]" * 9_901)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       preexec_fn=small_stack)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == [str((1 << 20) // 400), "True"]


@pytest.mark.parametrize("stack", [128 << 10, 1 << 20, 2 << 20])
def test_the_encoders_c_depth_is_measured_against_the_stack(stack: int) -> None:
    # From CPython 3.12 the C encoder recurses as deep as the interpreter's C limit (~10,000 in 3.13), whatever
    # sys.getrecursionlimit() says: under the default limit a 9,000-deep value the marshal path refuses (a date
    # at the bottom) crashed 3.13 in a 1 MiB process stack, and 3.9 in 128 KiB, where the default limit's 1,000
    # levels do not fit. Every entry that takes the JSON-text path, here too.
    import resource

    def small_stack() -> None:
        resource.setrlimit(resource.RLIMIT_STACK, (stack, resource.getrlimit(resource.RLIMIT_STACK)[1]))

    code = textwrap.dedent("""
        import datetime, os
        from overturn.fingerprint import canonical_json, fingerprint, fingerprint_batch
        v = [datetime.date(1970, 1, 2)]
        for _ in range(8_999):
            v = [v]
        print(canonical_json(v) == "[" * 9_000 + '"1970-01-02"' + "]" * 9_000)
        print(fingerprint("t", v))
        print(fingerprint_batch([{"name": "t", "args": v}])[0], flush=True)
        os._exit(0)  # before the interpreter frees the value: 3.13 itself cannot, in 128 KiB of stack
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       preexec_fn=small_stack)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    want = oracle_digest("tool_call", "t", "[" * 9_000 + '"1970-01-02"' + "]" * 9_000)
    assert r.stdout.split() == ["True", want, want]


@pytest.mark.parametrize("kib", [64, 256])
def test_a_thread_with_a_small_stack_gets_every_answer(kib: int) -> None:
    # threading.stack_size() set small: the C encoder (even at the default recursion limit, which 1,000 levels of
    # a 64 KiB thread do not hold) and marshal give way to the iterative walk, on every entry.
    code = textwrap.dedent(f"""
        import datetime, threading
        from overturn.fingerprint import canonical_json, explain, fingerprint, fingerprint_batch, fingerprint_json
        threading.stack_size({kib} * 1024)
        dated, deep = [datetime.date(1970, 1, 2)], 0
        for _ in range(5_000):
            dated, deep = [dated], [deep]
        out = []
        t = threading.Thread(target=lambda: out.extend([
            fingerprint("t", {{"a": 1}}), fingerprint("t", dated), fingerprint("t", deep),
            fingerprint_json("t", "[" * 5_000 + "]" * 5_000), fingerprint_batch([{{"name": "t", "args": deep}}])[0],
            str(len(canonical_json(deep))), explain("t", {{"a": deep}})["fingerprint"]]))
        t.start(); t.join()
        print(*out)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    deep = "[" * 5_000 + "0" + "]" * 5_000
    want = [oracle_digest("tool_call", "t", '{"a":1}'),
            oracle_digest("tool_call", "t", "[" * 5_001 + '"1970-01-02"' + "]" * 5_001),
            oracle_digest("tool_call", "t", deep),
            oracle_digest("tool_call", "t", "[" * 5_000 + "]" * 5_000),
            oracle_digest("tool_call", "t", deep),
            str(len(deep)),
            oracle_digest("tool_call", "t", '{"a":' + deep + "}")]
    assert r.stdout.split() == want
