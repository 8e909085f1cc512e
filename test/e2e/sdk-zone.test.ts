import type { Nuclia, WritableKnowledgeBox } from "@nuclia/core";
import { firstValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RemoteZone, startRemoteZone, zoneSdk } from "../helpers/zone.js";

// The upstream JavaScript SDK, unchanged, in zone mode: management calls on its global and regional hosts.
let z: RemoteZone;
let nuclia: Nuclia;
let kb: WritableKnowledgeBox;

beforeAll(async () => {
  z = await startRemoteZone("europe-9");
  nuclia = zoneSdk(z.url, { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key });
});
afterAll(async () => {
  await z.stop();
});

describe("@nuclia/core in zone mode", () => {
  it("creates a knowledge box in the account and reads it back", async () => {
    kb = await firstValueFrom(
      nuclia.db.createKnowledgeBox(z.account.id, { slug: "zone-kb", title: "Zone KB", zone: z.name } as never, z.name),
    );
    expect(kb.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(kb.slug).toBe("zone-kb");
    expect(kb.title).toBe("Zone KB");
    // It went to the account path, on the regional host, not to the standalone /kbs.
    const built = (nuclia as unknown as { builtUrls: string[] }).builtUrls;
    expect(built).toContain(`https://europe-9.rag.kbox.test/api/v1/account/${z.account.id}/kbs`);
    expect(built.some((u) => u.endsWith("/api/v1/kbs"))).toBe(false);
  });

  it("lists the account's knowledge boxes through zones and the KB index", async () => {
    const list = await firstValueFrom(nuclia.db.getKnowledgeBoxes(z.account.slug, z.account.id));
    expect(list.map((k) => k.slug)).toEqual(["zone-kb"]);
    expect(list[0]).toMatchObject({ zone: z.name, role_on_kb: "SOWNER" });
  });

  it("modifies the knowledge box", async () => {
    await firstValueFrom(kb.modify({ title: "Renamed", description: "from the SDK" }));
    const again = await firstValueFrom(nuclia.db.getKnowledgeBox(z.account.id, kb.id, z.name));
    expect(again.title).toBe("Renamed");
    expect(again.description).toBe("from the SDK");
  });

  it("invites, and manages users once the invitation is accepted", async () => {
    const invite = (await firstValueFrom(
      kb.inviteToKb({ email: "ana@example.com", role: "SMEMBER", came_from: "http://test" } as never),
    )) as unknown as { token: string };
    expect((await firstValueFrom(kb.getInvites())).map((i) => i.email)).toEqual(["ana@example.com"]);
    const accepted = await fetch(`${z.url}/api/v1/invites/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invite.token, name: "Ana" }),
    });
    expect(accepted.status).toBe(201);
    const { user_id } = (await accepted.json()) as { user_id: string };
    expect(await firstValueFrom(kb.getInvites())).toEqual([]);
    expect(await firstValueFrom(kb.getUsers())).toEqual([
      { id: user_id, role: "SMEMBER", email: "ana@example.com", name: "Ana" },
    ]);
    await firstValueFrom(kb.updateUsers({ update: [{ id: user_id, role: "SCONTRIBUTOR" }] } as never));
    expect((await firstValueFrom(kb.getUsers()))[0].role).toBe("SCONTRIBUTOR");
    await firstValueFrom(kb.inviteToKb({ email: "bo@example.com", role: "SOWNER", came_from: "http://test" } as never));
    await firstValueFrom(kb.deleteInvite("bo@example.com"));
    expect(await firstValueFrom(kb.getInvites())).toEqual([]);
  });

  it("manages service accounts and keys; a key it creates reads the knowledge box", async () => {
    const expires = new Date(Date.now() + 3600e3).toISOString();
    const { token } = await firstValueFrom(kb.createKeyForService({ title: "reader", role: "SMEMBER" } as never, expires));
    expect(token).toMatch(/^kbox_sa_/);
    const sas = await firstValueFrom(kb.getServiceAccounts());
    expect(sas.map((s) => [s.title, s.role, s.keys?.length])).toEqual([["reader", "SMEMBER", 1]]);
    const res = await fetch(`${z.url}/api/v1/kb/${kb.id}`, { headers: { "x-nuclia-serviceaccount": `Bearer ${token}` } });
    expect(res.status).toBe(200);
    await firstValueFrom(kb.deleteKey(sas[0].id, sas[0].keys![0].id));
    const after = await fetch(`${z.url}/api/v1/kb/${kb.id}`, { headers: { "x-nuclia-serviceaccount": `Bearer ${token}` } });
    expect(after.status).toBe(401);
    await firstValueFrom(kb.deleteServiceAccount(sas[0].id));
    expect(await firstValueFrom(kb.getServiceAccounts())).toEqual([]);
  });

  it("creates a temporal (ephemeral) token that reads the knowledge box", async () => {
    const token = await firstValueFrom(kb.getTempToken());
    expect(token.split(".")).toHaveLength(3);
    const res = await fetch(`${z.url}/api/v1/kb/${kb.id}?eph-token=${token}`);
    expect(res.status).toBe(200);
    // Read only: it cannot write.
    const write = await fetch(`${z.url}/api/v1/kb/${kb.id}/resources?eph-token=${token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "x" }),
    });
    expect(write.status).toBe(403);
  });

  it("deletes the knowledge box", async () => {
    await firstValueFrom(kb.delete());
    expect(await firstValueFrom(nuclia.db.getKnowledgeBoxes(z.account.slug, z.account.id))).toEqual([]);
  });
});
