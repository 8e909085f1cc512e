import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import * as up from "../helpers/upstream-models.js";

// Entities found during ingestion (daemon/entities): stored per field and as relations, served by
// find/ask `features: relations`, the entity filter, suggest and graph search.
let d: TestDaemon;
let kbid: string;
const rids: Record<string, string> = {};

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  rawCall(d.client, method, `/api/v1/kb/${kbid}${path}`, body, headers);

const DOCS = {
  curie:
    "Marie Curie met Albert Einstein in Paris in 1921. They talked about radium and history.\n\n" +
    "Later, Marie Curie visited Warsaw with her kitty.",
  babbage: "Ada Lovelace worked with Charles Babbage in London. The analytical engine made history.",
};

const MEMO = "# Compilers\n\nGrace Hopper wrote the first compiler in Philadelphia. The team tested it for months.\n";

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  const kb = await rawCall(d.client, "POST", "/api/v1/kbs", { slug: "entities-kb" });
  kbid = (kb.json as { uuid: string }).uuid;
  // A group the user defines before ingesting: its entity and synonym must be matched in the text.
  const g = await call("POST", "/entitiesgroups", {
    group: "ANIMALS",
    title: "Animals",
    entities: { cat: { value: "cat", represents: ["kitty"] }, radium: { value: "radium" } },
  });
  expect(g.status).toBe(200);
  for (const [slug, body] of Object.entries(DOCS)) {
    const r = await call("POST", "/resources", { slug, title: slug, texts: { body: { body, format: "PLAIN" } } });
    expect(r.status).toBe(201);
    rids[slug] = (r.json as { uuid: string }).uuid;
  }
  const memo = await call("POST", "/resources", {
    slug: "memo",
    title: "Memo",
    files: {
      memo: {
        file: { filename: "memo.md", content_type: "text/markdown", payload: Buffer.from(MEMO).toString("base64") },
      },
    },
  });
  rids.memo = (memo.json as { uuid: string }).uuid;
  const chat = await call("POST", "/resources", {
    slug: "chat",
    conversations: {
      chat: {
        messages: [
          { ident: "m1", who: "ana", content: { text: "Who did you phone?", format: "PLAIN" } },
          { ident: "m2", who: "bob", content: { text: "I phoned Grace Hopper on Monday.", format: "PLAIN" } },
        ],
      },
    },
  });
  rids.chat = (chat.json as { uuid: string }).uuid;
  await d.daemon.services.processing.idle();
}, 60_000);
afterAll(async () => {
  await d.stop();
});

describe("entities stored at ingestion", () => {
  it("show=extracted carries ner, entities and positions of people, places, dates and the user's group", async () => {
    const r = await call("GET", `/resource/${rids.curie}/text/body?show=extracted&extracted=metadata`);
    expect(r.status).toBe(200);
    const meta = up.ResourceField.parse(r.json).extracted?.metadata?.metadata;
    expect(meta?.ner).toMatchObject({
      "Marie Curie": "PERSON",
      "Albert Einstein": "PERSON",
      Paris: "LOC",
      Warsaw: "LOC",
      "1921": "DATE",
      cat: "ANIMALS",
      radium: "ANIMALS",
    });
    const text = DOCS.curie;
    const curie = meta?.positions["PERSON/Marie Curie"];
    expect(curie?.position).toHaveLength(2);
    for (const p of curie?.position ?? []) expect(text.slice(p.start, p.end)).toBe("Marie Curie");
    // The synonym "kitty" is where the group's entity "cat" was found.
    const cat = meta?.positions["ANIMALS/cat"]?.position ?? [];
    expect(cat.map((p) => text.slice(p.start, p.end))).toEqual(["kitty"]);
    expect(meta?.entities.processor.entities).toContainEqual({
      text: "Paris",
      label: "LOC",
      positions: [{ start: text.indexOf("Paris"), end: text.indexOf("Paris") + 5 }],
    });
  });

  it("the resource's relations (show=relations) link it to its entities and its entities to each other", async () => {
    const r = await call("GET", `/resource/${rids.curie}?show=relations`);
    const rels = (
      r.json as {
        relations: { relation: string; label: string; from: { value: string }; to: { value: string; group: string } }[];
      }
    ).relations;
    expect(rels).toContainEqual(
      expect.objectContaining({
        relation: "ENTITY",
        from: expect.objectContaining({ value: rids.curie, type: "resource" }),
        to: { value: "Paris", type: "entity", group: "LOC" },
      }),
    );
    expect(rels).toContainEqual(
      expect.objectContaining({
        label: "met",
        from: { value: "Marie Curie", type: "entity", group: "PERSON" },
        to: { value: "Albert Einstein", type: "entity", group: "PERSON" },
      }),
    );
  });
});

describe("a file field's extracted data, as the upstream models parse it", () => {
  it("file metadata is a map of strings (languages joined), FieldMetadata carries ner and relations", async () => {
    const r = await call("GET", `/resource/${rids.memo}/file/memo?show=extracted&extracted=metadata&extracted=file`);
    expect(r.status).toBe(200);
    const f = up.ResourceField.parse(r.json);
    const fileMeta = f.extracted?.file?.metadata ?? {};
    for (const v of Object.values(fileMeta)) expect(typeof v).toBe("string");
    expect(fileMeta.languages).toBe("en");
    const meta = f.extracted?.metadata?.metadata;
    expect(meta?.ner).toMatchObject({ "Grace Hopper": "PERSON", Philadelphia: "LOC" });
    expect(meta?.relations).toContainEqual(
      expect.objectContaining({ relation: "ENTITY", to: { value: "Grace Hopper", type: "entity", group: "PERSON" } }),
    );
    // The resource's metadata.languages stays a list, as the upstream Metadata model defines it.
    const res = await call("GET", `/resource/${rids.memo}`);
    expect((res.json as { metadata: { languages: unknown } }).metadata.languages).toEqual(["en"]);
  });
});

describe("a conversation's entities, by message", () => {
  it("split_metadata holds each message's ner and positions in its own text", async () => {
    const r = await call("GET", `/resource/${rids.chat}/conversation/chat?show=extracted&extracted=metadata`);
    const splits = up.ResourceField.parse(r.json).extracted?.metadata?.split_metadata ?? {};
    expect(splits.m2?.ner).toMatchObject({ "Grace Hopper": "PERSON", Monday: "DATE" });
    expect(splits.m2?.positions["PERSON/Grace Hopper"]?.position).toEqual([{ start: 9, end: 21 }]);
    expect(splits.m1?.ner).toEqual({});
  });
});

describe("serving the entities", () => {
  it("find with features relations returns the real entities a query names", async () => {
    const r = await call("POST", "/find", { query: "Marie Curie and Paris", features: ["keyword", "relations"] });
    expect(r.status).toBe(200);
    const rel = up.Relations.parse((r.json as { relations: unknown }).relations);
    expect(rel.entities["Marie Curie"].related_to).toContainEqual(
      expect.objectContaining({ entity: "Albert Einstein", entity_subtype: "PERSON", relation_label: "met", direction: "out" }),
    );
    expect(rel.entities.Paris.related_to).toContainEqual(
      expect.objectContaining({ entity: rids.curie, entity_type: "resource", direction: "in", resource_id: rids.curie }),
    );
  });

  it("a synchronous ask with features relations carries the entities", async () => {
    const r = await call(
      "POST",
      "/ask",
      { query: "Who did Ada Lovelace work with?", features: ["keyword", "relations"] },
      { "x-synchronous": "true" },
    );
    expect(r.status).toBe(200);
    const sync = up.SyncAskResponse.parse(r.json);
    expect(sync.relations?.entities["Ada Lovelace"].related_to).toContainEqual(
      expect.objectContaining({ entity: "Charles Babbage", relation_label: "worked" }),
    );
  });

  it("the entity filter narrows find (filter_expression and legacy filters)", async () => {
    const ridsOf = (j: unknown) => Object.keys((j as { resources: Record<string, unknown> }).resources).sort();
    const all = await call("POST", "/find", { query: "history", features: ["keyword"] });
    expect(ridsOf(all.json)).toEqual([rids.curie, rids.babbage].sort());
    const byExpr = await call("POST", "/find", {
      query: "history",
      features: ["keyword"],
      filter_expression: { field: { prop: "entity", subtype: "PERSON", value: "Ada Lovelace" } },
    });
    expect(ridsOf(byExpr.json)).toEqual([rids.babbage]);
    const byGroup = await call("POST", "/find", { query: "history", features: ["keyword"], filters: ["/e/ANIMALS/cat"] });
    expect(ridsOf(byGroup.json)).toEqual([rids.curie]);
  });

  it("suggest offers the entities whose names start with what was typed", async () => {
    const r = await call("GET", "/suggest?query=lovel");
    expect(r.status).toBe(200);
    expect((r.json as { entities: { entities: unknown[] } }).entities.entities).toContainEqual({
      value: "Ada Lovelace",
      family: "PERSON",
    });
  });

  it("the entities groups list the families processing found beside the user's", async () => {
    const r = await call("GET", "/entitiesgroups");
    const groups = up.KnowledgeBoxEntities.parse(r.json).groups;
    expect(groups.ANIMALS.custom).toBe(true);
    expect(groups.PERSON.custom).toBe(false);
    const person = up.EntitiesGroup.parse((await call("GET", "/entitiesgroup/PERSON")).json);
    expect(Object.keys(person.entities)).toEqual(expect.arrayContaining(["Ada Lovelace", "Marie Curie"]));
    // A user's group is theirs to change; a family processing found is not.
    expect((await call("PATCH", "/entitiesgroup/PERSON", { add: { x: { value: "x" } } })).status).toBe(404);
  });
});

describe("graph search", () => {
  const Node = up.GraphNode;
  it("/graph finds the relation between two entities of a document, and its undirected reading", async () => {
    const r = await call("POST", "/graph", {
      query: { prop: "path", source: { value: "Marie Curie", group: "PERSON" }, destination: { value: "Albert Einstein" } },
    });
    expect(r.status).toBe(200);
    const { paths } = up.GraphSearchResponse.parse(r.json);
    expect(paths).toEqual([
      {
        source: { value: "Marie Curie", type: "entity", group: "PERSON" },
        relation: { label: "met", type: "ENTITY" },
        destination: { value: "Albert Einstein", type: "entity", group: "PERSON" },
      },
    ]);
    const back = await call("POST", "/graph", {
      query: { prop: "path", source: { value: "albert einstein" }, destination: { value: "Marie Curie" }, undirected: true },
    });
    expect(up.GraphSearchResponse.parse(back.json).paths).toHaveLength(1);
    const none = await call("POST", "/graph", {
      query: { prop: "path", source: { value: "Albert Einstein" }, destination: { value: "Marie Curie" } },
    });
    expect(up.GraphSearchResponse.parse(none.json).paths).toEqual([]);
  });

  it("/graph answers boolean queries: the resources naming a place, generated by processing, not London", async () => {
    const r = await call("POST", "/graph", {
      query: {
        and: [
          { prop: "source_node", type: "resource" },
          { prop: "destination_node", group: "LOC" },
          { prop: "generated", by: "processor" },
          { not: { prop: "node", value: "London" } },
        ],
      },
    });
    const { paths } = up.GraphSearchResponse.parse(r.json);
    expect(paths.map((p) => [p.destination.value, p.source.value]).sort()).toEqual([
      ["Paris", rids.curie],
      ["Philadelphia", rids.memo],
      ["Warsaw", rids.curie],
    ]);
    expect(paths.every((p) => p.source.type === "resource")).toBe(true);
    // Between entities: Marie Curie visited Warsaw.
    const visited = await call("POST", "/graph", { query: { prop: "relation", label: "visited" } });
    expect(up.GraphSearchResponse.parse(visited.json).paths.map((p) => [p.source.value, p.destination.value])).toEqual([
      ["Marie Curie", "Warsaw"],
    ]);
  });

  it("/graph/nodes finds entities by fuzzy value; /graph/relations lists relation kinds", async () => {
    const n = await call("POST", "/graph/nodes", { query: { prop: "node", value: "Lovelase", match: "fuzzy" } });
    expect(n.status).toBe(200);
    expect(up.GraphNodesSearchResponse.parse(n.json).nodes).toEqual([
      Node.parse({ value: "Ada Lovelace", type: "entity", group: "PERSON" }),
    ]);
    const rel = await call("POST", "/graph/relations", { query: { prop: "relation", type: "ENTITY" } });
    const labels = up.GraphRelationsSearchResponse.parse(rel.json).relations.map((x) => x.label);
    expect(labels).toEqual(expect.arrayContaining(["", "met", "worked"]));
  });

  it("filter_expression keeps the relations of matching resources; bad queries answer 422", async () => {
    const r = await call("POST", "/graph/nodes", {
      query: { prop: "node", group: "PERSON" },
      filter_expression: { field: { prop: "resource", id: rids.babbage } },
    });
    const names = up.GraphNodesSearchResponse.parse(r.json)
      .nodes.map((x) => x.value)
      .sort();
    expect(names).toEqual(["Ada Lovelace", "Charles Babbage"]);
    expect((await call("POST", "/graph/nodes", { query: { prop: "node", value: "ab", match: "fuzzy" } })).status).toBe(422);
    expect((await call("POST", "/graph", { query: { prop: "nonsense" } })).status).toBe(422);
    const kw = await call("POST", "/graph", {
      query: { prop: "node" },
      filter_expression: { field: { prop: "keyword", word: "radium" } },
    });
    expect(kw.status).toBe(422);
  });
});

describe("turning extraction off", () => {
  it("a box whose learning configuration says ner_model none gets no entities (the costliest step of plain text)", async () => {
    const kb = await rawCall(d.client, "POST", "/api/v1/kbs", {
      slug: "no-ner",
      learning_configuration: { ner_model: "none" },
    });
    expect(kb.status).toBe(201);
    const other = (kb.json as { uuid: string }).uuid;
    const r = await rawCall(d.client, "POST", `/api/v1/kb/${other}/resources`, {
      title: "curie",
      texts: { body: { body: DOCS.curie, format: "PLAIN" } },
    });
    expect(r.status).toBe(201);
    const rid = (r.json as { uuid: string }).uuid;
    await d.daemon.services.processing.idle();
    const field = await rawCall(d.client, "GET", `/api/v1/kb/${other}/resource/${rid}/text/body?show=extracted&extracted=text`);
    expect((field.json as { extracted?: { text?: { text?: string } } }).extracted?.text?.text).toContain("Marie Curie");
    const meta = await rawCall(
      d.client,
      "GET",
      `/api/v1/kb/${other}/resource/${rid}/text/body?show=extracted&extracted=metadata`,
    );
    const ner = up.ResourceField.parse(meta.json).extracted?.metadata?.metadata?.ner ?? {};
    expect(Object.keys(ner)).toEqual([]);
    // The box with extraction on found them in the same text.
    const on = await call("GET", `/resource/${rids.curie}/text/body?show=extracted&extracted=metadata`);
    expect(Object.keys(up.ResourceField.parse(on.json).extracted?.metadata?.metadata?.ner ?? {})).toContain("Marie Curie");
  });
});
