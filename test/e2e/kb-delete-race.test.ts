import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon();
});
afterAll(async () => {
  await d.stop();
});

/** Every file and folder under `dir`, relative to it. */
function tree(dir: string, rel = ""): string[] {
  return readdirSync(join(dir, rel)).flatMap((e) => {
    const r = join(rel, e);
    return statSync(join(dir, r)).isDirectory() ? [`${r}/`, ...tree(dir, r)] : [r];
  });
}

describe("deleting a knowledge box while its work is under way", () => {
  it("leaves no folder behind, whatever its ingestion and table upkeep were doing", async () => {
    // Each box gets a resource and is deleted at some point of its processing: its status writes,
    // its extraction output, the sweep of superseded records or a compaction may be under way.
    // Before, a sweep queued after the deletion waited for the box's writes ran after the close and
    // wrote its table's version hint into the folder again (about 1 in 60 boxes on a loaded machine).
    const left: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { uuid } = await d.client.call(kbs.createKb, { body: { slug: `race-${i}` } });
      const dir = join(d.home, "data", "kbs", uuid);
      await d.client.call(resources.createResource, {
        params: { kbid: uuid },
        body: {
          title: "doc",
          files: { f: { file: { filename: "a.txt", payload: Buffer.from(`bytes ${i}`).toString("base64") } } },
        },
      });
      await new Promise((r) => setTimeout(r, (i * 7) % 40));
      await d.client.call(kbs.deleteKb, { params: { kbid: uuid } });
      if (existsSync(dir)) left.push(`box ${i}: ${tree(dir).join(" ")}`);
    }
    expect(left).toEqual([]);
  }, 120_000);
});
