import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { ApiError } from "../../src/client/errors.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon();
});
afterAll(async () => {
  await d.stop();
});

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

describe("knowledge boxes over the wire", () => {
  it("creates, reads, updates, counts and deletes a knowledge box", async () => {
    const created = await d.client.call(kbs.createKb, { body: { slug: "alpha", title: "Alpha", zone: "ignored" } as never });
    expect(created.slug).toBe("alpha");
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const got = await d.client.call(kbs.getKb, { params: { kbid: created.uuid } });
    expect(got).toMatchObject({
      uuid: created.uuid,
      slug: "alpha",
      config: { title: "Alpha", state: "PUBLISHED", enforce_security: false },
    });
    expect((await d.client.call(kbs.getKbBySlug, { params: { slug: "alpha" } })).uuid).toBe(created.uuid);
    expect((await d.client.call(kbs.listKbs)).kbs.map((k) => k.slug)).toContain("alpha");

    await d.client.call(kbs.updateKb, { params: { kbid: created.uuid }, body: { title: "Alpha 2", description: null } });
    expect((await d.client.call(kbs.getKb, { params: { kbid: created.uuid } })).config.title).toBe("Alpha 2");

    expect(await d.client.call(kbs.counters, { params: { kbid: created.uuid } })).toMatchObject({
      resources: 0,
      paragraphs: 0,
      fields: 0,
    });

    const dir = join(d.home, "data", "kbs", created.uuid);
    await d.client.call(resources.createResource, {
      params: { kbid: created.uuid },
      body: { title: "doc", files: { f: { file: { filename: "a.txt", payload: Buffer.from("bytes").toString("base64") } } } },
    });
    expect(existsSync(join(dir, "blobs"))).toBe(true);
    expect((await d.client.call(kbs.deleteKb, { params: { kbid: created.uuid } })).uuid).toBe(created.uuid);
    expect(await status(d.client.call(kbs.getKb, { params: { kbid: created.uuid } }))).toBe(404);
    expect(await status(d.client.call(kbs.getKbBySlug, { params: { slug: "alpha" } }))).toBe(404);
    // Deleting a knowledge box removes all its data.
    expect(existsSync(dir)).toBe(false);
    // The slug is free again, for a new box that starts empty.
    const again = await d.client.call(kbs.createKb, { body: { slug: "alpha" } });
    expect(await d.client.call(kbs.counters, { params: { kbid: again.uuid } })).toMatchObject({ resources: 0 });
  });

  it("answers the wire's codes for slug clashes and bad ids", async () => {
    await d.client.call(kbs.createKb, { body: { slug: "taken" } });
    await expect(d.client.call(kbs.createKb, { body: { slug: "taken" } })).rejects.toMatchObject({
      status: 419,
      detail: "Knowledge box already exists",
    });
    await expect(d.client.call(kbs.getKb, { params: { kbid: "not-a-uuid" } })).rejects.toMatchObject({
      status: 404,
      detail: "KnowledgeBox not found. UUID expected.",
    });
    await expect(d.client.call(kbs.getKb, { params: { kbid: "00000000-0000-4000-8000-000000000000" } })).rejects.toMatchObject({
      status: 404,
      detail: "Knowledge Box does not exist",
    });
    const bad = await d.client.call(kbs.createKb, { body: { slug: "Bad Slug!" } }).catch((e) => e);
    expect(bad.status).toBe(422);
    expect(bad.detail[0].loc).toEqual(["body", "slug"]);
  });

  it("defaults the slug to the uuid", async () => {
    const created = await d.client.call(kbs.createKb, { body: {} });
    expect(created.slug).toBe(created.uuid);
  });
});
