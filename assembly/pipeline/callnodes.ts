// The call the pipeline read last: the tape nodes of its members (-1 where
// absent) and what chose its selection. One fixed record: the call reader
// fills it (call.ts; shapes.ts for a provider's shape; tools.ts when a
// declaration replaces the selection), the pipeline (process.ts) and the
// operations above it read it. Its nodes are valid while the call's tape is.
// Internal; engine module only.

@unmanaged export class CallNodes {
  name: i32;
  kind: i32;
  matchOn: i32;
  ignoreArgs: i32;
  /** The args (JSON null when the call has none, D2). */
  args: i32;
  /** The recorded "fingerprint" string. */
  recorded: i32;
  /** Which declaration chose the selection (tools.ts: DECLARED_NONE, DECLARED_CALL, DECLARED_TOOLS). */
  declared: i32;

  /** No call read yet: every member absent. */
  clear(): void {
    this.name = this.kind = this.matchOn = this.ignoreArgs = this.args = this.recorded = -1;
    this.declared = 0;
  }
}

// Static data inside a function: a module-level memory.data would be laid out
// in the fingerprint module too, which never reads a call (its import graph holds this file).
/** The record readCall fills (call.ts): the last call read. */
export function lastCall(): CallNodes {
  return changetype<CallNodes>(memory.data(offsetof<CallNodes>(), 4));
}
