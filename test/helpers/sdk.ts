// Loads the SDK under test: the built bundle (dist/), i.e. what npm users get.
// Built by `tsup` in the test command before vitest runs.
export * from "../../dist/index.js";
