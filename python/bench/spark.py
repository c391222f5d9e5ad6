"""Benchmark of the Spark example (issue 13; not a test): rows per second per executor core.

Spark in local mode with one executor core (``local[1]``) fingerprints a cached
DataFrame of generated calls through ``examples/spark_fingerprint.py`` (a
``noop`` sink, so only the job is timed); the same rows go through
``fingerprint_batch_json`` in this one process, as pyarrow arrays. Target: the
Spark job within 2× of the batch API. A pass-through ``mapInArrow`` job shows
what Spark itself costs. Medians of a few runs after a warm-up.

Needs the venv of scripts/test-spark.sh (pyspark, pyarrow):

    PYSPARK_PYTHON=.venv-spark/bin/python .venv-spark/bin/python python/bench/spark.py [--rows N]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _example():
    spec = importlib.util.spec_from_file_location("spark_fingerprint", os.path.join(HERE, "..", "examples",
                                                                                    "spark_fingerprint.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--runs", type=int, default=3)
    opt = ap.parse_args()
    import pyarrow as pa

    from overturn.fingerprint import fingerprint_batch_json

    ex = _example()
    rows = list(ex.demo_calls(opt.rows))
    names, texts = pa.array([r[0] for r in rows]), pa.array([r[1] for r in rows])
    kinds = pa.array([r[2] for r in rows])

    def batch_api() -> float:
        t0 = time.perf_counter()
        fingerprint_batch_json(names, texts, kind=kinds, ignore_args=["requestId"])
        return time.perf_counter() - t0

    spark = ex.spark_session("local[1]", "overturn-fingerprint-bench")
    df = spark.createDataFrame(rows, "name string, argsJSON string, kind string").cache()
    df.count()

    def job(frame) -> float:
        t0 = time.perf_counter()
        frame.write.format("noop").mode("overwrite").save()
        return time.perf_counter() - t0

    passthrough = df.mapInArrow(lambda batches: batches, df.schema)
    fingerprinted = ex.add_fingerprints(df, kind="kind", ignore_args=["requestId"])
    job(fingerprinted), job(passthrough), batch_api()  # warm-up: workers started, module compiled and cached
    t_spark, t_pass, t_batch = [], [], []
    for _ in range(opt.runs):
        t_spark.append(job(fingerprinted))
        t_pass.append(job(passthrough))
        t_batch.append(batch_api())
    spark.stop()
    n = opt.rows
    s, p, b = statistics.median(t_spark), statistics.median(t_pass), statistics.median(t_batch)
    print("Spark %s local[1], %d rows (~%d B of args each), medians of %d runs" % (
        spark.version, n, sum(len(r[1]) for r in rows[:1000]) // 1000, opt.runs))
    print("| job | time | rows/s per core |\n|---|---:|---:|")
    print("| Spark: add_fingerprints (mapInArrow + fingerprint_batch_json) | %.2f s | %s |" % (s, f"{n / s:,.0f}"))
    print("| Spark: pass-through mapInArrow (Spark's own cost) | %.2f s | %s |" % (p, f"{n / p:,.0f}"))
    print("| fingerprint_batch_json, one process, Arrow arrays | %.2f s | %s |" % (b, f"{n / b:,.0f}"))
    ratio = s / b
    print("target: Spark per core within 2× of the batch API: %.2f× %s" % (ratio, "PASS" if ratio <= 2 else "MISS"))


if __name__ == "__main__":
    main()
