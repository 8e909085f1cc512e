import { Nuclia, ResourceProperties, type UploadStatus, type WritableKnowledgeBox } from "@nuclia/core";
import { firstValueFrom, lastValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { waitIdle } from "./ingest-helpers.js";

// The upstream JavaScript SDK, unchanged, uploads through kboxd's TCP listener (standalone mode).
let d: TestDaemon;
let kb: WritableKnowledgeBox;
let kbid: string;

beforeAll(async () => {
  d = await startTestDaemon({ listen: "127.0.0.1:0", trustRolesHeader: true, env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "sdk-upload" } })).uuid;
  const nuclia = new Nuclia({
    backend: `${d.url}/api`,
    standalone: true,
    zone: "local",
    account: "local",
    knowledgeBox: kbid,
  } as ConstructorParameters<typeof Nuclia>[0]);
  kb = await firstValueFrom(nuclia.db.getKnowledgeBox("local", kbid));
});
afterAll(async () => {
  await d.stop();
});

async function statusOf(rid: string): Promise<string | undefined> {
  const r = await firstValueFrom(kb.getResource(rid, [ResourceProperties.BASIC]));
  return r.metadata?.status;
}

describe("@nuclia/core uploads", () => {
  it("uploads a file directly and the resource reaches PROCESSED", async () => {
    const file = new File(["Direct upload from the SDK about lighthouses.\n\nA second paragraph about the sea."], "direct.txt", {
      type: "text/plain",
    });
    const st = (await lastValueFrom(kb.upload(file, false))) as UploadStatus & { resource?: string; field?: string };
    expect(st.completed).toBe(true);
    expect(st.resource).toMatch(/^[0-9a-f]{32}$/);
    expect(st.field).toBe("file");
    await waitIdle(d.client, kbid);
    expect(await statusOf(st.resource as string)).toBe("PROCESSED");
  });

  it("uploads a multi-chunk file by TUS and the resource reaches PROCESSED", async () => {
    const line = "The TUS upload carries many lines of text about harbours and ships.\n";
    const big = line.repeat(Math.ceil((5.5 * 1024 * 1024) / line.length));
    const file = new File([big], "big-tus.txt", { type: "text/plain" });
    const statuses = (await lastValueFrom(kb.upload(file, true).pipe((s) => s))) as UploadStatus;
    expect(statuses.completed).toBe(true);
    expect(statuses.failed).toBeFalsy();
    await waitIdle(d.client, kbid, 120_000);
    const list = await firstValueFrom(kb.listResources(0, 50));
    const res = list.resources.find((r) => r.title === "big-tus.txt");
    expect(res).toBeDefined();
    expect(await statusOf(res?.id as string)).toBe("PROCESSED");
    const full = await firstValueFrom(kb.getResource(res?.id as string, [ResourceProperties.VALUES]));
    expect(full.data.files?.file?.value?.file?.size).toBe(Buffer.byteLength(big));
  }, 180_000);

  it("uploads into a resource field by TUS", async () => {
    const created = await firstValueFrom(kb.createResource({ title: "Holder" } as never));
    const res = await firstValueFrom(kb.getResource(created.uuid));
    const file = new File(["Field upload by TUS about windmills."], "field.txt", { type: "text/plain" });
    const st = (await lastValueFrom(res.upload("attachment", file, true))) as UploadStatus;
    expect(st.completed).toBe(true);
    await waitIdle(d.client, kbid);
    const again = await firstValueFrom(kb.getResource(created.uuid, [ResourceProperties.BASIC, ResourceProperties.VALUES]));
    expect(again.metadata?.status).toBe("PROCESSED");
    expect(again.data.files?.attachment?.value?.file?.filename).toBe("field.txt");
  });
});
