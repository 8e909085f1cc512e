import { Nuclia, ResourceProperties, type WritableKnowledgeBox } from "@nuclia/core";
import { firstValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as resources from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

// The upstream JavaScript SDK, unchanged, in standalone mode against kboxd --listen --trust-roles-header.
let d: TestDaemon;
let nuclia: Nuclia;

beforeAll(async () => {
  d = await startTestDaemon({ listen: "127.0.0.1:0", trustRolesHeader: true });
  nuclia = new Nuclia({ backend: `${d.url}/api`, standalone: true, zone: "local", account: "local" } as ConstructorParameters<
    typeof Nuclia
  >[0]);
});
afterAll(async () => {
  await d.stop();
});

describe("@nuclia/core in standalone mode", () => {
  let kb: WritableKnowledgeBox;
  let rid: string;

  it("creates a knowledge box", async () => {
    kb = await firstValueFrom(nuclia.db.createKnowledgeBox("local", { slug: "sdk-kb", title: "From the SDK" } as never));
    expect(kb.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(kb.slug).toBe("sdk-kb");
    expect(kb.title).toBe("From the SDK");
  });

  it("lists knowledge boxes", async () => {
    const list = await firstValueFrom(nuclia.db.getStandaloneKbs());
    expect(list.map((k) => k.slug)).toContain("sdk-kb");
    const again = await firstValueFrom(nuclia.db.getKnowledgeBox("local", kb.id));
    expect(again.slug).toBe("sdk-kb");
  });

  it("creates a resource with a text field", async () => {
    const res = await firstValueFrom(
      kb.createResource({
        title: "SDK resource",
        slug: "sdk-res",
        texts: { body: { body: "Written by the JavaScript SDK.", format: "PLAIN" } },
      } as never),
    );
    expect(res.uuid).toMatch(/^[0-9a-f]{32}$/);
    rid = res.uuid;
    // The daemon has it, as the socket client sees it.
    const got = await d.client.call(resources.getResource.byId, { params: { kbid: kb.id, rid }, query: { show: ["values"] } });
    expect((got.data as { texts: { body: { value: { body: string } } } }).texts.body.value.body).toBe(
      "Written by the JavaScript SDK.",
    );
  });

  it("lists resources and reads one back, by id and by slug", async () => {
    const list = await firstValueFrom(kb.listResources());
    expect(list.pagination).toMatchObject({ page: 0, last: true });
    expect(list.resources.map((r) => r.id)).toEqual([rid]);
    expect(list.resources[0].title).toBe("SDK resource");

    const r = await firstValueFrom(kb.getResource(rid, [ResourceProperties.BASIC, ResourceProperties.VALUES]));
    expect(r.id).toBe(rid);
    expect(r.title).toBe("SDK resource");
    expect(r.data.texts?.body?.value?.body).toBe("Written by the JavaScript SDK.");
    expect(r.metadata?.status).toMatch(/^(PENDING|PROCESSED)$/);

    const bySlug = await firstValueFrom(kb.getResourceBySlug("sdk-res"));
    expect(bySlug.id).toBe(rid);
    expect(await firstValueFrom(kb.hasResource("sdk-res"))).toBe(true);
    expect(await firstValueFrom(kb.hasResource("missing"))).toBe(false);
  });

  it("modifies and deletes a resource", async () => {
    const r = await firstValueFrom(kb.getResource(rid));
    await firstValueFrom(r.modify({ title: "Changed" }));
    expect((await firstValueFrom(kb.getResource(rid))).title).toBe("Changed");
    await firstValueFrom(r.delete());
    expect((await firstValueFrom(kb.listResources())).resources).toEqual([]);
  });
});
