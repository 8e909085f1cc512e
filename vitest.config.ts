import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // Daemons that tests start as processes inherit it: their automatic model pull asks loopback only
    // (nothing listens there), never the public hub (test/helpers/daemon.ts NO_HUB says the same).
    env: { KBOX_HF_ENDPOINT: "http://127.0.0.1:9" },
  },
});
