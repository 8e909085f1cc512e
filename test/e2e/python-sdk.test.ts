import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarize as summarizeRoute } from "../../src/api/summarize.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { fetchJson } from "../helpers/raw.js";
import { CORPUS, seedKb } from "../helpers/seed-kb.js";
import * as up from "../helpers/upstream-models.js";

// What the upstream Python SDK (nucliadb_sdk with nucliadb_models) sends and parses, over TCP as it
// calls a standalone server: the roles header from loopback, paths under /api/v1.
let d: TestDaemon;
let kbid: string;
let rids: Record<string, string>;

const ROLES = { "x-nucliadb-roles": "MANAGER;WRITER;READER" };

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = ROLES) {
  return fetchJson(`${d.url}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  // The OpenAI stand-in of the summarize test listens on loopback, which a listening daemon refuses by default.
  d = await startTestDaemon({
    listen: "127.0.0.1:0",
    trustRolesHeader: true,
    env: { ...OFFLINE, KBOX_FETCH_ALLOW: "127.0.0.1" },
  });
  const docs = [
    ...CORPUS,
    {
      slug: "chat",
      title: "Support chat",
      body: "A support conversation.",
      conversation: [
        { ident: "m1", who: "alice", text: "Where is the office?" },
        { ident: "m2", who: "bob", text: "The office is in Lisbon." },
      ],
    },
  ];
  ({ kbid, rids } = await seedKb(d, "py-sdk", docs));
}, 60_000);
afterAll(async () => {
  await d.stop();
});

describe("knowledge box and labelsets, as the SDK parses them", () => {
  it("get_knowledge_box and get_knowledge_box_by_slug parse as KnowledgeBoxObj", async () => {
    for (const path of [`/kb/${kbid}`, "/kb/s/py-sdk"]) {
      const r = await call("GET", path);
      expect(r.status).toBe(200);
      const kb = up.KnowledgeBoxObj.parse(r.json);
      expect(kb.uuid).toBe(kbid);
      expect(kb.model?.similarity_function).toBe("cosine");
    }
  });

  it("a labelset set without kind applies to resources; the list carries the box's uuid", async () => {
    expect((await call("POST", `/kb/${kbid}/labelset/colours`, { title: "Colours", labels: [{ title: "red" }] })).status).toBe(
      200,
    );
    const one = up.LabelSet.parse((await call("GET", `/kb/${kbid}/labelset/colours`)).json);
    expect(one.kind).toEqual(["RESOURCES"]);
    const all = up.KnowledgeBoxLabels.parse((await call("GET", `/kb/${kbid}/labelsets`)).json);
    expect(all.uuid).toBe(kbid);
    expect(all.labelsets.colours.kind).toEqual(["RESOURCES"]);
  });
});

describe("fields, as the SDK parses them", () => {
  it("a conversation field GET carries its messages with total, pages and page", async () => {
    const r = await call("GET", `/kb/${kbid}/resource/${rids.chat}/conversation/chat?show=value`);
    expect(r.status).toBe(200);
    const f = up.ResourceField.parse(r.json);
    const conv = up.ConversationPage.parse(f.value);
    expect(conv.messages.map((m) => m.ident)).toEqual(["m1", "m2"]);
    expect(conv).toMatchObject({ total: 2, pages: 1, page: 1 });
    // By slug, with the upstream field-level show values together.
    const all = await call("GET", `/kb/${kbid}/slug/chat/conversation/chat?show=value&show=extracted&show=error`);
    expect(all.status).toBe(200);
    expect(up.ResourceField.parse(all.json).field_id).toBe("chat");
  });

  it("show=extracted serves a complete FieldMetadata", async () => {
    const r = await call("GET", `/kb/${kbid}/resource/${rids.shipping}/text/body?show=extracted&extracted=metadata`);
    expect(r.status).toBe(200);
    const f = up.ResourceField.parse(r.json);
    const meta = f.extracted?.metadata?.metadata;
    expect(meta?.paragraphs.length).toBeGreaterThan(0);
    expect(meta).toMatchObject({ links: [], classifications: [] });
    // The body names Maria Lopez: ingestion found her (daemon/entities).
    expect(meta?.ner["Maria Lopez"]).toBe("PERSON");
    expect(meta?.positions["PERSON/Maria Lopez"]?.position).toHaveLength(1);
    expect(meta?.entities.processor.entities).toContainEqual(expect.objectContaining({ text: "Maria Lopez", label: "PERSON" }));
  });

  it("show=error answers the status", async () => {
    const r = await call("GET", `/kb/${kbid}/resource/${rids.cats}/text/body?show=error`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ field_type: "text", field_id: "body", status: "PROCESSED" });
  });
});

describe("find and ask requests the SDK sends", () => {
  it("top_k 0 is valid: no paragraphs", async () => {
    const r = await call("POST", `/kb/${kbid}/find`, { query: "office", top_k: 0 });
    expect(r.status).toBe(200);
    expect((r.json as { resources: object }).resources).toEqual({});
  });

  it("answer_json_schema as a plain JSON schema is accepted", async () => {
    const schema = {
      title: "office_answer",
      description: "Where the office is",
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    };
    const r = await call(
      "POST",
      `/kb/${kbid}/ask`,
      { query: "Where is the office?", answer_json_schema: schema },
      {
        ...ROLES,
        "x-synchronous": "true",
      },
    );
    expect(r.status).toBe(200);
  });
});

describe("label facets", () => {
  const expected = { "/classification.labels": { "/classification.labels/topic": 1 } };
  it("catalog, catalog facets and search count labels under /classification.labels", async () => {
    const cat = await call("POST", `/kb/${kbid}/catalog`, { query: "", faceted: ["/classification.labels"] });
    expect(cat.status).toBe(200);
    expect((cat.json as { fulltext: { facets: unknown } }).fulltext.facets).toEqual(expected);
    const facets = await call("POST", `/kb/${kbid}/catalog/facets`, { facets: ["/classification.labels"] });
    expect(facets.json).toEqual({ facets: expected });
    const deeper = await call("POST", `/kb/${kbid}/catalog/facets`, { facets: ["/classification.labels/topic"] });
    expect(deeper.json).toEqual({ facets: { "/classification.labels/topic": { "/classification.labels/topic/planning": 1 } } });
    const search = await call("POST", `/kb/${kbid}/search`, { query: "release", faceted: ["/classification.labels"] });
    expect(search.status).toBe(200);
    expect((search.json as { fulltext: { facets: unknown } }).fulltext.facets).toEqual(expected);
  });
});

describe("features: relations", () => {
  let rid: string;
  beforeAll(async () => {
    const r = await call("POST", `/kb/${kbid}/resources`, {
      slug: "people",
      title: "People",
      texts: { body: { body: "Maria Lopez writes the release notes. She lives in Lisbon." } },
      usermetadata: {
        relations: [
          { relation: "ENTITY", to: { type: "entity", value: "Maria Lopez", group: "PERSON" } },
          {
            relation: "OTHER",
            label: "lives in",
            from: { type: "entity", value: "Maria Lopez", group: "PERSON" },
            to: { type: "entity", value: "Lisbon", group: "PLACE" },
          },
        ],
      },
    });
    rid = (r.json as { uuid: string }).uuid;
    await d.daemon.services.processing.idle();
  });

  it("find answers the relations of the entities the query names", async () => {
    const r = await call("POST", `/kb/${kbid}/find`, { query: "Who is Maria Lopez?", features: ["keyword", "relations"] });
    const rel = up.Relations.parse((r.json as { relations: unknown }).relations);
    const related = rel.entities["Maria Lopez"].related_to;
    expect(related).toContainEqual(
      expect.objectContaining({ entity: rid, entity_type: "resource", direction: "in", resource_id: rid }),
    );
    expect(related).toContainEqual(
      expect.objectContaining({ entity: "Lisbon", entity_subtype: "PLACE", relation_label: "lives in", direction: "out" }),
    );
    // Without the feature, none.
    expect((await call("POST", `/kb/${kbid}/find`, { query: "Maria Lopez" })).json).toMatchObject({ relations: null });
  });

  it("a synchronous ask with features relations carries them", async () => {
    const r = await call(
      "POST",
      `/kb/${kbid}/ask`,
      { query: "Where does Maria Lopez live?", features: ["keyword", "relations"] },
      {
        ...ROLES,
        "x-synchronous": "true",
      },
    );
    expect(r.status).toBe(200);
    const sync = up.SyncAskResponse.parse(r.json);
    expect(Object.keys(sync.relations?.entities ?? {})).toEqual(["Maria Lopez"]);
  });
});

describe("standalone routes", () => {
  it("versions and health answer without a key; config-check names the caller", async () => {
    const v = await call("GET", "/versions", undefined, {});
    expect(v.status).toBe(200);
    expect(v.json).toMatchObject({ nucliadb: { installed: expect.any(String), latest: expect.any(String) } });
    for (const p of ["/health/alive", "/health/ready"])
      expect((await call("GET", p, undefined, {})).json).toEqual({ status: "ok" });
    expect((await call("GET", "/config-check", undefined, {})).status).toBe(401);
    const c = await call("GET", "/config-check", undefined, { "x-nucliadb-roles": "READER" });
    expect(c.json).toEqual({
      nua_api_key: { has_key: false, valid: false, error: expect.any(String) },
      user: { username: "roles-header", roles: ["READER"] },
    });
  });

  it("export and import statuses use the upstream values", async () => {
    const { export_id } = (await call("POST", `/kb/${kbid}/export`)).json as { export_id: string };
    let st = up.StatusResponse.parse((await call("GET", `/kb/${kbid}/export/${export_id}/status`)).json);
    for (let i = 0; i < 100 && st.status !== "finished"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      st = up.StatusResponse.parse((await call("GET", `/kb/${kbid}/export/${export_id}/status`)).json);
    }
    expect(st.status).toBe("finished");
    expect(st.total).toBeGreaterThan(0);
    const archive = await fetch(`${d.url}/api/v1/kb/${kbid}/export/${export_id}`, { headers: ROLES });
    const bytes = Buffer.from(await archive.arrayBuffer());
    const target = (await call("POST", "/kbs", { slug: "py-import" })).json as { uuid: string };
    const imp = await fetch(`${d.url}/api/v1/kb/${target.uuid}/import`, {
      method: "POST",
      headers: { ...ROLES, "content-type": "application/octet-stream" },
      body: bytes,
    });
    const { import_id } = (await imp.json()) as { import_id: string };
    // A small import is finished when its call returns.
    const ist = up.StatusResponse.parse((await call("GET", `/kb/${target.uuid}/import/${import_id}/status`)).json);
    expect(ist).toMatchObject({ status: "finished", retries: 0 });
    expect(ist.total).toBeGreaterThanOrEqual(4);
  });
});

describe("knowledge box settings the SDK manages", () => {
  it("custom synonyms round-trip, and a keyword query for a term finds its synonyms", async () => {
    expect((await call("POST", `/kb/${kbid}/find`, { query: "feline", features: ["keyword"] })).json).toMatchObject({
      best_matches: [],
    });
    expect((await call("PUT", `/kb/${kbid}/custom-synonyms`, { synonyms: { feline: ["cats", "kittens"] } })).status).toBe(204);
    expect((await call("GET", `/kb/${kbid}/custom-synonyms`)).json).toEqual({ synonyms: { feline: ["cats", "kittens"] } });
    const r = await call("POST", `/kb/${kbid}/find`, { query: "feline", features: ["keyword"] });
    expect(Object.keys((r.json as { resources: object }).resources)).toEqual([rids.cats]);
    expect((await call("DELETE", `/kb/${kbid}/custom-synonyms`)).status).toBe(204);
    expect((await call("GET", `/kb/${kbid}/custom-synonyms`)).json).toEqual({ synonyms: {} });
  });

  it("key-value schemas: create, list, change, delete, with the model's checks", async () => {
    const schema = {
      name: "product",
      fields: [
        { key: "price", type: "float", range: true },
        { key: "colour", type: "text" },
      ],
    };
    const made = await call("POST", `/kb/${kbid}/kv-schemas`, schema);
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      name: "product",
      description: "",
      fields: [{ key: "price", required: true, range: true }, {}],
    });
    expect((await call("POST", `/kb/${kbid}/kv-schemas`, schema)).status).toBe(409);
    expect(
      (await call("POST", `/kb/${kbid}/kv-schemas`, { name: "bad", fields: [{ key: "x", type: "text", range: true }] })).status,
    ).toBe(422);
    expect(Object.keys(((await call("GET", `/kb/${kbid}/kv-schemas`)).json as { schemas: object }).schemas)).toEqual(["product"]);
    const changed = await call("PATCH", `/kb/${kbid}/kv-schemas/product`, { description: "Things we sell" });
    expect(changed.json).toMatchObject({ name: "product", description: "Things we sell" });
    expect((await call("DELETE", `/kb/${kbid}/kv-schemas/product`)).status).toBe(204);
    expect((await call("GET", `/kb/${kbid}/kv-schemas/product`)).status).toBe(404);
  });

  it("vectorsets map to the box's semantic models: add, list, delete (not the only one)", async () => {
    const { uuid } = (await call("POST", "/kbs", { slug: "py-vectors" })).json as { uuid: string };
    const added = await call("POST", `/kb/${uuid}/vectorsets/bge-small-en-v1.5`);
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ id: "bge-small-en-v1.5" });
    expect((await call("POST", `/kb/${uuid}/vectorsets/bge-small-en-v1.5`)).status).toBe(409);
    expect((await call("POST", `/kb/${uuid}/vectorsets/no-such-model`)).status).toBe(422);
    await call("POST", `/kb/${uuid}/vectorsets/multilingual-e5-small`);
    const list = (await call("GET", `/kb/${uuid}/vectorsets`)).json as { vectorsets: { id: string }[] };
    expect(list.vectorsets.map((v) => v.id)).toEqual(["bge-small-en-v1.5", "multilingual-e5-small"]);
    const conf = (await call("GET", `/kb/${uuid}/configuration`)).json as { semantic_models: string[] };
    expect(conf.semantic_models).toHaveLength(2);
    expect((await call("DELETE", `/kb/${uuid}/vectorsets/bge-small-en-v1.5`)).status).toBe(204);
    expect((await call("DELETE", `/kb/${uuid}/vectorsets/multilingual-e5-small`)).status).toBe(409);
    expect((await call("DELETE", `/kb/${uuid}/vectorsets/nothing`)).status).toBe(404);
  });
});

describe("feedback, reindex, trainset, generative providers", () => {
  it("feedback is stored against an ask's learning id", async () => {
    const ask = await call("POST", `/kb/${kbid}/ask`, { query: "When do releases ship?" }, { ...ROLES, "x-synchronous": "true" });
    const { learning_id } = up.SyncAskResponse.parse(ask.json);
    expect(learning_id).toMatch(/^[0-9a-f]{32}$/);
    const sent = await call("POST", `/kb/${kbid}/feedback`, {
      ident: learning_id,
      good: false,
      task: "CHAT",
      feedback: "Too short",
    });
    expect(sent.status).toBe(200);
    expect((await call("POST", `/kb/${kbid}/feedback`, { ident: learning_id, good: true, task: "SEARCH" })).status).toBe(422);
    const list = (await call("GET", `/kb/${kbid}/feedback?ident=${learning_id}`)).json as { feedback: unknown[] };
    expect(list.feedback).toEqual([
      { ident: learning_id, good: false, task: "CHAT", feedback: "Too short", created: expect.any(String) },
    ]);
  });

  it("reindex rewrites a resource's rows from its record; reindex_vectors processes it again", async () => {
    expect((await call("POST", `/kb/${kbid}/resource/${rids.office}/reindex`)).status).toBe(200);
    expect((await call("POST", `/kb/${kbid}/slug/office/reindex?reindex_vectors=true`)).status).toBe(200);
    const pending = (await call("GET", `/kb/${kbid}/resource/${rids.office}`)).json as { metadata: { status: string } };
    expect(pending.metadata.status).toMatch(/^(PENDING|PROCESSED)$/);
    await d.daemon.services.processing.idle();
    const r = await call("POST", `/kb/${kbid}/find`, { query: "Lisbon desks", features: ["keyword"] });
    expect(Object.keys((r.json as { resources: object }).resources)).toContain(rids.office);
    expect((await call("POST", `/kb/${kbid}/resource/${"0".repeat(32)}/reindex`)).status).toBe(404);
  });

  it("trainset partitions and generative providers", async () => {
    expect((await call("GET", `/kb/${kbid}/trainset`)).json).toEqual({ partitions: [kbid] });
    const g = (await call("GET", `/kb/${kbid}/generative_providers`)).json as Record<string, { name: string; type: string }[]>;
    expect(g.extractive.map((m) => m.name)).toEqual(["extractive"]);
    for (const models of Object.values(g)) for (const m of models) expect(m.type).toBe("generative");
  });
});

describe("summarize", () => {
  it("is extractive by default: the resource's own central sentences, by id or slug", async () => {
    const r = await call("POST", `/kb/${kbid}/summarize`, { resources: [rids.shipping, "cats", "no-such"] });
    expect(r.status).toBe(200);
    const s = r.json as { resources: Record<string, { summary: string; tokens: number }>; summary: string; model: string };
    expect(Object.keys(s.resources).sort()).toEqual([rids.shipping, "cats"].sort());
    const shipping = s.resources[rids.shipping];
    const source = CORPUS.find((d) => d.slug === "shipping")?.body ?? "";
    const sentences = shipping.summary.split(/(?<=[.!?])\s+/);
    expect(sentences).toHaveLength(2);
    for (const sentence of sentences) expect(source).toContain(sentence);
    expect(shipping.tokens).toBeGreaterThan(5);
    expect(s.summary.length).toBeGreaterThan(0);
    expect(s.model).toBe("extractive");
    const extended = (await call("POST", `/kb/${kbid}/summarize`, { resources: ["shipping"], summary_kind: "extended" }))
      .json as {
      resources: Record<string, { summary: string }>;
    };
    expect(extended.resources.shipping.summary.split(/(?<=[.!?])\s+/).length).toBeGreaterThan(2);
  });

  it("is generated by a generative model when one is named", async () => {
    const { OpenAiStandIn } = await import("../helpers/openai-standin.js");
    const llm = await OpenAiStandIn.start();
    try {
      llm.script = () => ({ chunks: ["Releases ship", " on Fridays."] });
      const body = { resources: ["shipping"], generative_model: `openai:tiny@${llm.url}` };
      // Over TCP a caller may not point the daemon at an endpoint of its choosing (docs/security.md)...
      const refused = await call("POST", `/kb/${kbid}/summarize`, body);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.json)).toContain("generative_model");
      expect(llm.requests).toHaveLength(0);
      // ...the socket's owner may.
      const r = { json: await d.client.call(summarizeRoute, { params: { kbid }, body }) };
      expect(r.json).toMatchObject({
        resources: { shipping: { summary: "Releases ship on Fridays." } },
        summary: "Releases ship on Fridays.",
      });
      expect(JSON.stringify(llm.requests[0].messages)).toContain("Friday afternoon");
    } finally {
      await llm.stop();
    }
  });
});

describe("retrieve and augment: ask in two calls", () => {
  it("retrieve answers scored paragraph ids; augment gives their text, neighbours, fields and resources", async () => {
    const r = await call("POST", `/kb/${kbid}/retrieve`, {
      query: { query: "When do hotfixes ship?", override: { semantic: "disabled" } },
      top_k: 3,
    });
    expect(r.status).toBe(200);
    const { matches } = up.RetrievalResponse.parse(r.json);
    expect(matches.length).toBeGreaterThan(0);
    expect(matches[0].id.startsWith(rids.shipping)).toBe(true);
    expect(matches[0].score).toMatchObject({ source: "index", type: "keyword" });
    const raw = up.RetrievalResponse.parse(
      (await call("POST", `/kb/${kbid}/retrieve`, { query: { keyword: { query: "purr" } } })).json,
    );
    expect(raw.matches[0].id.startsWith(rids.cats)).toBe(true);

    const best = matches.find((m) => m.id.includes("/t/body/"))?.id ?? "";
    const field = `${rids.shipping}/t/body`;
    const a = await call("POST", `/kb/${kbid}/augment`, {
      resources: [{ given: [rids.shipping], title: true, classification_labels: true }],
      fields: [{ given: [field], text: true }],
      paragraphs: [{ given: [{ id: best }], neighbours_before: 1, neighbours_after: 1 }],
    });
    expect(a.status).toBe(200);
    const aug = up.AugmentResponse.parse(a.json);
    expect(aug.resources[rids.shipping]).toMatchObject({
      title: "Release planning",
      classification_labels: { topic: ["planning"] },
    });
    expect(aug.fields[field].text).toContain("Hotfixes can ship on any weekday.");
    const para = aug.paragraphs[best];
    expect(para.text).toContain("Hotfixes");
    expect([...(para.neighbours_before ?? []), ...(para.neighbours_after ?? [])].length).toBeGreaterThan(0);
  });
});

describe("entities groups", () => {
  it("create, list, read, change and delete a group", async () => {
    const made = await call("POST", `/kb/${kbid}/entitiesgroups`, {
      group: "PEOPLE",
      title: "People",
      entities: { maria: { value: "Maria Lopez", represents: ["M. Lopez"] } },
    });
    expect(made.status).toBe(200);
    expect((await call("POST", `/kb/${kbid}/entitiesgroups`, { group: "PEOPLE" })).status).toBe(409);
    const all = up.KnowledgeBoxEntities.parse((await call("GET", `/kb/${kbid}/entitiesgroups`)).json);
    expect(all.uuid).toBe(kbid);
    expect(all.groups.PEOPLE).toEqual({ title: "People", custom: true });
    // Beside the user's groups, the families ingestion found in the corpus (Maria Lopez is a PERSON).
    expect(all.groups.PERSON).toEqual({ title: "PERSON", custom: false });
    await call("PATCH", `/kb/${kbid}/entitiesgroup/PEOPLE`, { add: { bob: { value: "Bob" } }, delete: ["maria"] });
    const g = up.EntitiesGroup.parse((await call("GET", `/kb/${kbid}/entitiesgroup/PEOPLE`)).json);
    expect(Object.keys(g.entities)).toEqual(["bob"]);
    expect((await call("DELETE", `/kb/${kbid}/entitiesgroup/PEOPLE`)).status).toBe(204);
    expect((await call("GET", `/kb/${kbid}/entitiesgroup/PEOPLE`)).status).toBe(404);
  });
});
