// The path of a value a host refuses (D15, D16, D20), in D15's notation:
// `args`, `.key` for an identifier key, `["a b"]` for any other (its JSON
// string literal, D6, as JSON.stringify writes it), `[3]` for an index. The
// host sends the keys and indices (abi.ts W_AT_PATH, P_*) through the word
// buffer, as it does a message's parameters: this touches only that buffer,
// so a host may ask in the middle of writing a request. Internal.
import { P_CALL, P_END, P_INDEX, P_MORE, W_AT_PATH, WORD_BUF_BYTES, WORD_OUT } from "../abi";
import { word as wordOf, wordBuf } from "../base/words";
import { sinkInto, sinkLength } from "../json/sink";
import { writeJsonString } from "./canonical";

/** The `word` export: a message (base/words.ts), or for W_AT_PATH a path at wordBuf() + WORD_OUT; returns its length. */
export function word(id: u32, len: u32): u32 {
  return id == W_AT_PATH && len <= WORD_OUT ? path(wordBuf(), wordBuf() + <usize>len) : wordOf(id, len);
}

// The segments' bytes are at most WORD_OUT, and a key's literal at most 6 bytes
// per byte: the path fits in the buffer's rest, so the sink never leaves it.
function path(p: usize, end: usize): u32 {
  const out = p + WORD_OUT;
  let o = out;
  const lead = p < end ? load<u8>(p) : 0;
  if (lead == P_CALL || lead == P_MORE) p++;
  else { store<u32>(o, 0x73677261); o += 4; } // "args"
  while (p + 5 <= end && load<u8>(p) != P_END) {
    const index = load<u8>(p) == P_INDEX, n = min(<usize>load<u32>(p, 1), end - p - 5);
    p += 5;
    let ident = !index && n > 0;
    for (let i: usize = 0; ident && i < n; i++) {
      const c = <u32>load<u8>(p + i);
      ident = (c | 0x20) - 0x61 < 26 || c == 0x5F || c == 0x24 || (i > 0 && c - 0x30 < 10);
    }
    if (ident) {
      if (o != out || lead == P_MORE) store<u8>(o++, 0x2E);
      memory.copy(o, p, n);
      o += n;
    } else {
      store<u8>(o++, 0x5B);
      if (index) {
        memory.copy(o, p, n);
        o += n;
      } else {
        sinkInto(o, wordBuf() + WORD_BUF_BYTES - o);
        if (!writeJsonString(p, n, false)) return 0;
        o += sinkLength();
      }
      store<u8>(o++, 0x5D);
    }
    p += n;
  }
  if (o == out && lead == P_CALL) { store<u64>(o, 0x6C6C616320656874); o += 8; } // "the call": the whole call
  return <u32>(o - out);
}
