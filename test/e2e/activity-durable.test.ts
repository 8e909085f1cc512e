import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { readAll } from "../../src/client/transport.js";
import { OFFLINE, removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

const homes: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const h of homes) removeHome(h);
});

/** An ask read to its last line (answered), with its learning id. */
async function answered(client: KboxClient, kbid: string, query: string): Promise<string> {
  const res = await client.raw({
    method: "POST",
    path: `/api/v1/kb/${kbid}/ask`,
    headers: { "content-type": "application/json", "x-platform-user": "kim" },
    body: JSON.stringify({ query, audit_metadata: { run: "before-kill" } }),
  });
  const text = (await readAll(res.body)).toString("utf8");
  expect(res.status).toBe(200);
  expect(text).toContain('"type":"answer"');
  return String(res.headers["nuclia-learning-id"]);
}

describe("activity across kill -9", () => {
  it("keeps the rows of every answered ask, feedback included", async () => {
    const home = tempHome();
    homes.push(home);
    const first = await spawnTestDaemon(home, [], OFFLINE);
    children.push(first.child);
    const kbid = (await first.client.call(kbs.createKb, { body: { slug: "durable-activity" } })).uuid;
    await first.client.call(resources.createResource, {
      params: { kbid },
      body: { title: "Cats", texts: { body: { body: "Cats sleep between 12 and 16 hours a day. Cats purr when content." } } },
    });
    // Wait until the resource is indexed (a find returns it).
    for (let i = 0; i < 200; i++) {
      const f = await rawCall(first.client, "POST", `/api/v1/kb/${kbid}/find`, { query: "cats sleep" });
      if (Object.keys((f.json as { resources: object }).resources).length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ids: string[] = [];
    for (const q of ["How long do cats sleep?", "Why do cats purr?", "Do cats sleep a lot?"])
      ids.push(await answered(first.client, kbid, q));
    const fb = await rawCall(first.client, "POST", `/api/v1/kb/${kbid}/feedback`, { ident: ids[1], good: true, task: "CHAT" });
    expect(fb.status).toBe(200);
    // Killed at once: the rows are in the journal only (tables get them about a second later).
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));

    const second = await spawnTestDaemon(home, [], OFFLINE);
    children.push(second.child);
    const month = new Date().toISOString().slice(0, 7);
    const r = await rawCall(second.client, "POST", `/api/v1/kb/${kbid}/activity/ask/query`, {
      year_month: month,
      filters: { audit_metadata: [{ key: "run", eq: "before-kill" }] },
      show: ["learning_id", "user_id", "feedback_good", "answer"],
      pagination: { limit: 100 },
    });
    expect(r.status).toBe(200);
    const rows = r.text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((x) => x.learning_id)).toEqual(ids);
    expect(rows.map((x) => x.feedback_good)).toEqual([null, true, null]);
    expect(rows.every((x) => x.user_id === "kim" && String(x.answer).length > 0)).toBe(true);
    second.child.kill("SIGTERM");
    await new Promise((res) => second.child.once("exit", res));
  });
});
