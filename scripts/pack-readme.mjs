// npm lifecycle helper: the tarball carries the users' README (npm/README.md),
// the repository keeps the developers' README.md. npm always packs the root
// README.md, so `prepack` swaps the users' one in and `postpack` puts the
// developers' one back. The backup lives in the system temp folder under a
// name derived from this checkout's path (no scratch file in the project, no
// clash between checkouts); a pack interrupted between the two steps is
// repaired by the next `prepack` or `postpack`. Not shipped.
//
//   node scripts/pack-readme.mjs swap      (prepack, after the build)
//   node scripts/pack-readme.mjs restore   (postpack)
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const README = join(ROOT, "README.md");
const USERS = join(ROOT, "npm", "README.md");
const BACKUP = join(tmpdir(), `overturn-fingerprint-README-${createHash("sha256").update(ROOT).digest("hex").slice(0, 16)}.md`);

// Copy, then unlink: the temp folder may be on another file system than the checkout.
function restore() {
  if (!existsSync(BACKUP)) return;
  copyFileSync(BACKUP, README);
  unlinkSync(BACKUP);
}

const step = process.argv[2];
if (step === "swap") {
  restore();
  copyFileSync(README, BACKUP);
  copyFileSync(USERS, README);
} else if (step === "restore") {
  restore();
} else {
  console.error("usage: node scripts/pack-readme.mjs swap|restore");
  process.exit(2);
}
