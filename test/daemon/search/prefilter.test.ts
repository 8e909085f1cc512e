import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../../daemon/search/keyword.js";
import { annForFetch, type Retriever, underFilter } from "../../../daemon/search/prefilter.js";
import { openDb } from "../../../daemon/store/db.js";
import { type ParagraphRow, ParagraphStore } from "../../../daemon/store/paragraphs.js";
import { inList } from "../../../daemon/store/sql.js";

const WORDS = ["river", "stone", "cloud", "maple", "harbor", "lantern", "meadow", "signal", "copper", "willow"];

function row(rid: string, i: number, text: string, vector: number[]): ParagraphRow {
  return {
    id: `${rid}/t/body/${i}-${i + text.length}`,
    rid,
    field: "t/body",
    field_type: "text",
    split: "",
    start: i,
    end: i + text.length,
    page: 0,
    idx: i,
    kind: "TEXT",
    is_table: false,
    labels: [],
    facets: [],
    text,
    lang: "en",
    hash: text,
    vectors: { v: vector },
  };
}

/** 600 resources of 3 paragraphs: deterministic words and 4-d vectors. */
async function store(): Promise<{ paragraphs: ParagraphStore; rids: string[] }> {
  const db = await openDb(join(mkdtempSync(join(tmpdir(), "kbox-prefilter-")), "db"));
  const paragraphs = await ParagraphStore.open(db);
  await paragraphs.ensureVectorset("v", 4);
  const rids = Array.from({ length: 600 }, (_, r) => r.toString(16).padStart(32, "0"));
  const rows = rids.flatMap((rid, r) =>
    [0, 1, 2].map((i) => {
      const n = r * 3 + i;
      const text = [0, 1, 2, 3].map((k) => WORDS[(n * (k + 3) + k * k) % WORDS.length]).join(" ");
      return row(rid, i, text, [Math.sin(n), Math.cos(n), Math.sin(n / 7), 1]);
    }),
  );
  await paragraphs.bulkAdd(rows);
  await paragraphs.ensureKeywordIndex(); // as search has it: the full-text index over every row
  return { paragraphs, rids };
}

/** A filter keeping `kept` of `all`, as compileFilters gives it for a resource-level property. */
function filterOf(kept: string[], all: string[]) {
  const yes = new Set(kept);
  const no = all.filter((r) => !yes.has(r));
  return {
    sql: inList("rid", kept),
    where: "true",
    resources: [
      {
        sql: inList("rid", kept),
        keep: (rid: string) => yes.has(rid),
        listed: Math.min(yes.size, no.length),
        share: yes.size / all.length,
      },
    ],
  };
}

describe("a large resource set applied to hits", () => {
  it("finds what the rid IN prefilter finds, for keyword and exact vector search, and fills the window", async () => {
    const { paragraphs, rids } = await store();
    const f = filterOf(
      rids.filter((_, i) => i % 2 === 0),
      rids,
    );
    expect(f.resources[0].listed).toBeGreaterThan(200); // not inlined
    const calls: number[] = [];
    const complete = (h: Parameters<ParagraphStore["complete"]>[0]) => paragraphs.complete(h);
    for (const q of ["river", "stone maple", "lantern copper willow"]) {
      const kw: Retriever = (where, limit, _f, cols) => (
        calls.push(limit), paragraphs.keyword(parseQuery(q), ["en"], where, limit, cols)
      );
      const pre = await paragraphs.keyword(parseQuery(q), ["en"], f.sql, 21);
      const post = await underFilter(kw, f, 21, complete);
      // The kept hits come back whole: text and columns as the prefilter's.
      expect(post.map((h) => [h.text, h.field, h.start])).toEqual(pre.map((h) => [h.text, h.field, h.start]));
      expect(post.map((h) => h.id)).toEqual(pre.map((h) => h.id));
      expect(post).toHaveLength(21);
    }
    expect(calls.every((l) => l > 21)).toBe(true); // fetched more, with no rid list
    const v = [0.3, 0.9, 0.1, 1];
    const sem: Retriever = (where, limit, _f, cols) => paragraphs.nearest("v", v, where, limit, undefined, cols);
    expect((await underFilter(sem, f, 21, complete)).map((h) => h.id)).toEqual(
      (await paragraphs.nearest("v", v, f.sql, 21)).map((h) => h.id),
    );
  });

  it("falls back to the prefilter when the hits of the set's resources do not fill the window", async () => {
    const { paragraphs, rids } = await store();
    // Half the resources, but only those without "river": the over-fetched "river" hits hold none of them.
    const noRiver = new Set<string>();
    for (const h of await paragraphs.keyword(parseQuery("river"), ["en"], "true", 2000)) noRiver.add(h.rid);
    const kept = rids.filter((r) => !noRiver.has(r)).slice(0, 300);
    const f = filterOf(kept, rids);
    const limits: string[] = [];
    const kw: Retriever = (where, limit) => (
      limits.push(where === "true" ? "post" : "pre"), paragraphs.keyword(parseQuery("river stone"), ["en"], where, limit)
    );
    const got = await underFilter(kw, f, 21, (h) => paragraphs.complete(h));
    expect(got.map((h) => h.id)).toEqual(
      (await paragraphs.keyword(parseQuery("river stone"), ["en"], f.sql, 21)).map((h) => h.id),
    );
    expect(got.every((h) => kept.includes(h.rid))).toBe(true);
    expect(limits.at(-1)).toBe("pre");
  });

  it("re-ranks twice the window's candidates when it fetches more", () => {
    const ann = { indexed: true, nprobes: 16, refineFactor: 60 };
    expect(annForFetch(ann, 1)).toEqual(ann);
    expect(annForFetch(ann, 15).refineFactor).toBe(8);
    expect(annForFetch(ann, 200).refineFactor).toBe(2);
    expect(annForFetch({ ...ann, indexed: false }, 15)).toEqual({ ...ann, indexed: false });
  });
});
