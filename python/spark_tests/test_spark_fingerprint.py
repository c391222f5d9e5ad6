"""The Spark example (python/examples/spark_fingerprint.py) on Spark local mode.

Slow (~1 min: Spark start-up), so outside the default suites: run by
``scripts/test-spark.sh`` (its own venv, pinned pyspark) and by ``.ci/run``.
Every one of 100,000 rows is checked against the single-process SDK
(``fingerprint_json`` per row); bad rows must come back null, never skipped.
"""
from __future__ import annotations

import importlib.util
import json
import os

import pytest

from overturn.fingerprint import FingerprintError, fingerprint_json

ROWS = 100_000
HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "examples", "spark_fingerprint.py")


def _example():
    spec = importlib.util.spec_from_file_location("spark_fingerprint", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def spark():
    s = _example().spark_session("local[2]", "overturn-fingerprint-test")
    yield s
    s.stop()


@pytest.mark.parametrize("via", ["arrow_udf", "mapInArrow"])
def test_every_row_matches_the_single_process_sdk(spark, via):
    ex = _example()
    rows = list(ex.demo_calls(ROWS))
    # Bad rows among good ones: malformed JSON, a bad kind, an empty name.
    rows[17] = ("search", '{"q": ', None)
    rows[50_001] = ("search", '{"q": 1}', "bad\nkind")
    rows[99_998] = ("", "{}", None)
    df = spark.createDataFrame(rows, "name string, argsJSON string, kind string").repartition(4)
    out = ex.add_fingerprints(df, kind="kind", ignore_args=["requestId"], via=via).collect()
    assert len(out) == ROWS
    nulls = 0
    for r in out:
        try:
            want = fingerprint_json(r["name"], r["argsJSON"], kind=r["kind"] or "tool_call", ignore_args=["requestId"])
        except FingerprintError:
            want = None
            nulls += 1
        assert r["fingerprint"] == want, (r["name"], r["argsJSON"], r["kind"])
    assert nulls == 3
    # The rows really differ: requestId is ignored, the rest is not.
    assert len({r["fingerprint"] for r in out}) > ROWS // 2


def test_generated_calls_and_match_on_and_a_failing_job_names_the_row(spark):
    ex = _example()
    gen = ex.add_fingerprints(ex.generated_calls(spark, 2000), kind="kind").collect()
    assert [r["fingerprint"] for r in gen] == [
        fingerprint_json(r["name"], r["argsJSON"], kind=r["kind"] or "tool_call") for r in gen]
    rows = [("t", json.dumps({"a": i, "b": " x "}), None) for i in range(1000)]
    df = spark.createDataFrame(rows, "name string, argsJSON string, kind string").coalesce(1)
    got = ex.add_fingerprints(df, match_on=["b"]).collect()
    assert len(got) == 1000
    assert {r["fingerprint"] for r in got} == {fingerprint_json("t", '{"b":"x"}')}
    rows[10] = ("t", "{", None)
    bad = spark.createDataFrame(rows, "name string, argsJSON string, kind string").coalesce(1)
    with pytest.raises(Exception, match="item 10: invalid JSON"):
        ex.add_fingerprints(bad, on_error="raise").collect()
