"""Benchmark of the Spark example (not a test): rows per second per executor core.

Spark in local mode with one executor core (``local[1]``) fingerprints a cached
DataFrame of generated calls (made on the executors) through
``examples/spark_fingerprint.py``, both ways (``arrow_udf``, ``mapInArrow``),
into a ``noop`` sink, so only the job is timed; the same rows go through
``fingerprint_batch_json`` in this one process, as pyarrow arrays. Target: the
Spark job within 2× of the batch API. An ``arrow_udf`` that does nothing shows
what Spark itself costs. Medians of interleaved runs after a warm-up.

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
    from overturn.fingerprint import fingerprint_batch_json

    ex = _example()
    spark = ex.spark_session("local[1]", "overturn-fingerprint-bench")
    df = ex.generated_calls(spark, opt.rows).cache()
    n = df.count()
    table = df.toArrow()  # the very same rows, for the batch API in this process
    names, texts, kinds = table.column("name"), table.column("argsJSON"), table.column("kind")

    def batch_api() -> float:
        t0 = time.perf_counter()
        fingerprint_batch_json(names, texts, kind=kinds, ignore_args=["requestId"])
        return time.perf_counter() - t0

    def job(frame) -> float:
        t0 = time.perf_counter()
        frame.write.format("noop").mode("overwrite").save()
        return time.perf_counter() - t0

    from pyspark.sql.functions import ArrowUDFType, arrow_udf, col

    @arrow_udf("string", ArrowUDFType.SCALAR)
    def first(a, b, c):  # Spark's own cost: the same columns in and a string column out, no work
        return a

    jobs = {
        "arrow_udf": ex.add_fingerprints(df, kind="kind", ignore_args=["requestId"], via="arrow_udf"),
        "mapInArrow": ex.add_fingerprints(df, kind="kind", ignore_args=["requestId"], via="mapInArrow"),
        "empty": df.withColumn("fingerprint", first(col("name"), col("argsJSON"), col("kind"))),
    }
    for j in jobs.values():  # warm-up: workers started, module compiled and cached
        job(j)
    batch_api()
    times = {k: [] for k in list(jobs) + ["batch"]}
    for _ in range(opt.runs):
        for k, j in jobs.items():
            times[k].append(job(j))
        times["batch"].append(batch_api())
    spark.stop()
    med = {k: statistics.median(v) for k, v in times.items()}
    print("Spark %s local[1] (one executor core), %d generated calls (~%d B of args), medians of %d interleaved runs"
          % (spark.version, n, sum(len(t) for t in texts.slice(0, 1000).to_pylist()) // 1000, opt.runs))
    print("| job | time | rows/s per core |\n|---|---:|---:|")
    rows = (("Spark: add_fingerprints via arrow_udf", "arrow_udf"), ("Spark: add_fingerprints via mapInArrow", "mapInArrow"),
            ("Spark: the same arrow_udf doing nothing (Spark's own cost)", "empty"),
            ("fingerprint_batch_json, one process, the same rows as Arrow", "batch"))
    for label, k in rows:
        print("| %s | %.2f s | %s |" % (label, med[k], f"{n / med[k]:,.0f}"))
    for k in ("arrow_udf", "mapInArrow"):
        ratio = med[k] / med["batch"]
        print("target: Spark (%s) per core within 2× of the batch API: %.2f× %s" % (k, ratio, "PASS" if ratio <= 2 else "MISS"))

if __name__ == "__main__":
    main()
