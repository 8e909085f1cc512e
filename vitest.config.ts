import { defineConfig } from "vitest/config";
import { NO_HUB } from "./test/helpers/no-hub.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // Test files share their worker's module cache: each file re-importing the daemon and the CLI through
    // vite cost ~1.7 s (302 of 628 s on this 2-core machine). Tests keep their state in their own temp
    // homes and daemons, and no test mocks a module or changes process-wide settings.
    isolate: false,
    // Daemons that tests start as processes inherit it: their automatic model pull asks loopback only.
    env: NO_HUB,
    // One temporary folder for the run's, removed at its end (test/helpers/tmp-root.ts).
    globalSetup: ["test/helpers/tmp-root.ts"],
  },
});
