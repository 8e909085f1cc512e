import type { Nuclia } from "@nuclia/core";
import { firstValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RemoteZone, startRemoteZone, zoneSdk } from "../helpers/zone.js";

// The upstream JavaScript SDK's NUA calls, unchanged, against kboxd as a zone.
let z: RemoteZone;
let nuclia: Nuclia;
let withKey: Nuclia;
let clientId: string;

beforeAll(async () => {
  z = await startRemoteZone("nua-sdk");
  const o = { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key };
  nuclia = zoneSdk(z.url, o);
  withKey = zoneSdk(z.url, o);
});
afterAll(async () => {
  await z.stop();
});

describe("@nuclia/core NUA calls in zone mode", () => {
  it("creates a NUA client and lists it through the zones", async () => {
    const created = (await firstValueFrom(
      nuclia.db.createNUAClient(
        z.account.id,
        { title: "sdk", contact: "a@example.com", webhook: "https://hooks.example.com/x" } as never,
        z.name,
      ),
    )) as unknown as { token: string; client_id: string };
    expect(created.token).toMatch(/^kbox_nua_/);
    clientId = created.client_id;
    (withKey.options as { nuaKey?: string }).nuaKey = created.token;
    const clients = await firstValueFrom(nuclia.db.getNUAClients(z.account.id));
    expect(clients).toEqual([
      expect.objectContaining({
        client_id: clientId,
        title: "sdk",
        zone: z.name,
        processing_webhook: { uri: "https://hooks.example.com/x" },
      }),
    ]);
    const one = await firstValueFrom(nuclia.db.getNUAClient(z.account.id, clientId, z.name));
    expect(one).toMatchObject({ client_id: clientId, tokens_used: 0 });
  });

  it("uploads a file to process (upload + push) and pulls the processed result", async () => {
    const file = new File(["The harbour master counts forty boats at anchor."], "harbour.txt", { type: "text/plain" });
    const pushed = (await firstValueFrom(withKey.db.upload(file as never))) as unknown as { processing_id: string; uuid: string };
    expect(pushed.processing_id).toMatch(/^[0-9a-f-]{36}$/);
    let pulled: { status: string; payload?: any } = { status: "empty" };
    for (let i = 0; i < 200 && pulled.status !== "ok"; i++) {
      pulled = (await firstValueFrom(withKey.db.pull())) as never;
      if (pulled.status !== "ok") await new Promise((r) => setTimeout(r, 100));
    }
    expect(pulled.status).toBe("ok");
    expect(pulled.payload.processing_id).toBe(pushed.processing_id);
    expect(pulled.payload.response.fields["f/file"].text).toContain("forty boats at anchor");
  });

  it("analyses a query with the NUA key, and counts its tokens", async () => {
    const q = (await firstValueFrom(withKey.db.predictQuery("Where are the boats anchored?"))) as unknown as Record<
      string,
      unknown
    >;
    expect(q).toMatchObject({ query: "Where are the boats anchored?", language: "en" });
    const tokens = await firstValueFrom(withKey.db.predictTokens("Marie Curie worked in Paris."));
    expect(tokens).toEqual(
      expect.arrayContaining([
        { text: "Marie Curie", ner: "PERSON", start: 0, end: 11 },
        expect.objectContaining({ text: "Paris", ner: "LOC" }),
      ]),
    );
    const usage = await firstValueFrom(nuclia.db.getNUAClient(z.account.id, clientId, z.name));
    expect((usage as unknown as { tokens_used: number }).tokens_used).toBeGreaterThan(0);
  });

  it("renews and deletes the client; the old key stops working", async () => {
    const old = (withKey.options as { nuaKey?: string }).nuaKey;
    const renewed = (await firstValueFrom(nuclia.db.renewNUAClient(z.account.id, clientId, z.name))) as unknown as {
      token: string;
    };
    expect(renewed.token).not.toBe(old);
    const res = await fetch(`${z.url}/api/v1/processing/requests`, { headers: { "x-nuclia-nuakey": `Bearer ${old}` } });
    expect(res.status).toBe(401);
    await firstValueFrom(nuclia.db.deleteNUAClient(z.account.id, clientId, z.name));
    expect(await firstValueFrom(nuclia.db.getNUAClients(z.account.id))).toEqual([]);
  });
});
