// The keys that decide how an object is read as a call (shapes.ts, pieces.ts),
// found in one pass over its members: a recording line then skips every
// marker lookup. Internal; below both readers, which share the bits.
import { T_NULL, nodeA, nodeType, subtreeEnd } from "../json/tape";
import { strIs } from "../json/members";

// Bits of callKeys(): which of the keys that decide a call's reading an object has (null values: absent).
export const K_TYPE: u32 = 1;
export const K_FUNCTION: u32 = 2, K_JSONRPC: u32 = 4, K_TOOL_USE: u32 = 8, K_FUNCTION_CALL: u32 = 16;
export const K_ARGS: u32 = 32, K_ARGS_JSON: u32 = 64, K_GENAI: u32 = 128;
export const K_METHOD: u32 = 256, K_OBJECT: u32 = 512, K_DELTA: u32 = 1024, K_CHUNKS: u32 = 2048;
export const K_BEDROCK_EVENT: u32 = 4096; // a ConverseStream event's member: messageStart, contentBlockDelta…
export const K_LINE: u32 = K_ARGS | K_ARGS_JSON;

/** The K_* keys among obj's members whose values are not null, in one pass: a recording line then skips every marker lookup. */
export function callKeys(obj: u32): u32 {
  let mask: u32 = 0;
  const count = nodeA(obj);
  let k = obj + 1;
  for (let m: u32 = 0; m < count; m++) {
    const n = nodeA(k); // a key's byte length: most keys are ruled out by it alone
    if (nodeType(k + 1) != T_NULL) {
      if (n == 4) { if (strIs(k, "type")) mask |= K_TYPE; else if (strIs(k, "args")) mask |= K_ARGS; }
      else if (n == 8) { if (strIs(k, "function")) mask |= K_FUNCTION; else if (strIs(k, "argsJSON")) mask |= K_ARGS_JSON; }
      else if (n == 7) { if (strIs(k, "jsonrpc")) mask |= K_JSONRPC; else if (strIs(k, "toolUse")) mask |= K_TOOL_USE; }
      else if (n == 6) { if (strIs(k, "method")) mask |= K_METHOD; else if (strIs(k, "object")) mask |= K_OBJECT; }
      else if (n == 12) { if (strIs(k, "functionCall")) mask |= K_FUNCTION_CALL; else if (strIs(k, "messageStart")) mask |= K_BEDROCK_EVENT; }
      else if (n == 13) { if (strIs(k, "function_call")) mask |= K_GENAI; }
      else if (n == 5) { if (strIs(k, "delta")) mask |= K_DELTA; }
      else if (n == 16) { if (strIs(k, "tool_call_chunks")) mask |= K_CHUNKS; else if (strIs(k, "contentBlockStop")) mask |= K_BEDROCK_EVENT; }
      else if (n == 17) { if (strIs(k, "contentBlockStart") || strIs(k, "contentBlockDelta")) mask |= K_BEDROCK_EVENT; }
      else if (n == 11) { if (strIs(k, "messageStop")) mask |= K_BEDROCK_EVENT; }
    }
    k = subtreeEnd(k + 1);
  }
  return mask;
}
