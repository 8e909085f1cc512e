import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParagraphRow } from "../../daemon/store/paragraphs.js";
import type { ResourceDoc } from "../../daemon/store/records.js";
import * as find from "../../src/api/find.js";
import * as resources from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

// A label on 10 % of 2,500 resources with an ANN index: the filter is too large for a `rid IN` prefilter, so the
// index's candidates are narrowed to the labelled resources before the exact re-rank (daemon/search/prefilter.ts).
// Rows are written through the store, as bench/find does (ingesting 5,000 paragraphs would take the test's time).
const R = 2500;
const DIM = 32;
const ridOf = (r: number) => r.toString(16).padStart(32, "0");
const vec = (n: number) => Array.from({ length: DIM }, (_, k) => Math.sin(n * (k + 1) * 0.37) + (k === n % DIM ? 2 : 0));
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));
let d: TestDaemon;
let kbid: string;

beforeAll(async () => {
  d = await startTestDaemon({ env: { KBOX_MODELS_AUTOPULL: "0", KBOX_ANN_MIN_ROWS: "1000" } });
  const s = d.daemon.services;
  kbid = (await s.kbs.create({ slug: "filtered-ann" })).uuid;
  const store = await s.store.kb(kbid);
  await store.paragraphs.ensureVectorset("v", DIM);
  const now = new Date().toISOString();
  for (let r = 0; r < R; r++) {
    const doc: ResourceDoc = {
      id: ridOf(r),
      title: `resource ${r}`,
      metadata: { status: "PROCESSED", language: "en" },
      created: now,
      modified: now,
      last_seqid: r,
      queue: "private",
      fields: {},
    };
    if (r % 10 === 0) doc.usermetadata = { classifications: [{ labelset: "topic", label: "ten" }] };
    void store.resources.put(ridOf(r), doc);
  }
  await store.resources.idle();
  const rows: ParagraphRow[] = [];
  for (let r = 0; r < R; r++) {
    for (const i of [0, 1]) {
      const text = `paragraph ${r} ${i}`;
      const n = r * 2 + i;
      rows.push({
        ...{ id: `${ridOf(r)}/t/body/${n}-${n + text.length}`, rid: ridOf(r), field: "t/body", field_type: "text" },
        ...{ split: "", start: n, end: n + text.length, page: 0, idx: i, kind: "TEXT", is_table: false },
        ...{ labels: [], facets: [], text, lang: "en", hash: text, vectors: { v: vec(n) } },
      });
    }
  }
  await store.paragraphs.bulkAdd(rows);
  const m = await s.search.maintainer(store);
  await m.refresh();
  expect(m.annFor("v").indexed).toBe(true);
}, 120_000);
afterAll(async () => d?.stop());

const semantic = (vector: number[], filters?: string[]) =>
  d.client.call(find.find, { params: { kbid }, body: { vector, features: ["semantic"], top_k: 20, filters } });

describe("a label on 10 % of the resources, with an ANN index", () => {
  it("finds the nearest paragraphs of labelled resources, with exact scores", async () => {
    // Exact filtered top 20 of a query, computed here over every labelled paragraph.
    const exactTop = (q: number[]) =>
      Array.from({ length: R * 2 }, (_, n) => n)
        .filter((n) => Math.floor(n / 2) % 10 === 0)
        .map((n) => ({ n, score: cosine(vec(n), q) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 20)
        .map((x) => x.n);
    const overlaps: number[] = [];
    for (const seed of [77, 5, 301, 1402, 2222, 3999, 4560, 911]) {
      const q = vec(seed).map((x, k) => x + Math.cos(k + seed));
      const r = await semantic(q, ["/l/topic/ten"]);
      expect(r.best_matches).toHaveLength(20);
      const got = r.best_matches.map((id) => Number(id.split("/")[3].split("-")[0]));
      // Always: only labelled resources' paragraphs, with exact scores, completed after fusion.
      expect(got.every((n) => Math.floor(n / 2) % 10 === 0)).toBe(true);
      const first = r.resources[ridOf(Math.floor(got[0] / 2))].fields["/t/body"].paragraphs[r.best_matches[0]];
      expect(first.score).toBeCloseTo(cosine(vec(got[0]), q), 4);
      expect(first.text).toBe(`paragraph ${Math.floor(got[0] / 2)} ${got[0] % 2}`);
      const exact = exactTop(q);
      overlaps.push(got.filter((n) => exact.includes(n)).length / 20);
    }
    // An approximate index: its k-means starts from a random seed, so one query may miss a few of the
    // exact top 20 on one build and not on the next (15 to 20 of 20 were seen for a single query). Over
    // eight queries the recall is steady; bench/find measures it over many more (0.98–0.99).
    const recall = overlaps.reduce((a, b) => a + b, 0) / overlaps.length;
    expect(recall, JSON.stringify(overlaps)).toBeGreaterThanOrEqual(0.8);
  });

  it("a PATCH of labels filters at once: a newly labelled resource's paragraph comes first", async () => {
    const n = 2 * 1233 + 1; // resource 1233: not labelled
    const q = vec(n);
    expect((await semantic(q, ["/l/topic/ten"])).best_matches.some((id) => id.startsWith(ridOf(1233)))).toBe(false);
    await d.client.call(resources.updateResource.byId, {
      params: { kbid, rid: ridOf(1233) },
      body: { usermetadata: { classifications: [{ labelset: "topic", label: "ten" }] } },
    });
    const r = await semantic(q, ["/l/topic/ten"]);
    expect(r.best_matches[0].startsWith(`${ridOf(1233)}/t/body/${n}-`)).toBe(true);
    await d.client.call(resources.updateResource.byId, {
      params: { kbid, rid: ridOf(0) },
      body: { usermetadata: { classifications: [] } },
    });
    const after = await semantic(vec(0), ["/l/topic/ten"]);
    expect(after.best_matches.some((id) => id.startsWith(ridOf(0)))).toBe(false);
  });
});
