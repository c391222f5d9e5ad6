"""Adds a fingerprint column to a Spark DataFrame of tool calls.

A DataFrame of calls — a name column, an args JSON text column, optionally a
kind column — gets a ``fingerprint`` column through an Arrow-batched UDF
(``arrow_udf`` on Spark ≥ 4.1, ``mapInArrow`` before): Spark hands each
Python worker Arrow arrays, and every batch goes through
``fingerprint_batch_json`` in one crossing into the core per few thousand
rows (its offsets and bytes copied straight into wasm memory, no Python
object per row). The compiled core is loaded once per executor Python
process: the SDK keeps it in the process (Spark reuses its Python workers,
``spark.python.worker.reuse``, the default) and on disk across processes
(the SDK's module cache). A bad row gets a null fingerprint (``on_error="null"``),
or fails the job naming the row's index in its batch (``on_error="raise"``).

Needs ``pip install "overturn-fingerprint[arrow]" pyspark`` (Java 17+).

    python spark_fingerprint.py IN.parquet OUT.parquet [--ignore-args a,b] [--match-on a,b]
    python spark_fingerprint.py --demo 100000        # generated calls, local[*]
"""
import argparse
import json
from typing import Any, Iterator, Optional, Sequence


def add_fingerprints(df: Any, name: str = "name", args_json: str = "argsJSON", kind: Optional[str] = None,
                     match_on: Optional[Sequence[str]] = None, ignore_args: Optional[Sequence[str]] = None,
                     out: str = "fingerprint", on_error: str = "null", via: str = "auto") -> Any:
    """``df`` with a string column ``out``: the fingerprint of each row's call.

    ``name`` and ``args_json`` name string columns (``kind``, if given, too:
    a null kind is the default ``"tool_call"``); ``match_on``/``ignore_args``
    apply to every row. ``via``: ``"arrow_udf"`` (Spark ≥ 4.1: only the
    call's columns cross into Python and only the fingerprints come back),
    ``"mapInArrow"`` (any Spark ≥ 3.3: whole rows go through Python), or
    ``"auto"``, the first one available.
    """
    keep_match = list(match_on) if match_on is not None else None
    keep_ignore = list(ignore_args) if ignore_args is not None else None

    def fingerprints(names: Any, texts: Any, kinds: Any) -> Any:
        from overturn.fingerprint import fingerprint_batch_json

        return fingerprint_batch_json(names, texts, kind=kinds if kinds is not None else "tool_call",
                                      match_on=keep_match, ignore_args=keep_ignore, on_error=on_error)

    if via != "mapInArrow":
        try:
            import pyarrow as pa
            from pyspark.sql.functions import arrow_udf, col, lit
        except ImportError:
            if via == "arrow_udf":
                raise
        else:
            # Type hints say "Arrow arrays in, an Arrow array out" (a scalar Arrow UDF);
            # evaluated here, so this module keeps no `from __future__ import annotations`.
            @arrow_udf("string")  # type: ignore[misc]
            def fingerprint_udf(names: pa.Array, texts: pa.Array, kinds: pa.Array) -> pa.Array:
                return fingerprints(names, texts, kinds)

            kinds = col(kind) if kind else lit(None).cast("string")
            return df.withColumn(out, fingerprint_udf(col(name), col(args_json), kinds))

    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType(list(df.schema.fields) + [StructField(out, StringType(), True)])

    def fingerprint_batches(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in batches:
            fps = fingerprints(batch.column(name), batch.column(args_json), batch.column(kind) if kind else None)
            yield pa.RecordBatch.from_arrays(list(batch.columns) + [fps],
                                             schema=batch.schema.append(pa.field(out, pa.string())))

    return df.mapInArrow(fingerprint_batches, schema)


def generated_calls(spark: Any, n: int) -> Any:
    """A DataFrame of n generated calls (~200 B of args each), made on the executors (no driver data)."""
    return spark.range(n).selectExpr(
        "element_at(array('create_ticket', 'search', 'get_user', 'send_email', 'update_record'),"
        " cast(id % 5 + 1 as int)) as name",
        "to_json(named_struct('title', concat(' Issue ', id, ' '), 'priority', id % 5,"
        " 'tags', array(concat('t', id % 7), 'ops'),"
        " 'requester', named_struct('id', format_string('u%06d', id * 7919 % 1000003), 'team', 'core'),"
        " 'requestId', format_string('r-%08x', id), 'amount', (id % 1000) / 8)) as argsJSON",
        "case when id % 3 = 0 then 'tool_call' end as kind")


def demo_calls(n: int) -> Iterator[tuple]:
    """n deterministic tool calls (~200 B of args each), as (name, argsJSON, kind) rows."""
    tools = ["create_ticket", "search", "get_user", "send_email", "update_record"]
    for i in range(n):
        args = {"title": " Issue %d " % i, "priority": i % 5, "tags": ["t%d" % (i % 7), "ops"],
                "requester": {"id": "u%06d" % (i * 7919 % 1000003), "team": "core"}, "requestId": "r-%08x" % i,
                "amount": (i % 1000) / 8}
        yield tools[i % len(tools)], json.dumps(args), None if i % 3 else "tool_call"


def spark_session(master: str = "local[*]", app: str = "overturn-fingerprint") -> Any:
    from pyspark.sql import SparkSession

    return (SparkSession.builder.master(master).appName(app)
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "50000")
            .config("spark.ui.enabled", "false")
            .getOrCreate())


def main(argv: Optional[Sequence[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("input", nargs="?")
    p.add_argument("output", nargs="?")
    p.add_argument("--demo", type=int, metavar="ROWS", help="fingerprint ROWS generated calls and print a few")
    p.add_argument("--master", default="local[*]")
    p.add_argument("--match-on")
    p.add_argument("--ignore-args")
    a = p.parse_args(argv)
    spark = spark_session(a.master)
    lists = {"match_on": a.match_on.split(",") if a.match_on else None,
             "ignore_args": a.ignore_args.split(",") if a.ignore_args else None}
    if a.demo:
        df = generated_calls(spark, a.demo)
        add_fingerprints(df, kind="kind", **lists).show(5, truncate=False)
    else:
        if not a.input or not a.output:
            p.error("give INPUT and OUTPUT parquet paths, or --demo ROWS")
        add_fingerprints(spark.read.parquet(a.input), **lists).write.parquet(a.output)
    spark.stop()


if __name__ == "__main__":
    main()
