import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  d = await startTestDaemon({ listen: "127.0.0.1:0", trustRolesHeader: true, env: OFFLINE });
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
    expect(meta).toMatchObject({ links: [], ner: {}, entities: {}, classifications: [], positions: {} });
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
