// `npm test`: every test stage in order, each one even when an earlier one
// failed, so a newcomer sees every problem from one run; then one summary of
// all stages (last line `stages: N passed, N failed`, which CI reads) and
// exit 1 if any failed. Test-only tooling; not shipped.
//
//   node scripts/test-all.mjs                 all stages
//   node scripts/test-all.mjs vitest pack     only the named stages
import { fileURLToPath } from "node:url";
import { runStages } from "./_stages.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const node = process.execPath;
const bin = (name) => `node_modules/.bin/${name}`;

// The build stage comes first because vitest reads the test wasm and the
// runtime matrix packs dist/, but a failed build does not stop the others:
// they then report their own, more specific failures.
// An existing .venv gets this tree's Python package first: the CLI vectors
// runner (vitest) drives the Python CLI from it, which must not be stale.
const REFRESH_VENV = "[ ! -x .venv/bin/python ] || PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore " +
  ".venv/bin/python -m pip install -q --force-reinstall --no-deps ./python";
const STAGES = [
  ["build", [[node, ["scripts/build-test-wasm.mjs"]], [bin("tsup"), ["--silent"]], ["bash", ["-c", REFRESH_VENV]]]],
  ["vitest", [[bin("vitest"), ["run"]]]],
  ["runtimes", [[node, ["scripts/test-runtimes.mjs"]]]],
  ["pack", [[node, ["scripts/test-pack.mjs"]]]],
  ["python", [["bash", ["scripts/test-python.sh"]]]],
  // The same suite on the oldest and newest supported Python (3.9, 3.13), each in its own venv.
  ["python-versions", [["bash", ["scripts/test-python-versions.sh"]]]],
  // The Go host (go/): its Go-value vectors must be the oracle's, then go test -race.
  ["go", [[node, ["scripts/gen-go-vectors.mjs", "--check"]], ["bash", ["scripts/test-go.sh"]]]],
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !STAGES.some(([name]) => name === w));
if (unknown.length) {
  console.error(`unknown stage ${unknown.join(", ")}; stages: ${STAGES.map(([n]) => n).join(", ")}`);
  process.exit(2);
}
const failed = await runStages(STAGES.filter(([name]) => !wanted.length || wanted.includes(name)), ROOT);
process.exitCode = failed ? 1 : 0;
