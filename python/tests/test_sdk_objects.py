"""D16b: an object with a callable ``model_dump`` is read as
``model_dump(mode="json", by_alias=True)`` wherever a call, a message or an
args value is taken; its failures are FingerprintErrors with the path.

Stand-in classes (no SDK needed): the real SDK objects are in test_sdk_forms.py.
Expected fingerprints: hashlib over the preimage (gen_sdk_forms.oracle_fingerprint).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

from overturn.fingerprint import (FingerprintError, Recording, diff, explain, explain_call, explain_calls, fingerprint,
                                  fingerprint_batch, fingerprint_call, nearest)

from gen_sdk_forms import oracle_fingerprint

WEATHER = {"city": "Paris", "days": 3}
FP = oracle_fingerprint("get_weather", WEATHER)


class Model:
    """A pydantic-like object: model_dump gives ``dump`` and records how it was called."""

    def __init__(self, dump: Any) -> None:
        self.dump = dump
        self.calls: List[Dict[str, Any]] = []

    def model_dump(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        return self.dump


def tool_use() -> Model:
    return Model({"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": WEATHER})


def test_read_as_the_json_mode_alias_dump_once():
    m = Model(WEATHER)
    assert fingerprint("get_weather", m) == FP
    assert m.calls == [{"mode": "json", "by_alias": True}]


def test_nested_in_args():
    assert fingerprint("t", {"a": [Model(WEATHER)]}) == oracle_fingerprint("t", {"a": [WEATHER]})


def test_selection_reads_the_dump_and_agrees_with_explain():
    m = Model({"city": "Paris", "days": 3, "requestId": "r-1"})
    assert fingerprint("get_weather", m, ignore_args=["requestId"]) == FP
    assert fingerprint("get_weather", m, match_on=["city", "days"]) == FP
    assert explain("get_weather", m, ignore_args=["requestId"])["fingerprint"] == FP


def test_dump_that_raises_names_the_path():
    class Boom(Exception):
        pass

    class Bad:
        def model_dump(self, **kwargs: Any) -> Any:
            raise Boom("no")

    with pytest.raises(FingerprintError) as e:
        fingerprint("t", {"a": [Bad()]})
    assert e.value.code == "unsupported-value" and e.value.path == "args.a[0]"
    assert "model_dump" in str(e.value) and "Boom" in str(e.value)
    assert isinstance(e.value.__cause__, Boom)


def test_dump_returning_itself_or_another_model_is_bounded():
    class Selfish:
        n = 0

        def model_dump(self, **kwargs: Any) -> Any:
            Selfish.n += 1
            return self

    with pytest.raises(FingerprintError) as e:
        fingerprint("t", {"a": Selfish()})
    assert e.value.code == "unsupported-value" and e.value.path == "args.a"
    assert Selfish.n == 1
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", {"a": Model({"b": [Model(1)]})})
    assert e.value.path == "args.a.b[0]"


def test_dump_holding_non_json_names_the_path():
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", {"a": Model({"x": {1, 2}})})
    assert e.value.code == "unsupported-value" and e.value.path == "args.a.x"


def test_d16_types_come_first_and_the_hook_is_the_types():
    class DictWithDump(dict):  # type: ignore[type-arg]
        def model_dump(self, **kwargs: Any) -> Any:
            raise AssertionError("a dict is read as a dict")

    assert fingerprint("get_weather", DictWithDump(WEATHER)) == FP

    class Plain:
        pass

    p = Plain()
    p.model_dump = lambda **kw: WEATHER  # type: ignore[attr-defined]
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", p)
    assert e.value.code == "unsupported-value"


def test_every_call_path_takes_sdk_objects():
    assert fingerprint_call(tool_use()) == FP
    assert explain_call(tool_use())["fingerprint"] == FP
    assert [e["fingerprint"] for e in explain_calls(Model({"role": "assistant", "content": [tool_use().dump]}))] == [FP]
    assert fingerprint_batch([tool_use(), {"name": "get_weather", "args": WEATHER}]) == [FP, FP]
    rec = Recording.load([json.dumps({"name": "get_weather", "args": WEATHER, "result": 18})])
    a = rec.answer(tool_use())
    assert a["hit"] and a["value"]["result"] == 18
    match = nearest(tool_use(), [tool_use(), {"name": "get_weather", "args": {"city": "Rome", "days": 3}}])
    assert match is not None and match["index"] == 0 and match["diff"]["same"]
    d = diff(tool_use(), {"name": "get_weather", "args": {"city": "Rome", "days": 3}})
    assert d["changes"] == [{"path": "city", "kind": "changed", "before": '"Paris"', "after": '"Rome"'}]


def test_other_objects_stay_errors():
    for f in (fingerprint_call, explain_calls):
        with pytest.raises(FingerprintError) as e:
            f(object())
        assert e.value.code == "invalid-argument" and str(e.value).endswith("its JSON text, got object")
    with pytest.raises(FingerprintError) as e:
        fingerprint_batch([object()])
    assert e.value.code == "invalid-argument"
