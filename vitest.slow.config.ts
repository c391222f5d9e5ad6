import { defineConfig } from "vitest/config";
import base from "./vitest.config";

// npm run test:slow: the opt-in slow-*.test.ts (timing needs a quiet machine).
export default defineConfig({ test: { ...base.test, include: ["test/**/slow-*.test.ts"], exclude: ["node_modules/**"] } });
