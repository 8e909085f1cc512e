import { describe, expect, it } from "vitest";
import { startDaemon } from "../../daemon/server.js";
import * as daemonApi from "../../src/api/daemon.js";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { removeHome, startTestDaemon, tempHome } from "../helpers/daemon.js";

describe("extraction workers", () => {
  it("run as many as KBOX_EXTRACT_WORKERS says, and the daemon status shows them", async () => {
    const d = await startTestDaemon({ env: { KBOX_EXTRACT_WORKERS: "1" } });
    try {
      const before = await d.client.call(daemonApi.status);
      expect(before.extract_workers).toEqual({ workers: 0, rss_bytes: 0 }); // started on first need
      const kb = await d.client.call(kbs.createKb, { body: { slug: "w" } });
      for (const n of [1, 2, 3]) {
        await d.client.call(api.createResource, {
          params: { kbid: kb.uuid },
          // A conversation goes to a worker process (small text fields are extracted on the daemon's thread).
          body: {
            conversations: { c: { messages: [{ ident: "m1", content: { text: `Document ${n}. It has two sentences.` } }] } },
          },
        });
      }
      await d.daemon.services.processing.idle();
      const after = await d.client.call(daemonApi.status);
      expect(after.extract_workers?.workers).toBe(1);
      expect(after.extract_workers?.rss_bytes).toBeGreaterThan(10 * 2 ** 20);
      const list = await d.client.call(api.listResources, { params: { kbid: kb.uuid } });
      expect(list.resources.map((r) => r.metadata?.status)).toEqual(["PROCESSED", "PROCESSED", "PROCESSED"]);
    } finally {
      await d.stop();
    }
  }, 60_000);

  it("a daemon refuses to start with a KBOX_EXTRACT_WORKERS that is not a count", async () => {
    const home = tempHome();
    try {
      await expect(startDaemon({ env: { KBOX_HOME: home, KBOX_EXTRACT_WORKERS: "two" } as NodeJS.ProcessEnv })).rejects.toThrow(
        /KBOX_EXTRACT_WORKERS must be a whole number/,
      );
    } finally {
      removeHome(home);
    }
  });
});
