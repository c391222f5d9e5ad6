// The fenced code blocks of the user documents, and what each must do.
// Rules (CONTRIBUTING.md "Documents"; python/tests/test_doc_blocks.py reads
// the same files by the same rules):
// - ```ts / ```js / ```python: a whole program, run from the repository root;
//   ```sh: one command a line; ```console: `$ command` lines, each followed
//   by its output. Every other tag (json, text, go…) is data, not run.
// - A run block followed directly (one blank line) by a ```text block must
//   print exactly that text on stdout.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(__dirname, "..", "..");

/** The documents whose blocks are run: the READMEs for users and everything in docs/. */
export const DOCUMENTS = [
  "README.md", "CONTRIBUTING.md", "python/README.md", "bench/README.md",
  ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`),
];

export interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  /** The ```text block right after it: the stdout it must print. */
  expected?: string;
  id: string;
}

export function blocksOf(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const fences = [...text.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)];
  return fences.map((m, i) => {
    const line = text.slice(0, m.index).split("\n").length;
    const next = fences[i + 1];
    const between = next ? text.slice(m.index! + m[0].length, next.index) : "";
    const expected = next && next[1] === "text" && between === "\n\n" ? next[2] : undefined;
    return { file, line, lang: m[1], code: m[2], expected, id: `${file}:${line} (${m[1] || "untagged"})` };
  });
}

export const ALL_BLOCKS = DOCUMENTS.flatMap(blocksOf);

/** One command of a ```sh or ```console block, with the output a console block shows for it. */
export interface Command {
  block: Block;
  command: string;
  /** console: the lines after `$ command`; sh: the block's ```text, when it is the block's only command. */
  expected?: string;
}

export function commandsOf(block: Block): Command[] {
  if (block.lang === "sh") {
    const lines = block.code.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
    return lines.map((command) => ({ block, command: command.replace(/\s+#.*$/, ""), expected: lines.length === 1 ? block.expected : undefined }));
  }
  if (block.lang === "console") {
    const parts = block.code.split(/^\$ /m).slice(1);
    return parts.map((p) => {
      const nl = p.indexOf("\n");
      return { block, command: p.slice(0, nl), expected: p.slice(nl + 1) };
    });
  }
  return [];
}
