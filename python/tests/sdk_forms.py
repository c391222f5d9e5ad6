"""Builds, offline, every form in which the PyPI provider SDKs hand over a tool call.

Test-only. Each SDK's own client over ``httpx.MockTransport`` (openai,
anthropic, google-genai), MCP's in-process client and server (mcp), and
LangChain's own message classes and helpers (langchain-core). Only the
provider's HTTP answer is written here; the SDK parses it into its objects,
and every form below is what the SDK then gives: the object, each of its
dumps, the message, the response, the stream's pieces and the assembled
result. Read by ``gen_sdk_forms.py`` (which records the JSON forms in
``vectors/sdk-forms.pypi.json``) and ``test_sdk_forms.py`` (which also feeds
the live objects to the API, D16b). The TypeScript twin is
``test/sdk-forms/build-npm.mjs``; the calls are the same
(``test/sdk-forms/calls.mjs``).

A form is ``(sdk, form, value, expect)``: ``expect`` is ``{"calls": [names]}``
or ``{"error": code}`` (D21–D23).
"""
from __future__ import annotations

import asyncio
import importlib.metadata
import json
from typing import Any, Callable, Dict, List, Tuple

CALLS = {
    "get_weather": {"city": "Paris", "days": 3},
    "get_time": {"tz": "Europe/Paris"},
}
W_TEXT = json.dumps(CALLS["get_weather"], separators=(",", ":"))
T_TEXT = json.dumps(CALLS["get_time"], separators=(",", ":"))
BOTH = {"calls": ["get_weather", "get_time"]}
ONE = {"calls": ["get_weather"]}
PARTIAL = {"error": "partial-call"}

#: The SDKs (distribution names) whose forms are built, in order.
PYPI_SDKS = ["openai", "anthropic", "google-genai", "langchain-core", "mcp"]

Form = Tuple[str, str, Any, Dict[str, Any]]


def version_of(dist: str) -> str:
    return importlib.metadata.version(dist)


def _transport(answer: Callable[[], Any], module: str = "httpx2") -> Any:
    """A client of ``module`` (openai and anthropic use httpx2, google-genai httpx)
    whose every request gets ``answer()``: a JSON body or SSE events."""
    import importlib

    httpx = importlib.import_module(module)

    def handler(request: Any) -> Any:
        a = answer()
        if "events" in a:
            text = "".join(("event: %s\n" % e["event"] if e.get("event") else "") + "data: %s\n\n" % json.dumps(e["data"])
                           for e in a["events"]) + ("data: [DONE]\n\n" if a.get("done") else "")
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=text.encode())
        return httpx.Response(200, json=a["body"], headers={"request-id": "req_1", "x-request-id": "req_1"})

    return httpx.Client(transport=httpx.MockTransport(handler))


def model_forms(label: str, obj: Any, expect: Dict[str, Any], extra: Tuple[str, ...] = ()) -> List[Tuple[str, Any, Dict[str, Any]]]:
    """The object and each dump a pydantic SDK object offers (``extra``: the SDK's own helpers)."""
    out = [(label, obj, expect),
           ("%s.model_dump()" % label, obj.model_dump(), expect),
           ("%s.model_dump(by_alias=True)" % label, obj.model_dump(by_alias=True), expect),
           ("%s.model_dump(mode=\"json\")" % label, obj.model_dump(mode="json"), expect),
           ("%s.model_dump_json()" % label, obj.model_dump_json(), expect)]
    for name in extra:
        out.append(("%s.%s()" % (label, name), getattr(obj, name)(), expect))
    return out


# --- openai ---------------------------------------------------------------------

def _openai_chat() -> List[Tuple[str, Any, Dict[str, Any]]]:
    import openai

    completion = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": {
            "role": "assistant", "content": None, "refusal": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": W_TEXT}},
                {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": T_TEXT}}]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30},
    }

    def chunk(delta: Dict[str, Any], finish: Any = None) -> Dict[str, Any]:
        return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4o-mini",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}

    chunks = [
        chunk({"role": "assistant", "content": None, "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": W_TEXT[:9]}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": W_TEXT[9:]}}]}),
        chunk({"tool_calls": [{"index": 1, "id": "call_2", "type": "function",
                               "function": {"name": "get_time", "arguments": T_TEXT}}]}),
        chunk({}, "tool_calls"),
    ]
    answer: List[Any] = [{"body": completion}]
    client = openai.OpenAI(api_key="sk-test", base_url="http://mock.invalid/v1", max_retries=0,
                           http_client=_transport(lambda: answer[0]))
    req: Dict[str, Any] = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Weather and time in Paris?"}]}
    res = client.chat.completions.create(**req)
    msg = res.choices[0].message
    out = model_forms("chat.completions.create() response", res, BOTH, ("to_dict", "to_json"))
    out += model_forms("choices[0].message", msg, BOTH, ("to_dict",))
    assert msg.tool_calls is not None
    out.append(("message.tool_calls (a list of objects)", msg.tool_calls, BOTH))
    out += model_forms("message.tool_calls[0]", msg.tool_calls[0], ONE, ("to_dict",))
    answer[0] = {"events": [{"data": c} for c in chunks], "done": True}
    for i, c in enumerate(client.chat.completions.create(**req, stream=True)):
        out += model_forms("stream chunk %d" % i, c, PARTIAL)
    with client.chat.completions.stream(**req) as s:
        final = s.get_final_completion()
    out += model_forms("stream(): get_final_completion()", final, BOTH)
    return [("Chat Completions: " + f, v, e) for f, v, e in out]


def _openai_responses() -> List[Tuple[str, Any, Dict[str, Any]]]:
    import openai

    def item(i: str, call_id: str, name: str, text: str, status: str = "completed") -> Dict[str, Any]:
        return {"type": "function_call", "id": i, "call_id": call_id, "name": name, "arguments": text, "status": status}

    response = {
        "id": "resp_1", "object": "response", "created_at": 1700000000, "status": "completed", "model": "gpt-4o-mini",
        "error": None, "incomplete_details": None, "instructions": None, "metadata": {}, "parallel_tool_calls": True,
        "temperature": 1, "tool_choice": "auto", "tools": [], "top_p": 1,
        "output": [item("fc_1", "call_1", "get_weather", W_TEXT), item("fc_2", "call_2", "get_time", T_TEXT)],
        "usage": {"input_tokens": 10, "output_tokens": 20, "total_tokens": 30,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }
    events = [
        {"type": "response.created", "sequence_number": 0, "response": dict(response, status="in_progress", output=[], usage=None)},
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
         "item": item("fc_1", "call_1", "get_weather", "", "in_progress")},
        {"type": "response.function_call_arguments.delta", "sequence_number": 2, "output_index": 0, "item_id": "fc_1",
         "delta": W_TEXT[:9]},
        {"type": "response.function_call_arguments.delta", "sequence_number": 3, "output_index": 0, "item_id": "fc_1",
         "delta": W_TEXT[9:]},
        {"type": "response.function_call_arguments.done", "sequence_number": 4, "output_index": 0, "item_id": "fc_1",
         "name": "get_weather", "arguments": W_TEXT},
        {"type": "response.output_item.done", "sequence_number": 5, "output_index": 0,
         "item": item("fc_1", "call_1", "get_weather", W_TEXT)},
        {"type": "response.output_item.added", "sequence_number": 6, "output_index": 1,
         "item": item("fc_2", "call_2", "get_time", "", "in_progress")},
        {"type": "response.function_call_arguments.done", "sequence_number": 7, "output_index": 1, "item_id": "fc_2",
         "name": "get_time", "arguments": T_TEXT},
        {"type": "response.output_item.done", "sequence_number": 8, "output_index": 1,
         "item": item("fc_2", "call_2", "get_time", T_TEXT)},
        {"type": "response.completed", "sequence_number": 9, "response": response},
    ]
    answer: List[Any] = [{"body": response}]
    client = openai.OpenAI(api_key="sk-test", base_url="http://mock.invalid/v1", max_retries=0,
                           http_client=_transport(lambda: answer[0]))
    req: Dict[str, Any] = {"model": "gpt-4o-mini", "input": "Weather and time in Paris?"}
    res = client.responses.create(**req)
    out = model_forms("responses.create() response", res, BOTH, ("to_dict",))
    out.append(("response.output (a list of objects)", res.output, BOTH))
    out += model_forms("response.output[0]", res.output[0], ONE)
    answer[0] = {"events": [{"event": e["type"], "data": e} for e in events]}
    for e in client.responses.create(**req, stream=True):
        out += model_forms("stream event %d %s" % (e.sequence_number, e.type), e, PARTIAL)
    with client.responses.stream(**req) as s:
        final = s.get_final_response()
    out += model_forms("stream(): get_final_response()", final, BOTH)
    return [("Responses: " + f, v, e) for f, v, e in out]


# --- anthropic ------------------------------------------------------------------

def _anthropic() -> List[Tuple[str, Any, Dict[str, Any]]]:
    import anthropic

    message = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-mock", "stop_reason": "tool_use",
        "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 20},
        "content": [{"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": CALLS["get_weather"]},
                    {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": CALLS["get_time"]}],
    }
    events = [
        {"type": "message_start", "message": dict(message, content=[], stop_reason=None)},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking."}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": W_TEXT[:9]}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": W_TEXT[9:]}},
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2,
         "content_block": {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {}}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": T_TEXT}},
        {"type": "content_block_stop", "index": 2},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None}, "usage": {"output_tokens": 20}},
        {"type": "message_stop"},
    ]
    answer: List[Any] = [{"body": message}]
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url="http://mock.invalid", max_retries=0,
                                 http_client=_transport(lambda: answer[0]))
    req: Dict[str, Any] = {"model": "claude-mock", "max_tokens": 100,
                           "messages": [{"role": "user", "content": "Weather and time in Paris?"}]}
    res = client.messages.create(**req)
    out = model_forms("messages.create() message", res, BOTH, ("to_dict", "to_json"))
    out.append(("message.content (a list of objects)", res.content, BOTH))
    out += model_forms("message.content[1] (ToolUseBlock)", res.content[1], ONE, ("to_dict",))
    answer[0] = {"events": [{"event": e["type"], "data": e} for e in events]}
    for i, e in enumerate(client.messages.create(**req, stream=True)):
        out += model_forms("stream event %d %s" % (i, e.type), e, PARTIAL)
    with client.messages.stream(**req) as s:
        final = s.get_final_message()
    out += model_forms("stream(): get_final_message()", final, BOTH)
    return out


# --- google-genai ---------------------------------------------------------------

def _gemini() -> List[Tuple[str, Any, Dict[str, Any]]]:
    from google import genai
    from google.genai import types

    def response(parts: List[Dict[str, Any]]) -> Dict[str, Any]:
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20, "totalTokenCount": 30},
                "modelVersion": "gemini-mock", "responseId": "resp_1"}

    w = {"functionCall": {"name": "get_weather", "args": CALLS["get_weather"]}}
    t = {"functionCall": {"name": "get_time", "args": CALLS["get_time"]}}
    answer: List[Any] = [{"body": response([w, t])}]
    client = genai.Client(api_key="test-key", http_options=types.HttpOptions(
        base_url="http://mock.invalid/", httpx_client=_transport(lambda: answer[0], "httpx")))
    res = client.models.generate_content(model="gemini-mock", contents="Weather and time in Paris?")
    assert res.candidates and res.candidates[0].content and res.candidates[0].content.parts
    content = res.candidates[0].content
    part = content.parts[0]  # type: ignore[index]
    extra = ("to_json_dict",)
    out = model_forms("generate_content() response", res, BOTH, extra)
    out += model_forms("candidates[0].content", content, BOTH, extra)
    out += model_forms("content.parts[0]", part, ONE, extra)
    out.append(("response.function_calls (a list of FunctionCall)", res.function_calls, BOTH))
    # A streamed Gemini response sends each functionCall whole, in one chunk.
    answer[0] = {"events": [{"data": response([w])}, {"data": response([t])}]}
    for i, c in enumerate(client.models.generate_content_stream(model="gemini-mock", contents="Weather and time in Paris?")):
        out += model_forms("generate_content_stream() chunk %d" % i, c, {"calls": [["get_weather", "get_time"][i]]}, extra)
    return out


# --- langchain-core -------------------------------------------------------------

def _langchain() -> List[Tuple[str, Any, Dict[str, Any]]]:
    from langchain_core.load import dumpd, dumps
    from langchain_core.messages import AIMessage, AIMessageChunk, message_chunk_to_message, message_to_dict, messages_to_dict

    msg = AIMessage(content="", id="run-1", tool_calls=[
        {"name": "get_weather", "args": CALLS["get_weather"], "id": "call_1", "type": "tool_call"},
        {"name": "get_time", "args": CALLS["get_time"], "id": "call_2", "type": "tool_call"}])
    c1 = AIMessageChunk(content="", id="run-1", tool_call_chunks=[
        {"name": "get_weather", "args": W_TEXT[:9], "id": "call_1", "index": 0, "type": "tool_call_chunk"}])
    c2 = AIMessageChunk(content="", id="run-1", tool_call_chunks=[
        {"name": None, "args": W_TEXT[9:], "id": None, "index": 0, "type": "tool_call_chunk"}])
    whole = c1 + c2
    out = model_forms("AIMessage", msg, BOTH)
    out += [("message_to_dict(AIMessage)", message_to_dict(msg), BOTH),
            ("messages_to_dict([AIMessage])", messages_to_dict([msg]), BOTH),
            ("dumpd(AIMessage)", dumpd(msg), BOTH),
            ("dumps(AIMessage)", dumps(msg), BOTH),
            ("AIMessage.tool_calls", msg.tool_calls, BOTH),
            ("AIMessage.tool_calls[0]", msg.tool_calls[0], ONE)]
    for i, c in enumerate((c1, c2)):
        out += model_forms("AIMessageChunk (stream piece %d)" % i, c, PARTIAL)
        out.append(("dumpd(AIMessageChunk (stream piece %d))" % i, dumpd(c), PARTIAL))
    out += model_forms("AIMessageChunk sum of the pieces (still a chunk)", whole, PARTIAL)
    out += model_forms("message_chunk_to_message(sum of the pieces)", message_chunk_to_message(whole), ONE)
    return out


# --- mcp ------------------------------------------------------------------------

def _mcp() -> List[Tuple[str, Any, Dict[str, Any]]]:
    from mcp import types
    from mcp.client.client import Client
    from mcp.server import Server

    seen: List[Any] = []

    async def on_call_tool(ctx: Any, params: Any) -> Any:
        seen.append(params)
        return types.CallToolResult(content=[types.TextContent(type="text", text="18C")])

    async def on_list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[types.Tool(name="get_weather", input_schema={"type": "object"})])

    async def run() -> None:
        server = Server("weather", on_call_tool=on_call_tool, on_list_tools=on_list_tools)
        async with Client(server) as client:
            await client.call_tool("get_weather", CALLS["get_weather"])

    asyncio.run(run())
    params = seen[0]
    request = types.CallToolRequest(params=params)
    wire = types.JSONRPCRequest(jsonrpc="2.0", id=1, method=request.method,
                                params=request.model_dump(mode="json", by_alias=True, exclude_none=True)["params"])
    # The handler's params alone are {"name", "arguments"}: a call out of its
    # shape, refused (docs/call-shapes-table.md: a call taken out of its shape is a bad-call).
    out = model_forms("CallToolRequest (the server's request, no JSON-RPC envelope)", request, ONE)
    out += model_forms("JSONRPCRequest (the wire message)", wire, ONE)
    out += model_forms("on_call_tool handler's CallToolRequestParams", params, {"error": "bad-call"})
    return out


def build_pypi_forms() -> List[Form]:
    """Every form, in a fixed order; SDKs not installed (older Pythons) are left out."""
    out: List[Form] = []
    for sdk, build in (("openai", _openai_chat), ("openai", _openai_responses), ("anthropic", _anthropic),
                       ("google-genai", _gemini), ("langchain-core", _langchain), ("mcp", _mcp)):
        try:
            version_of(sdk)
        except importlib.metadata.PackageNotFoundError:
            continue
        out += [(sdk, f, v, e) for f, v, e in build()]
    return out
