// The ABI, defined once: every number a host must agree on with the core —
// request flags, header and result-block layouts, value-stream tags, error
// parts, error codes and their messages. Internal to the core; the hosts'
// copies are GENERATED from this file by scripts/gen-abi.mjs
// (src/_abi.gen.ts, python/overturn/fingerprint/_abi.py), and the core
// exports abiId() (the first 20 bits of this file's SHA-256, from
// assembly/_abi_id.gen.ts) so a host built against another ABI fails when it
// loads the module, not by miscomputing.
//
// Generator syntax (kept deliberately tiny): one `export const NAME: type = N;`
// per line (or `export const NAME: string = "text";`, ASCII). An error code carries `// error: <code> | <message>` on its line:
// <code> is FingerprintError.code, <message> the plain-words reason the hosts
// print. Edit here, then run `node scripts/gen-abi.mjs` (build-wasm does it).

/** D18: the contract version, also the `version()` export. */
export const FINGERPRINT_VERSION: i32 = 1;
/** D17: the kind when a call gives none. The core's bytes of it and the hosts' copies are generated from this line. */
export const DEFAULT_KIND: string = "tool_call";

// Host constants: numbers a host needs besides the request layout, generated
// into every host so none keeps its own copy.
/** The Explanation object's "version" member (explain()). */
export const EXPLANATION_VERSION: i32 = 1;
/** Bytes a host reserves for its input region when it makes an instance (reserve()). */
export const INPUT_RESERVE_BYTES: u32 = 65536;
/** Linear memory an instance may keep after a call before the host retires it (the retain default). */
export const RETAIN_BYTES: u32 = 67108864;
/** A host value's walk refuses nesting deeper than this (its own stack, before the core's depth limit). */
export const VALUE_MAX_DEPTH: u32 = 100000;
/** Below this depth a host value's walk checks no cycles (a cycle repeats, so it is found deeper). */
export const VALUE_CYCLE_CHECK_DEPTH: u32 = 64;

// Request flags (header word 0).
export const F_DIGEST: u32 = 1;       // hash kind "\n" name "\n" canonical (D17)
export const F_TEXT: u32 = 2;         // return the canonical text
export const F_MATCH_ON: u32 = 4;     // matchOn list present (D9: matchOn wins)
export const F_IGNORE: u32 = 8;       // ignoreArgs list present
export const F_STRING_INPUT: u32 = 16; // args came from a host string: no BOM (D12)
export const F_PREIMAGE: u32 = 32;    // return kind "\n" name "\n" canonical as the text
export const F_VALUES: u32 = 64;      // args is a host-value stream (json/values.ts)
export const F_CALL: u32 = 128;       // args is a whole call (call.ts); kind/name/lists parts empty
export const F_EXPLAIN: u32 = 256;    // return the explanation record (explain.ts) as the text
export const F_DIFF: u32 = 512;       // a diff or nearest operation (ops/compare.ts): the kind part is DIFF_KIND_BYTES (D_* below)
export const F_MARSHAL: u32 = 1024;   // args is CPython marshal (version 4) of a plain value (json/marshal.ts)
export const F_NTH_CALL: u32 = 2048;  // with F_CALL: args may hold several calls (a message, shapes.ts); the kind part is 4 bytes, the u32 index of the one to read; RESULT_OFFSET returns their count
export const ALL_CALLS: u32 = 4294967295; // F_NTH_CALL's index for every call: with F_EXPLAIN, a JSON array of their Explanations, in order
export const F_CLI: u32 = 4096;       // CLI output (cli/out.ts): kind = formatter, name = operand, matchOn/ignoreArgs parts = program, package version
export const F_TOOLS: u32 = 8192;     // with F_CALL: the ignoreArgs part holds tool declarations as JSON text (tools.ts)
export const F_REPLAY: u32 = 16384;   // a replay operation (replay.ts): the kind part is REPLAY_KIND_BYTES: op (R_*), argument, held, unit
export const F_RAW_NAMES: u32 = 32768; // kind and name parts are UTF-8 text, not JSON string literals (an empty kind is an error, not the default; batch.ts)
export const F_FROM_VALUE: u32 = 65536; // args is JSON text a host made from its own value: a limit error gives no offset into it (limits.ts)
// The limits argument of configure() or of one call (ops/limit_args.ts): args is a JSON object,
// each member a key as given and its value: null (kept), a string (a number as the host prints
// it; "Infinity" is none) or [a string] (any other value, as the host shows it). The kind part
// is "_" when the host names its limits in snake_case (Python). The result's digest area holds
// four u32: which of the three were given (bit 0 maxInputBytes, 1 maxDepth, 2 maxMembers), then their values.
export const F_LIMITS: u32 = 262144;

// The Explanation (pipeline/explain.ts) both SDKs return as the core writes it (EXPLANATION_VERSION above).
// Its own bit: F_KEEP_MASK and F_LIMITS take the two below.
export const F_ECHO_CALL: u32 = 524288; // with F_EXPLAIN: the record also echoes the call's matchOn, ignoreArgs and "fingerprint" (as "recorded"), for the CLI's formatters

// Diff and nearest over calls and Explanations (F_DIFF, ops/compare.ts). The kind part is
// DIFF_KIND_BYTES: u32 op (D_*), u32 argument, then the request flags of the name part's and of
// the args part's value (F_STRING_INPUT, F_VALUES, F_FROM_VALUE: how each is sent). A value is a
// call or an Explanation (an object whose kind, name, canonical, preimage and fingerprint are strings).
export const DIFF_KIND_BYTES: u32 = 16;
export const D_DIFF: u32 = 1;         // name part = A, args = B: the Diff {"same","changes"} of A to B as JSON
export const D_NEAR_START: u32 = 2;   // args = the live call: the target, which this instance keeps for the steps that follow
export const D_NEAR_STEP: u32 = 3;    // args = a recorded call, on the instance the search started on (it counts them and keeps the best)
export const NEAR_NAME_ONLY: u32 = 1; // D_NEAR_STEP's argument: the name part holds the recorded call's "name" string, args is empty
// D_NEAR_STEP's answer: u32 step, then with NEAR_BEST/NEAR_EXACT the match as JSON:
// {"index","explanation" (null: the recorded item is an Explanation, its own),"diff"}.
export const NEAR_NEXT: u32 = 0;      // not nearer: go on with the next recorded call
export const NEAR_SEND_CALL: u32 = 1; // the name matches: send the whole recorded call (not counted yet)
export const NEAR_BEST: u32 = 2;      // the nearest so far: go on
export const NEAR_EXACT: u32 = 3;     // an exact match (nothing beats it): stop reading the recording

// Replay operations (F_REPLAY, replay.ts): the first u32 of the kind part.
export const R_TOOLS: u32 = 1;        // args = declarations JSON text, kept for the recording's calls
export const R_LOAD: u32 = 2;         // args = a chunk of the recording (JSON Lines) cut anywhere; argument = LOAD_* bits
export const R_ANSWER: u32 = 3;       // args = a live call (JSON text, or F_VALUES); argument = call index in a message
// F_REPLAY's kind part: u32 op, u32 argument, u32 held (1: the host built the value of the last
// line an answer sent, 0: it holds none), u32 the unit (U_*) of the items of a line sent back.
// R_ANSWER's answer: the record's JSON, whose recorded call carries its line's "text" unless it is
// the line the host holds; with a text, (not with U_NONE) "\n", u32 n and n bytes of its items.
export const REPLAY_KIND_BYTES: u32 = 16;
export const R_UNUSED: u32 = 4;       // the recorded calls never answered: JSON (a line's "text" with its first call), "\n", then per text u32 n and n bytes of items
// Loading a recording (R_LOAD): the core keeps an unterminated last line until a chunk ends it.
export const LOAD_LAST: u32 = 1;      // the last chunk (it may be empty): what is left is the last line
export const LOAD_ENDS_LINE: u32 = 2; // a line end follows the chunk (a host's line given without one)
export const LOAD_CHUNK_BYTES: u32 = 1048576; // the most bytes a host sends per R_LOAD (a file is read, a text encoded, this much at a time)
// Where a line's items are: byte offsets, UTF-16 code units (JavaScript string indices), code points (Python str indices).
export const U_BYTES: u32 = 0;
export const U_UTF16: u32 = 1;
export const U_CODE_POINTS: u32 = 2;
export const U_NONE: u32 = 3;         // no items: the host reads the line's text only
// A line's items: three u32 each (tag, from, to), in document order; a container's items follow its opener up to its J_END.
export const J_END: u32 = 0;          // closes the innermost array or object
export const J_ARRAY: u32 = 1;
export const J_OBJECT: u32 = 2;       // then key, value, key, value... (a key is a J_STRING or J_SCALAR item)
export const J_STRING: u32 = 3;       // a string without escapes: its text is [from + 1, to - 1)
export const J_SCALAR: u32 = 4;       // a number, true, false, null or a string with escapes: JSON text [from, to)
export const J_NONFINITE: u32 = 5;    // NaN, Infinity or -Infinity (D12): [from, to)

// Request kinds: every operation a host can ask `run` for, one line each, read
// by scripts/gen-abi.mjs into each host's table (a new host generates its
// request code from it instead of porting another host's):
//   request: <name> | <module> | <flags always set> | <flags a caller may add> | <part>=<what> ... | <result>
// <module>: fingerprint (both modules) or engine (the engine module only);
// parts not named stay empty; the result is the text (text=<what>), the
// 64 hex digits at RESULT_DIGEST (digest=hex), or RESULT_CLI_* words (words=CLI).
// request: fingerprint | fingerprint | F_DIGEST | F_TEXT F_PREIMAGE F_MATCH_ON F_IGNORE F_STRING_INPUT F_VALUES F_MARSHAL | kind=json-string name=json-string matchOn=json-array ignoreArgs=json-array args=json | digest=hex
// request: canonical | fingerprint | F_TEXT | F_STRING_INPUT F_VALUES F_MARSHAL | args=json | text=canonical
// request: explain | engine | F_CALL F_EXPLAIN F_DIGEST | F_STRING_INPUT F_VALUES F_TOOLS F_FROM_VALUE | ignoreArgs=tools args=call | text=record digest=hex
// request: explainAll | engine | F_CALL F_EXPLAIN F_DIGEST F_NTH_CALL | F_STRING_INPUT F_VALUES F_TOOLS F_FROM_VALUE | kind=u32:ALL_CALLS ignoreArgs=tools args=message | text=digest-record-lines
// request: diff | engine | F_DIFF | | kind=canonical name=canonical | text=changes
// request: cli | engine | F_CLI | | kind=step name=operand matchOn=program ignoreArgs=version args=bytes | text=out-err-state-data words=CLI
// request: replay | engine | F_REPLAY | F_STRING_INPUT F_VALUES F_FROM_VALUE | kind=u32:op,argument,held,unit args=bytes | text=answer
// request: keepMask | fingerprint | F_KEEP_MASK F_TEXT | F_MATCH_ON F_IGNORE F_STRING_INPUT F_VALUES | matchOn=json-array ignoreArgs=json-array args=keys | text=keep-mask
// request: callKeepMask | engine | F_CALL F_KEEP_MASK F_TEXT | F_STRING_INPUT F_VALUES F_TOOLS F_FROM_VALUE | ignoreArgs=tools args=call | text=keep-mask
// request: limits | fingerprint | F_LIMITS | F_STRING_INPUT | kind=naming args=limit-members | words=given,bytes,depth,members
// request: path | fingerprint | F_PATH F_TEXT | F_STRING_INPUT F_VALUES | args=keys-and-indices | text=path

// Request header: six little-endian u32 words, then the parts back to back.
export const HEADER_BYTES: u32 = 24;
export const HEADER_WORDS: u32 = 6;   // flags, kindLen, nameLen, matchLen, ignoreLen, argsLen

// Result block (at result()): byte offsets of its fields. On failure the
// text fields hold an optional detail (UTF-8) that follows the message.
export const RESULT_STATUS: u32 = 0;   // i32: 0 or an error code
export const RESULT_OFFSET: u32 = 4;   // i32: byte offset into the failing part, -1 none
export const RESULT_PART: u32 = 8;     // i32: PART_* of the failure
export const RESULT_TEXT_PTR: u32 = 12; // u32: returned text
export const RESULT_TEXT_LEN: u32 = 16; // u32
export const RESULT_DIGEST: u32 = 20;  // 64 lowercase hex digest bytes
export const RESULT_BYTES: u32 = 96;
// The CLI engine's result (F_CLI requests of cli/run.ts): the text is the
// stdout bytes, then the stderr bytes, then the state the host hands back
// unread with the next request; these words (in the digest area) say how
// long each is, how many lines a chunk held, and the code (plan: -1 = run,
// else the exit status; chunk: 1 = stop reading; finish: the exit status).
export const RESULT_CLI_OUT: u32 = 20;   // u32: stdout bytes
export const RESULT_CLI_ERR: u32 = 24;   // u32: stderr bytes
export const RESULT_CLI_STATE: u32 = 28; // u32: state bytes
export const RESULT_CLI_LINES: u32 = 32; // u32: lines read
export const RESULT_CLI_CODE: u32 = 36;  // i32

// The CLI driver (cli/drive.ts): the host loops "do the action, report back" and the core decides
// every step. After RESULT_CLI_CODE: the action (CLI_*; CLI_EXIT: exit with the code), the bytes of
// its payload (after the state in the text) and its second number (the first is RESULT_CLI_LINES).
export const RESULT_CLI_OP: u32 = 40;    // u32: CLI_*
export const RESULT_CLI_DATA: u32 = 44;  // u32: payload bytes
export const RESULT_CLI_ARG: u32 = 48;   // u32
export const CLI_EXIT: u32 = 0;      // write out and err, end the workers, exit with the code (payload: the jobs' trace)
export const CLI_NEXT: u32 = 1;      // write out and err
export const CLI_READ: u32 = 2;      // read up to ARG more bytes of payload (a path, "-": stdin; kept open until EOF or an error)
export const CLI_READ_ALL: u32 = 3;  // read the whole file payload
export const CLI_SPAWN: u32 = 4;     // start LINES workers: each runs "worker" (argv, payload), then "job" per task
export const CLI_SEND: u32 = 5;      // hand task ARG (payload) to worker LINES
export const CLI_POLL: u32 = 6;      // report a worker's message if one has come
export const CLI_WAIT: u32 = 7;      // report the next worker's message
export const CLI_WRITE: u32 = 8;     // write out and err, then the output kept for task LINES
export const CLI_HOLD: u32 = 9;      // keep out and err for task LINES (not written yet)

// A batch (runBatch(from, out)): a descriptor of BATCH_WORDS u32 at
// the input region, then the columns wherever the host put them. Each part
// (kind, name, matchOn, ignoreArgs, args, in that order) is a column of three
// words: offsets, data, len. offsets != 0: u32[count + 1] at that address,
// item i spanning data + offsets[i] .. data + offsets[i + 1] (Arrow's layout);
// offsets == 0: every item shares [data, data + len). An item gets
// F_MATCH_ON / F_IGNORE when its list is not empty. Item i's digest (64 hex
// bytes) goes to out + DIGEST_BYTES * i; the first failing item stops the batch,
// its message "item N: ..." (N = BATCH_BASE + i) in the result block.
// With F_PREIMAGE instead of F_DIGEST (a host that hashes faster itself),
// out holds u32 ends[count], then BATCH_OUT_BYTES bytes (at least
// DIGEST_BYTES) where the preimages of one runBatch call go back to back
// (ends[i]: where item i's ends, from the first item of the call). An item
// that does not fit in what is left stops the call with status OK in the
// result block (the host takes those and calls again from it); one larger
// than all the room leaves its digest there instead, its end marked
// BATCH_END_DIGEST. With F_DIGEST | F_PREIMAGE (a host whose hashing beats
// the engine module's four lanes only on long items) the core picks when
// a chunk starts and writes its pick back into BATCH_FLAGS: preimages without
// four lanes or from BATCH_HOST_HASH_FROM input bytes an item, else digests.
export const BATCH_FLAGS: u32 = 0;    // word: request flags of every item (F_DIGEST, F_RAW_NAMES, ...)
export const BATCH_COUNT: u32 = 1;    // word: number of items
export const BATCH_COLUMNS: u32 = 2;  // word: the first column (kind); 3 words per column
export const BATCH_OUT_BYTES: u32 = 17; // word: F_PREIMAGE: room for preimages after ends[count]
export const BATCH_LINES: u32 = 18;   // word: 1: digest i at out + 65 i, followed by "\n" (F_DIGEST, engine module)
export const BATCH_BASE: u32 = 19;    // word: the batch index of the chunk's first item (for "item N: ...")
export const BATCH_ITEM_FLAGS: u32 = 20; // word: 0, or the address of u32[count]: item i's sort of input (F_STRING_INPUT, F_MARSHAL, F_VALUES, BATCH_ITEM_NOT_*), added to BATCH_FLAGS
export const BATCH_WORDS: u32 = 21;
export const BATCH_END_DIGEST: u32 = 2147483648; // an end's bit: the item's slot holds its digest, not its preimage
// How hosts cut a batch into chunks (memory follows a chunk, not the batch), one rule for every host
// and input form: a chunk takes the next item while it holds fewer than BATCH_CHUNK_ITEMS items and
// the item's input bytes (a string's: 3 a UTF-16 unit, or its UTF-8) fit in BATCH_CHUNK_BYTES with
// the chunk's so far; its first item always (a longer item is a chunk of its own).
export const BATCH_CHUNK_ITEMS: u32 = 4096;    // items of a chunk, at most
export const BATCH_CHUNK_BYTES: u32 = 1048576; // input bytes of a chunk, at most (but its first item)
// Mean input bytes an item from which a native SHA-256 on the host beats the
// engine module's four lanes (python/bench/batch.py, bench/PROFILE.md).
export const BATCH_HOST_HASH_FROM: u32 = 1024;
export const BATCH_SEPARATED: u32 = 4294967295;
export const BATCH_NUL_IN_ITEM: u32 = 4294967295;
export const DIGEST_BYTES: u32 = 64;
// A batch item the host could not send as text (BATCH_ITEM_FLAGS bits): the core fails it in its
// turn, worded and named like any other bad item ("item N: JSON text must be a string or bytes, got
// <type>"); the item's bytes in that column are the host's word for its type (errors.ts typeWord).
export const BATCH_ITEM_NOT_TEXT: u32 = 4194304; // args: not a string or bytes (W_TEXT); checked first
export const BATCH_ITEM_NOT_NAME: u32 = 8388608; // name: not a string (W_STRING "name")

// Which part of the request an error offset refers to.
export const PART_ARGS: i32 = 0;
export const PART_KIND: i32 = 1;
export const PART_NAME: i32 = 2;
export const PART_SELECTION: i32 = 3;
export const PART_CALL: i32 = 4;       // offset into the call's JSON text (F_CALL)
export const PART_ARGS_JSON: i32 = 5;  // offset into the decoded argsJSON string (F_CALL)
export const PART_TOOLS: i32 = 6;      // offset into the tool declarations' JSON text (F_TOOLS, R_TOOLS)

// Value-stream tags (json/values.ts documents the item layouts).
export const V_NULL: u8 = 0;
export const V_FALSE: u8 = 1;
export const V_TRUE: u8 = 2;
export const V_NUMBER: u8 = 3;
export const V_STR_CLEAN: u8 = 4;
export const V_STR: u8 = 5;
export const V_ARRAY: u8 = 6;
export const V_OBJECT: u8 = 7;
// JSON text inside a value stream (Go host, D20): u32 byte length + the text,
// read by the JSON reader (D11–D14) — json.RawMessage, and the encoding/json
// form of structs and marshalers.
export const V_JSON: u8 = 10;
// A string whose UTF-8 comes after the stream (TypeScript host): u32 length in
// UTF-16 units; the tail holds such strings in order, each followed by a 0 byte.
export const V_STR_TAIL: u8 = 11;

// Selection decided once, in the core (pipeline/select.ts), and dates printed by it (json/values.ts, text/isodate.ts).
export const F_KEEP_MASK: u32 = 131072; // with F_TEXT: args is an object of the args' top-level keys (values not read); the text is "" (no selection applies), else "M" (matchOn governs) or "I" (ignoreArgs), then "1" (walk it) or "0" (never read it, D9) per member
// Value paths: the host sends where a value it refuses is, the core writes the path (pipeline/path.ts).
export const F_PATH: u32 = 1048576;   // with F_TEXT: args is a JSON array of the keys (strings) and indices (numbers) from the args down to a value, null first when they start at a whole call; the text is its path in D15's notation
export const V_DATE: u8 = 8;          // f64 time value in ms (a JS Date's, a Python datetime's UTC instant): printed as toISOString() prints it; NaN or beyond 8.64e15 is an invalid Date: null (D15, D16)
export const V_DAY: u8 = 9;           // f64 days since 1970-01-01 (a Python date): printed YYYY-MM-DD (D16)

// Status codes: 0 is success; the rest are errors (the first failure of a call wins).
export const OK: i32 = 0;
export const E_UNEXPECTED_END: i32 = 1;  // error: unexpected-end | the text ends inside a value
export const E_UNEXPECTED_CHAR: i32 = 2; // error: unexpected-character | unexpected character
export const E_INVALID_UTF8: i32 = 3;    // error: invalid-utf8 | invalid UTF-8
export const E_BAD_ESCAPE: i32 = 4;      // error: bad-escape | invalid escape sequence
export const E_CONTROL_CHAR: i32 = 5;    // error: control-character | unescaped control character in a string
export const E_BAD_NUMBER: i32 = 6;      // error: bad-number | invalid number
export const E_TRAILING: i32 = 7;        // error: trailing-content | unexpected content after the JSON value
export const E_EMPTY: i32 = 8;           // error: empty-input | no JSON value (empty text)
export const E_OUT_OF_MEMORY: i32 = 9;   // error: out-of-memory | out of memory
export const E_BAD_KIND: i32 = 10;       // error: bad-kind | kind must be a non-empty string without line feeds or lone surrogates
export const E_BAD_NAME: i32 = 11;       // error: bad-name | name must be a non-empty string without lone surrogates
export const E_BAD_SELECTION: i32 = 12;  // error: bad-selection | matchOn/ignoreArgs must be arrays of strings
export const E_BAD_REQUEST: i32 = 13;    // error: bad-request | malformed request to the core (an SDK bug)
export const E_BAD_CALL: i32 = 14;       // error: bad-call | a call is a JSON object {"name", "args" | "argsJSON", "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}
// The limit errors' reasons are also the core's whole messages (limits.ts):
// "limit exceeded: <reason>[ at byte N] (<the limit's name> is <its value>)".
export const E_LIMIT_DEPTH: i32 = 15;    // error: limit-exceeded | nesting deeper than the maxDepth limit
export const E_LIMIT_MEMBERS: i32 = 16;  // error: limit-exceeded | an object with more members than the maxMembers limit
export const E_NO_CALLS: i32 = 17;       // error: no-calls | the message holds no tool call at that index
export const E_BAD_TOOLS: i32 = 18;      // error: bad-tools | tool declarations are a JSON object {"<tool name>": {"matchOn"?: [...], "ignoreArgs"?: [...]}}
export const E_TOOL_CONFLICT: i32 = 19;  // error: declaration-conflict | a call's own matchOn/ignoreArgs differ from its tool's declaration
export const E_PARTIAL_CALL: i32 = 20;   // error: partial-call | a piece of a streamed response, not a whole call: fingerprint the assembled message
export const E_LIMIT_BYTES: i32 = 21;    // error: limit-exceeded | input larger than the maxInputBytes limit
export const E_LIMIT_SHARED: i32 = 22;   // error: limit-exceeded | limit exceeded: shared lists or dicts repeat into more than 16 values per byte of the marshal stream
export const E_BAD_ARGUMENT: i32 = 23;   // error: invalid-argument | invalid argument (the message says which, ops/limit_args.ts)

// Errors worded by the core (base/words.ts): the frames of a core error's
// message (a status's reason is {1}; a byte offset {2}), and the errors a
// host raises itself, which it asks the fingerprint module to word (the
// `word` export: a word id and its parameters, NUL-separated, at wordBuf();
// the message comes back at wordBuf() + WORD_OUT). Syntax: `// word: <code>
// | <template>`, {1}..{5} the parameters; code "-" for a frame. Templates
// are ASCII and short: they live in the fingerprint module's static data.
export const WORD_OUT: u32 = 1024;       // the message's offset in the word buffer (parameters before it)
export const WORD_BUF_BYTES: u32 = 2560; // the word buffer: parameters, then the message
export const W_JSON_AT: u32 = 1;         // word: - | invalid JSON: {1} at byte {2}
export const W_ARGS_JSON_AT: u32 = 2;    // word: - | argsJSON: invalid JSON: {1} at byte {2}
export const W_TOOLS_AT: u32 = 3;        // word: - | tools: invalid JSON: {1} at byte {2}
export const W_SELECTION: u32 = 4;       // word: - | invalid matchOn/ignoreArgs: {1}
export const W_KIND: u32 = 5;            // word: - | invalid kind: {1}
export const W_NAME: u32 = 6;            // word: - | invalid name: {1}
export const W_OBJECT: u32 = 7;          // word: invalid-argument | {1} must be an object, got {2}
export const W_STRING: u32 = 8;          // word: invalid-argument | {1} must be a string, got {2}
export const W_STRINGS: u32 = 9;         // word: invalid-argument | {1} must be an array of strings, got {2}
export const W_TEXT: u32 = 10;           // word: invalid-argument | JSON text must be a string or bytes, got {1}
export const W_ITERABLE: u32 = 11;       // word: invalid-argument | {1} must be an iterable, got {2}
export const W_CHOICE: u32 = 12;         // word: invalid-argument | {1} must be "{2}" or "null", got {3}
export const W_LENGTHS: u32 = 13;        // word: invalid-argument | {1} and {2} have different lengths
export const W_NON_NEGATIVE: u32 = 14;   // word: invalid-argument | {1} must be a non-negative number, got {2}
export const W_CALL: u32 = 15;           // word: invalid-argument | a call must be an object or its JSON text, got {1}
export const W_MESSAGE: u32 = 16;        // word: invalid-argument | a message must be an object or its JSON text, got {1}
export const W_RECORDED: u32 = 17;       // word: invalid-argument | a recorded call must be an object, got {1}
export const W_RECORDING: u32 = 18;      // word: invalid-argument | a recording is its text, its bytes, or an iterable of chunks or lines, got {1}
export const W_PIECE: u32 = 19;          // word: invalid-argument | a recording's pieces are bytes chunks or string lines, got {1}
export const W_TOOLS: u32 = 20;          // word: invalid-argument | tools must be an object of declarations or their JSON text, got {1}
export const W_NULL_ITEM: u32 = 21;      // word: invalid-argument | {1} is null
export const W_CIRCULAR: u32 = 22;       // word: circular-value | circular reference at {1}
export const W_TOO_DEEP: u32 = 23;       // word: too-deep | args are nested too deeply (over {1} levels) at {2}
export const W_UNSUPPORTED: u32 = 24;    // word: unsupported-value | cannot fingerprint a value of type {1} at {2}: only plain objects, arrays, strings, numbers, booleans, null, Dates and objects with toJSON are allowed (D15)
export const W_UNSUPPORTED_PY: u32 = 25; // word: unsupported-value | cannot fingerprint a value of type {1} at {2}: only dict, list, tuple, str, int, float, bool, None, datetime and date are allowed (D16)
export const W_UNREADABLE: u32 = 26;     // word: unsupported-value | cannot read the object at {2}: {1}
export const W_KEY_TYPE: u32 = 27;       // word: unsupported-value | cannot fingerprint a dict key of type {1} in the object at {2}: keys must be str, int, float, bool or None (D16)
export const W_MEMBERS: u32 = 28;        // word: unsupported-value | a call's members must be JSON values
export const W_TRAP: u32 = 29;           // word: internal-error | the {1} core failed (an SDK defect, please report): {2}
export const W_BROKEN: u32 = 30;         // word: internal-error | this recording's core failed earlier; load the recording again
export const W_REENTERED: u32 = 31;      // word: invalid-argument | a Recording was used from inside one of its own calls; call it after that call returns
export const W_NO_ROOM: u32 = 32;        // word: out-of-memory | an input of {1} bytes does not fit in wasm memory
export const W_LINE_MISSING: u32 = 33;   // word: internal-error | the core left out line {1}, which this recording does not hold
export const W_READ_BACK: u32 = 34;      // word: internal-error | the recorded line could not be read back as a value: {1}
export const W_BINARY: u32 = 35;         // word: invalid-argument | open the recording in binary mode ('rb')
export const W_BAD_DIGEST: u32 = 36;     // word: internal-error | the fingerprint core gave a digest that is not 64 lowercase hex digits (an SDK defect, please report)
export const W_STACK: u32 = 37;          // word: too-deep | input is nested too deeply for the core's stack
export const W_LIMIT_NAMES: u32 = 38;    // word: - | maxInputBytes, maxDepth, maxMembers
export const W_LIMIT_NAMES_PY: u32 = 39; // word: - | max_input_bytes, max_depth, max_members
export const W_LIMIT_UNKNOWN: u32 = 40;  // word: invalid-argument | unknown limits {1}: allowed are {2}
export const W_LIMIT_VALUE: u32 = 41;    // word: invalid-argument | {1} must be a non-negative integer, Infinity or null, got {2}
export const W_LIMIT_VALUE_PY: u32 = 42; // word: invalid-argument | {1} must be a non-negative int, math.inf or None, got {2}
export const W_INT_KEY: u32 = 43;        // word: unsupported-value | cannot fingerprint an int dict key of more digits than sys.get_int_max_str_digits() allows in the object at {1} (D16)
export const W_NOT_ITERABLE: u32 = 44;   // word: unsupported-value | cannot fingerprint the object at {3}: {1} returned a value of type {2}, which is not iterable
export const W_NOT_PAIR: u32 = 45;       // word: unsupported-value | cannot fingerprint the dict at {2}: its items() yielded a value of type {1}, not a (key, value) pair
export const W_DUMP_RAISED: u32 = 46;    // word: unsupported-value | cannot fingerprint a value of type {1} at {5}: its {2} raised {3}: {4} (D16b)
export const W_DUMP_MODEL: u32 = 47;     // word: unsupported-value | cannot fingerprint a value of type {1} at {3}: a {2} must return JSON values, not objects with model_dump (D16b)
export const W_DATETIME: u32 = 48;       // word: unsupported-value | cannot fingerprint the datetime at {2}: {1}
export const W_ARROW: u32 = 49;          // word: invalid-argument | {1} must be a pyarrow string array, got {2}
export const W_BATCH_STOPPED: u32 = 50;  // word: internal-error | the core's batch stopped at {1} of {2}..{3}
export const W_COLUMN: u32 = 51;         // word: invalid-argument | {1}: a column is { offsets: Uint32Array | Int32Array, data: Uint8Array }
export const W_COLUMN_ORDER: u32 = 52;   // word: invalid-argument | {1}: offsets[{2}] is out of order or outside data
export const W_ITERABLE_OR_COLUMN: u32 = 53; // word: invalid-argument | {1} must be an iterable or a column { offsets, data }
export const W_KEEP_MASK: u32 = 54;      // word: internal-error | the core's keep-mask has {1} members for {2} keys
export const W_NOT_PLAIN: u32 = 55;      // word: unsupported-value | cannot fingerprint a non-plain object at {1}: only plain objects, arrays, strings, numbers, booleans, null, Dates and objects with toJSON are allowed (D15)
export const W_STRINGS_HOLDING: u32 = 56; // word: invalid-argument | {1} must be an array of strings, got an array holding {2}

// The path of a value a host refuses (D15, D16, D20) is written by the core
// (pipeline/path.ts); the path is the last parameter of every word that names one.
export const W_GO_VALUE: u32 = 60;       // word: unsupported-value | cannot fingerprint a value of type {1} at {2}
export const W_GO_VALUE_CAUSE: u32 = 61; // word: unsupported-value | cannot fingerprint a value of type {1} at {3}: {2}
export const W_GO_UTF8: u32 = 62;        // word: invalid-utf8 | cannot fingerprint a string that is not valid UTF-8 at {1}

// A batch item's error the host found itself (a value D15 rejects as it is written) is named as the core
// names its own: the host asks for this word with {2} empty ("item 3: ") and appends the message it holds.
export const W_ITEM: u32 = 63;           // word: - | item {1}: {2}

// Go's own: a json.Number that is no number, invalid UTF-8 inside a marshaled value, a tools value
// encoding/json refuses, a closed Recording.
export const W_GO_UTF8_IN: u32 = 64;     // word: invalid-utf8 | cannot fingerprint a string that is not valid UTF-8 in a value of type {1} at {2}
export const W_GO_NUMBER: u32 = 65;      // word: unsupported-value | cannot fingerprint json.Number {1}, not a JSON number, at {2}
export const W_GO_TOOLS: u32 = 66;       // word: invalid-argument | tools: {1}
export const W_GO_CLOSED: u32 = 67;      // word: invalid-argument | the recording is closed
