import { defineConfig } from "vitest/config";
import { NO_HUB } from "./test/helpers/no-hub.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // Daemons that tests start as processes inherit it: their automatic model pull asks loopback only.
    env: NO_HUB,
  },
});
