import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";

// `kbox nua` and `kbox predict` on the local daemon (socket) and on a second kboxd as a remote zone with a NUA key.
let local: TestDaemon;
let remote: RemoteZone;
let clientHome: string;

beforeAll(async () => {
  [local, remote] = await Promise.all([startTestDaemon({ env: { KBOX_MODELS_AUTOPULL: "0" } }), startRemoteZone("nua-cli")]);
  local.daemon.services.models.registerEmbedder("hash64", new HashEmbedder(64));
  clientHome = tempHome("kbox-c-");
});
afterAll(async () => {
  await Promise.all([local.stop(), remote.stop()]);
  rmSync(clientHome, { recursive: true, force: true });
});

const ok = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.code, r.stderr).toBe(0);
  return r;
};
const json = (r: { code: number; stdout: string; stderr: string }) => JSON.parse(ok(r).stdout);

describe("kbox nua and kbox predict", () => {
  it("manage clients and process a text on the local daemon", async () => {
    const cli = local.cli;
    const created = ok(await cli(["nua", "client", "create", "ndb", "--tokens-limit", "1000"]));
    expect(created.stdout.trim()).toMatch(/^kbox_nua_/);
    expect(created.stderr).toMatch(/created understanding client [0-9a-f-]{36}/);
    const list = json(await cli(["nua", "client", "list", "--json"]));
    const id = list.clients[0].client_id;
    expect(list.clients).toEqual([expect.objectContaining({ title: "ndb", tokens_limit: 1000, tokens_used: 0 })]);
    const piped = ok(await cli(["nua", "client", "list"]));
    expect(piped.stdout).toBe(`${id}\tndb\t0/1000\t\t${list.clients[0].created}\n`);
    expect(json(await cli(["nua", "client", "update", id, "--no-limit", "--json"])).tokens_limit).toBeNull();
    expect((await cli(["nua", "client", "update", id])).code).toBe(2);
    const renewed = ok(await cli(["nua", "client", "key", id]));
    expect(renewed.stdout.trim()).not.toBe(created.stdout.trim());

    // The socket's owner processes through the account's local client.
    const done = json(
      await cli(["nua", "process", "Tides rise twice a day in the northern bay.", "--model", "hash64", "--wait", "--json"]),
    );
    expect(done).toMatchObject({ completed: true, failed: false });
    expect(done.response.fields["t/text"].paragraphs[0].vectors.hash64).toHaveLength(64);
    const table = ok(await cli(["nua", "processed", "show", done.processing_id]));
    expect(table.stdout).toMatch(/^t\/text\tPROCESSED\t\d+\t1\thash64$/m);
    const listed = json(await cli(["nua", "processed", "list", "--json"]));
    expect(listed.results.map((r: { processing_id: string }) => r.processing_id)).toEqual([done.processing_id]);
    expect((await cli(["nua", "process", "  "])).code).toBe(2);

    const q = json(await cli(["predict", "query", "when do the tides rise", "--json"]));
    expect(q).toMatchObject({ query: "when do the tides rise", language: "en" });
    expect(ok(await cli(["predict", "models"])).stdout).toMatch(/GENERATIVE/);
    const answer = ok(await cli(["predict", "chat", "When do tides rise?", "-c", "Tides rise twice a day."]));
    expect(answer.stdout).toContain("Tides rise twice a day");
    expect(ok(await cli(["nua", "client", "delete", id, "--yes"])).stderr).toMatch(/deleted/);
    expect(json(await cli(["nua", "client", "list", "--json"])).clients.map((c: { title: string }) => c.title)).toEqual([
      "local",
    ]);
  });

  it("process a file with --follow on a remote zone logged in with a NUA key", async () => {
    const res = await fetch(`${remote.url}/api/v1/account/${remote.account.id}/nua_clients`, {
      method: "POST",
      headers: { "x-nuclia-serviceaccount": `Bearer ${remote.key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "remote" }),
    });
    const { token } = (await res.json()) as { token: string };
    const env = { KBOX_HOME: clientHome, KBOX_CREDENTIAL_STORE: "file", NO_COLOR: "1" };
    const cli = (args: string[], stdin?: string) => runCli(args, env, { stdin });
    ok(await cli(["auth", "login", "--kind", "nua-key", "--zone", remote.url, "--profile", "nua", "--api-key", "-"], token));
    const file = join(clientHome, "notes.md");
    writeFileSync(file, "# Harbour\n\nThe harbour master counts boats at dawn.\n");
    const events = ok(await cli(["nua", "process", file, "--follow", "--json"]))
      .stdout.trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events[0].type).toBe("scheduled");
    expect(events.at(-1)).toMatchObject({ type: "completed", title: "notes.md" });
    expect(events.at(-1).response.fields["f/file"].text).toContain("counts boats at dawn");
    const listed = json(await cli(["nua", "processed", "list", "--json"]));
    expect(listed.results).toHaveLength(1);
    expect(json(await cli(["predict", "query", "boats at dawn", "--json"])).query).toBe("boats at dawn");
    // The NUA key manages no clients: that needs an account credential.
    expect((await cli(["nua", "client", "list"])).code).not.toBe(0);
  });
});
