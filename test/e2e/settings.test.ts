import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDaemon } from "../../daemon/server.js";
import { kboxPaths } from "../../src/api/paths.js";
import { removeHome, startTestDaemon, tempHome } from "../helpers/daemon.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) removeHome(h);
});
const home = () => {
  const h = tempHome();
  homes.push(h);
  return h;
};

describe("kboxd settings", () => {
  it("kboxd refuses to start with a bad setting, naming it, and leaves no pid or socket behind", () => {
    const h = home();
    const r = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "../../bin/kboxd.ts")], {
      env: { ...process.env, KBOX_HOME: h, KBOX_INGEST_RETRY_DEADLINE: "tomorrow", KBOX_MODELS_AUTOPULL: "2" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'kboxd: KBOX_INGEST_RETRY_DEADLINE must be a duration such as 60s, 10m or 24h, not "tomorrow"; KBOX_MODELS_AUTOPULL must be 1 or 0, not "2"\n',
    );
    const paths = kboxPaths({ KBOX_HOME: h });
    expect(existsSync(paths.pid)).toBe(false);
    expect(existsSync(paths.socket)).toBe(false);
  });

  it("startDaemon reads its settings from the env it is given, not the process's", async () => {
    const h = home();
    await expect(startDaemon({ env: { KBOX_HOME: h, KBOX_ANN_MIN_ROWS: "some" } })).rejects.toThrow(
      'KBOX_ANN_MIN_ROWS must be a whole number of at least 0, not "some"',
    );
    const d = await startTestDaemon({ env: { KBOX_INGEST_CONCURRENCY: "3", KBOX_CONTEXT_TOKENS: "900" } });
    try {
      expect(d.daemon.services.processing.concurrency).toBe(3);
      expect(d.daemon.services.settings.ask.contextTokens).toBe(900);
      expect(d.daemon.services.settings.paths.home).toBe(d.home);
      // LanceDB reads its own variable from the process: set at start, before any table opened.
      expect(process.env.LANCE_FTS_PARTITION_SIZE).toBe("256");
    } finally {
      await d.stop();
    }
  });
});
