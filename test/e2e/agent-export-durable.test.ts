import { afterAll, describe, expect, it } from "vitest";
import * as audit from "../../src/api/agent-audit.js";
import * as cfg from "../../src/api/agent-config.js";
import * as kbs from "../../src/api/kbs.js";
import { readAll } from "../../src/client/transport.js";
import { OFFLINE, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";

// An agent's export is stored in its tables: the download link still works after kboxd restarts.
const home = tempHome();
let d: TestDaemon | undefined;
afterAll(async () => {
  await d?.stop();
});

const newAgent = async (t: TestDaemon, slug: string) =>
  (
    await t.client.call(kbs.accountCreateKb, {
      params: { account_id: "local" },
      body: { slug, title: slug, mode: "agent" } as never,
    })
  ).id;

const snapshot = async (t: TestDaemon, agent_id: string) => ({
  drivers: await t.client.call(cfg.listDrivers, { params: { agent_id } }),
  rules: await t.client.call(cfg.getRules, { params: { agent_id } }),
  prompts: await t.client.call(cfg.listPrompts, { params: { agent_id } }),
});

describe("agent exports", () => {
  it("survive a daemon restart and import into a new agent", async () => {
    const first = await startTestDaemon({ home, keepHome: true, env: OFFLINE });
    const { uuid: kbid } = await first.client.call(kbs.createKb, { body: { slug: "notes", title: "Notes" } as never });
    const agent = await newAgent(first, "keeper");
    await first.client.call(cfg.addDriver, {
      params: { agent_id: agent },
      body: { identifier: "notes", name: "Notes", provider: "local", config: { kbid } },
    });
    await first.client.call(cfg.setRules, { params: { agent_id: agent }, body: { rules: ["Answer briefly"] } });
    await first.client.call(cfg.addPrompt, {
      params: { agent_id: agent },
      body: { name: "tone", description: "", prompt: "Be kind." },
    });
    const want = await snapshot(first, agent);
    const ex = await first.client.call(audit.exportAgent, {
      params: { agent_id: agent },
      body: { passphrase: "a passphrase that survives" },
    });
    const hours = (Date.parse(ex.expires) - Date.now()) / 3600e3;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
    await first.stop();

    d = await startTestDaemon({ home, env: OFFLINE });
    const res = await d.client.raw({ method: "GET", path: ex.download_url });
    expect(res.status).toBe(200);
    const file = await readAll(res.body);
    expect(file.toString("latin1")).not.toContain("Be kind.");
    const missing = await d.client.raw({ method: "GET", path: `/api/v1/agent/${agent}/export/0123456789abcdef` });
    expect(missing.status).toBe(404);
    await readAll(missing.body);

    const copy = await newAgent(d, "copy");
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(file)]), "agent.kboxagent");
    form.set("passphrase", "a passphrase that survives");
    form.set("overwrite", "false");
    const req = new Request("http://x/", { method: "POST", body: form });
    const imported = await d.client.raw({
      method: "POST",
      path: `/api/v1/agent/${copy}/import`,
      headers: { "content-type": req.headers.get("content-type") as string },
      body: Buffer.from(await req.arrayBuffer()),
    });
    expect(imported.status).toBe(200);
    await readAll(imported.body);
    expect(await snapshot(d, copy)).toEqual(want);
  });
});
