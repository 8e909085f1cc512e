import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as st from "../../src/api/strategies.js";
import * as sync from "../../src/api/sync.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { waitIdle } from "./ingest-helpers.js";

let d: TestDaemon;
let kbid: string;
let manualId: string;
let smallId: string;
const V1 = "/api/v1";

/** The paragraphs of a field as (text sliced by position, start, end), and the field entry. */
async function paragraphs(rid: string, map: "texts" | "files", field: string) {
  const r = (await d.client.call(resources.getResource.byId, {
    params: { kbid, rid },
    query: { show: ["values", "extracted", "errors"] },
  })) as any;
  const entry = r.data[map][field];
  const text: string = entry.extracted.text.text;
  const paras = entry.extracted.metadata.metadata.paragraphs as { start: number; end: number }[];
  return { entry, texts: paras.map((p) => text.slice(p.start, p.end)), paras };
}

async function rejection(p: Promise<unknown>): Promise<{ status: number; detail: any }> {
  try {
    await p;
  } catch (e) {
    return e as { status: number; detail: any };
  }
  throw new Error("expected a rejection");
}

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "strategies" } })).uuid;
});
afterAll(async () => {
  await d.stop();
});

describe("strategy CRUD", () => {
  it("adds, lists, reads split and extract strategies in the hosted shapes", async () => {
    manualId = await d.client.call(st.addSplitStrategy, {
      params: { kbid },
      body: { name: "dashes", custom_split: "MANUAL", manual_split: { splitter: "---" } },
    });
    expect(manualId).toMatch(/^[0-9a-f]{32}$/);
    smallId = await d.client.call(st.addExtractStrategy, {
      params: { kbid },
      body: {
        name: "small",
        split: { max_paragraph: 40 },
        vllm_config: { rules: ["keep tables"], llm: { generative_model: "x" } },
        ai_tables: { llm: null },
      },
    });
    const splits = await d.client.call(st.listSplitStrategies, { params: { kbid } });
    expect(splits[manualId]).toMatchObject({
      name: "dashes",
      custom_split: 1,
      manual_split: { splitter: "---" },
      max_paragraph: 0,
    });
    const one = await d.client.call(st.getExtractStrategy, { params: { kbid, strategy_id: smallId } });
    expect(one).toMatchObject({
      name: "small",
      split: { max_paragraph: 40 },
      vllm_config: { rules: ["keep tables"] },
      max_parallel_llm_calls: 0,
    });
    expect(Object.keys(await d.client.call(st.listExtractStrategies, { params: { kbid } }))).toEqual([smallId]);
    expect((await rejection(d.client.call(st.getSplitStrategy, { params: { kbid, strategy_id: "nope" } }))).status).toBe(404);
  });

  it("refuses a MANUAL split without a splitter, with the location", async () => {
    const e = await rejection(d.client.call(st.addSplitStrategy, { params: { kbid }, body: { custom_split: 1 } }));
    expect(e.status).toBe(422);
    expect(e.detail[0].loc).toEqual(["body", "manual_split", "splitter"]);
  });
});

describe("fields naming strategies", () => {
  it("answers 422 with the location for unknown ids (create, PUT, upload header)", async () => {
    const c = await rejection(
      d.client.call(resources.createResource, {
        params: { kbid },
        body: { texts: { t: { body: "x", split_strategy: "missing" } } },
      }),
    );
    expect(c.status).toBe(422);
    expect(c.detail[0].loc).toEqual(["body", "texts", "t", "split_strategy"]);
    const { uuid } = await d.client.call(resources.createResource, { params: { kbid }, body: { title: "target" } });
    const put = await rawCall(d.client, "PUT", `${V1}/kb/${kbid}/resource/${uuid}/text/t`, {
      body: "x",
      extract_strategy: "missing",
    });
    expect(put.status).toBe(422);
    expect((put.json as any).detail[0].loc).toEqual(["body", "extract_strategy"]);
    const up = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, Buffer.from("some text"), {
      "content-type": "text/plain",
      "x-split-strategy": "missing",
    });
    expect(up.status).toBe(422);
    expect((up.json as any).detail[0].loc).toEqual(["header", "x-split-strategy"]);
  });

  it("splits a text field on a MANUAL splitter, blank lines inside a piece kept together", async () => {
    const body = "Alpha one.\n---\nBeta two.\n\nStill beta.\n---\nGamma three.";
    const { uuid } = await d.client.call(resources.createResource, {
      params: { kbid },
      body: { texts: { t: { body, split_strategy: manualId } } },
    });
    await waitIdle(d.client, kbid);
    const { entry, texts, paras } = await paragraphs(uuid, "texts", "t");
    expect(entry.status).toBe("PROCESSED");
    expect(texts).toEqual(["Alpha one.", "Beta two.\n\nStill beta.", "Gamma three."]);
    expect(paras.map((p) => [p.start, p.end])).toEqual([
      [0, 10],
      [15, 37],
      [42, 54],
    ]);
  });

  it("bounds paragraphs by the max_paragraph of an extract strategy's split, cutting at sentence ends", async () => {
    const body = "One short sentence here. Another one follows. A third closes.";
    const { uuid } = await d.client.call(resources.createResource, {
      params: { kbid },
      body: { texts: { t: { body, extract_strategy: smallId } } },
    });
    await waitIdle(d.client, kbid);
    const { texts, paras } = await paragraphs(uuid, "texts", "t");
    expect(texts).toEqual(["One short sentence here.", "Another one follows. A third closes."]);
    expect(paras[1].start).toBe(25);
    // The same text without a strategy stays one paragraph.
    const plain = await d.client.call(resources.createResource, { params: { kbid }, body: { texts: { t: { body } } } });
    await waitIdle(d.client, kbid);
    expect((await paragraphs(plain.uuid, "texts", "t")).texts).toEqual([body]);
  });

  it("applies x-split-strategy to an uploaded file", async () => {
    const up = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, Buffer.from("First part---Second part---Third part"), {
      "content-type": "text/plain",
      "x-filename": "parts.txt",
      "x-split-strategy": manualId,
    });
    expect(up.status).toBe(201);
    await waitIdle(d.client, kbid);
    const { entry, texts } = await paragraphs((up.json as any).uuid, "files", "file");
    expect(entry.value.split_strategy).toBe(manualId);
    expect(texts).toEqual(["First part", "Second part", "Third part"]);
  });
});

describe("deleting strategies and sync configurations", () => {
  it("refuses to delete a strategy a field uses (409), deletes it once unused", async () => {
    const id = await d.client.call(st.addSplitStrategy, { params: { kbid }, body: { max_paragraph: 100 } });
    const { uuid } = await d.client.call(resources.createResource, {
      params: { kbid },
      body: { texts: { t: { body: "Text.", split_strategy: id } } },
    });
    const e = await rejection(d.client.call(st.deleteSplitStrategy, { params: { kbid, strategy_id: id } }));
    expect(e.status).toBe(409);
    expect(String(e.detail)).toContain(uuid);
    await d.client.call(resources.deleteResource.byId, { params: { kbid, rid: uuid } });
    await d.client.call(st.deleteSplitStrategy, { params: { kbid, strategy_id: id } });
    expect((await rejection(d.client.call(st.getSplitStrategy, { params: { kbid, strategy_id: id } }))).status).toBe(404);
  });

  it("checks a sync configuration's extract_strategy and gives it to the synced files", async () => {
    const root = mkdtempSync(join(tmpdir(), "kbox-strat-"));
    try {
      writeFileSync(join(root, "a.txt"), "One short sentence here. Another one follows. A third closes.");
      const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
      const bad = await rejection(
        d.client.call(sync.addConfig, {
          params: { kbid },
          body: { name: "bad", external_connection_id: conn.id, sync_root_path: root, extract_strategy: "missing" },
        }),
      );
      expect(bad.status).toBe(422);
      expect(bad.detail[0].loc).toEqual(["body", "extract_strategy"]);
      const ex = await d.client.call(st.addExtractStrategy, {
        params: { kbid },
        body: { name: "sync", split: { max_paragraph: 40 } },
      });
      const cfg = await d.client.call(sync.addConfig, {
        params: { kbid },
        body: { name: "notes", external_connection_id: conn.id, sync_root_path: root, extract_strategy: ex },
      });
      let rid: string | undefined;
      for (let i = 0; i < 200 && !rid; i++) {
        const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
        rid = list.resources.find((r) => r.title === "a.txt")?.id;
        if (!rid) await new Promise((r) => setTimeout(r, 100));
      }
      await waitIdle(d.client, kbid);
      const { entry, texts } = await paragraphs(rid as string, "files", "file");
      expect(entry.value.extract_strategy).toBe(ex);
      expect(texts).toEqual(["One short sentence here.", "Another one follows. A third closes."]);
      const inUse = await rejection(d.client.call(st.deleteExtractStrategy, { params: { kbid, strategy_id: ex } }));
      expect(inUse.status).toBe(409);
      await d.client.call(sync.deleteConfig, { params: { kbid, config_id: cfg.id }, query: { delete_resources: true } });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
