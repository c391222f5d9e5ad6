/**
 * Tool declarations: `{"create_ticket": {"matchOn": [...]},
 * "search_docs": {"ignoreArgs": [...]}}`, as an object or as the JSON text of
 * a tools.json file. The core checks and applies them (assembly/pipeline/tools.ts);
 * this host only hands their JSON text over. Internal helpers, public types.
 * @module
 */
import { W_OBJECT, W_TOOLS } from "./_abi.gen.js";
import { hostError, typeWord } from "./errors.js";

/** What one tool declares: the selection for every call of it (D9: matchOn wins). */
export interface ToolDeclaration {
  matchOn?: readonly string[] | null;
  ignoreArgs?: readonly string[] | null;
}

/** Declarations by tool name. */
export type ToolDeclarations = Record<string, ToolDeclaration>;

/** Options of the call functions that read declarations. */
export interface CallOptions {
  /** Tool declarations, or their JSON text (the contents of a tools.json). */
  tools?: ToolDeclarations | string;
}

/** The declarations' JSON text as UTF-8, for the core; undefined when none. */
export function toolsText(options: CallOptions | undefined): Uint8Array | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null) throw hostError(W_OBJECT, ["options", typeWord(options)]);
  const tools = options.tools;
  if (tools === undefined || tools === null) return undefined;
  if (typeof tools !== "string" && typeof tools !== "object") throw hostError(W_TOOLS, [typeWord(tools)]);
  // Plain data (names and lists of strings): its JSON text is what a tools.json
  // holds; the core checks its shape (an array is its error, not this host's).
  return new TextEncoder().encode(typeof tools === "string" ? tools : JSON.stringify(tools));
}
