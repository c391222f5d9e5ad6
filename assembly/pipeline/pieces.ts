// Streaming pieces (D23): a chunk or event of a streamed response looks like
// a call or a message but holds half of one (a delta of the arguments, an
// empty input, a partial JSON parse). Read as a call it would give a
// fingerprint of half the arguments, or zero calls; so it is a partial-call
// error that says what it is and what to assemble instead (each SDK's own
// accumulator). Internal; shapes.ts asks before it reads any shape or message.
//
//   OpenAI Chat Completions  {"object": "chat.completion.chunk"}, a choice's
//                            {"delta"}, a delta's tool call (shapes.ts)
//   OpenAI Responses         {"type": "response.…"} events
//   Anthropic Messages       message_start, content_block_start/_delta/_stop,
//                            message_delta, message_stop, ping, input_json_delta
//   LangChain                AIMessageChunk ("type", dumpd's class, or its
//                            "tool_call_chunks"), a tool_call_chunk
//   Vercel AI SDK            tool-input-start/-delta/-end/-available, and
//                            AI SDK 4's tool-call-delta, tool-call-streaming-start
//   Gemini                   a functionCall with partialArgs or willContinue (shapes.ts)
//   Bedrock ConverseStream   {"messageStart"}, {"contentBlockStart"}, {"contentBlockDelta"},
//                            {"contentBlockStop"}, {"messageStop"} events (not on a line)
import { E_PARTIAL_CALL } from "../abi";
import { T_ARR, T_STR, nodeA, nodeB, nodeType, subtreeEnd } from "../json/tape";
import { K_BEDROCK_EVENT, K_CHUNKS, K_DELTA, K_LINE, K_OBJECT, K_TYPE } from "./callkeys";
import { hasMemberNN, member, strIs } from "../json/members";
import { failWith } from "../base/detail";

export const PIECE_OPENAI_CHUNK = 1, PIECE_OPENAI_DELTA = 2, PIECE_RESPONSES = 3, PIECE_ANTHROPIC = 4;
export const PIECE_LANGCHAIN = 5, PIECE_VERCEL = 6, PIECE_GEMINI = 7, PIECE_BEDROCK = 8;

/** Records the partial-call error for a piece of kind k. */
export function piece(k: i32): void {
  const what = k == PIECE_OPENAI_CHUNK ? "an OpenAI chat.completion.chunk"
    : k == PIECE_OPENAI_DELTA ? "a tool call delta of an OpenAI Chat Completions stream (\"index\", without its whole call)"
    : k == PIECE_RESPONSES ? "an OpenAI Responses stream event (\"type\": \"response.*\")"
    : k == PIECE_ANTHROPIC ? "an Anthropic Messages stream event"
    : k == PIECE_LANGCHAIN ? "a LangChain AIMessageChunk (or one of its tool_call_chunks)"
    : k == PIECE_VERCEL ? "a Vercel AI SDK stream part"
    : k == PIECE_BEDROCK ? "a Bedrock ConverseStream event"
    : "a Gemini functionCall streamed in pieces (partialArgs, willContinue)";
  const then = k <= PIECE_OPENAI_DELTA
    ? "fingerprint the assembled completion: stream.finalChatCompletion() (Python: stream.get_final_completion(), or ChatCompletionStreamState)"
    : k == PIECE_RESPONSES
    ? "fingerprint the assembled response: stream.finalResponse() (Python: stream.get_final_response()), or the \"response\" of the response.completed event"
    : k == PIECE_ANTHROPIC
    ? "fingerprint the assembled message: stream.finalMessage() (Python: stream.get_final_message())"
    : k == PIECE_LANGCHAIN
    ? "fingerprint the whole message once the stream has ended: add the chunks up (chunk.concat(next), Python: chunk + next) and pass the sum's tool_calls, or message_chunk_to_message(sum) (Python)"
    : k == PIECE_VERCEL
    ? "fingerprint the finished calls: await result.toolCalls, the steps' toolCalls, or the stream's \"tool-call\" parts"
    : k == PIECE_BEDROCK
    ? "fingerprint the assembled message: each toolUse block's contentBlockStart name and its contentBlockDelta input text, joined, as the Converse response's output.message"
    : "fingerprint the call once it is whole";
  failWith(E_PARTIAL_CALL, "this is ", what, ", a piece of a stream, not a whole call: ", then, "", "");
}

/** o (an object whose callKeys() are mask) is a piece of a stream: the error is recorded. */
export function isPiece(o: u32, mask: u32): bool {
  let k = 0;
  if ((mask & K_OBJECT) != 0) {
    const v = member(o, "object");
    if (nodeType(<u32>v) == T_STR && strIs(<u32>v, "chat.completion.chunk")) k = PIECE_OPENAI_CHUNK;
  }
  if (k == 0 && (mask & K_CHUNKS) != 0) k = PIECE_LANGCHAIN;
  if (k == 0 && (mask & K_TYPE) != 0) k = pieceType(o, (mask & K_LINE) != 0);
  if (k == 0 && (mask & K_BEDROCK_EVENT) != 0 && (mask & K_LINE) == 0) k = PIECE_BEDROCK;
  // A chunk's choice {"index", "delta"}; not a line that carries a "delta" member along.
  if (k == 0 && (mask & K_DELTA) != 0 && (mask & (K_TYPE | K_LINE)) == 0) k = PIECE_OPENAI_DELTA;
  if (k == 0) return false;
  piece(k);
  return true;
}

/** A Vercel AI SDK stream part that is never a call: the stream's lifecycle, its text and reasoning (D23). */
function vercelPart(u: u32): bool {
  return strIs(u, "start") || strIs(u, "start-step") || strIs(u, "finish-step") || strIs(u, "finish")
    || strIs(u, "stream-start") || strIs(u, "response-metadata") || strIs(u, "text-start") || strIs(u, "text-delta")
    || strIs(u, "text-end") || strIs(u, "reasoning-start") || strIs(u, "reasoning-delta") || strIs(u, "reasoning-end")
    || strIs(u, "abort");
}

/** The piece kind o's "type" names, or 0. */
function pieceType(o: u32, line: bool): i32 {
  const t = member(o, "type");
  if (nodeType(<u32>t) != T_STR) return 0;
  const u = <u32>t;
  const p = <usize>nodeB(u);
  if (nodeA(u) > 9 && startsWith(p, "response.")) return PIECE_RESPONSES;
  if (strIs(u, "message_start") || strIs(u, "content_block_start") || strIs(u, "content_block_delta")
    || strIs(u, "content_block_stop") || strIs(u, "message_delta") || strIs(u, "message_stop") || strIs(u, "ping")
    || strIs(u, "input_json_delta")) return PIECE_ANTHROPIC;
  if (strIs(u, "AIMessageChunk") || strIs(u, "tool_call_chunk")) return PIECE_LANGCHAIN;
  if (strIs(u, "tool-input-start") || strIs(u, "tool-input-delta") || strIs(u, "tool-input-end") || strIs(u, "tool-input-available")
    || strIs(u, "tool-call-delta") || strIs(u, "tool-call-streaming-start")) return PIECE_VERCEL;
  if (!line && vercelPart(u)) return PIECE_VERCEL; // a line may carry a "type" such as "finish" along
  if (strIs(u, "constructor")) {
    const c = lcClass(o);
    if (c >= 0 && strIs(<u32>c, "AIMessageChunk")) return PIECE_LANGCHAIN;
  }
  return 0;
}

/** dumpd's class of {"lc", "type": "constructor", "id": [..., class]}: the id's last element (a string node), or -1. */
export function lcClass(o: u32): i32 {
  if (!hasMemberNN(<i32>o, "lc")) return -1;
  const id = member(o, "id");
  if (nodeType(<u32>id) != T_ARR || nodeA(<u32>id) == 0) return -1;
  let c = <u32>id + 1;
  for (let i: u32 = 1; i < nodeA(<u32>id); i++) c = subtreeEnd(c);
  return nodeType(c) == T_STR ? <i32>c : -1;
}

function startsWith(p: usize, s: string): bool {
  for (let j = 0; j < s.length; j++) if (<u32>load<u8>(p + <usize>j) != <u32>s.charCodeAt(j)) return false;
  return true;
}
