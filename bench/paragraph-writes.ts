/**
 * Cost of one paragraph-table commit as the table grows: a field's paragraphs replaced one awaited
 * write at a time (how ingestion and restores write), through ParagraphStore.replaceField, next to
 * the single-commit merge-insert statement it used before (`whenNotMatchedBySourceDelete`, which
 * scans the whole table). Also a burst of concurrent writes (batched by the write queue).
 *   npx tsx bench/paragraph-writes.ts [sizes=10000,100000] [commits=40]
 * Rows carry ~500 characters of text and a 384-d vector, like ingested paragraphs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeArrowTable } from "@lancedb/lancedb";
import { openDb, sqlString } from "../daemon/store/db.js";
import { type ParagraphRow, ParagraphStore } from "../daemon/store/paragraphs.js";
import { quantile } from "./stats.js";

const SIZES = (process.argv[2] ?? "10000,100000").split(",").map(Number);
const K = Number(process.argv[3] ?? 40);
const DIM = 384;
const PER_FIELD = 10;
const WORDS =
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua".split(
    " ",
  );

let seed = 7;
function rand(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
const text = () => Array.from({ length: 80 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
const vector = () => Array.from({ length: DIM }, () => rand() - 0.5);

function field(rid: string, n = PER_FIELD): ParagraphRow[] {
  return Array.from({ length: n }, (_, i) => {
    const t = text();
    return {
      id: `${rid}/t/body/${i * 1000}-${i * 1000 + t.length}`,
      rid,
      field: "t/body",
      field_type: "text",
      split: "",
      start: i * 1000,
      end: i * 1000 + t.length,
      page: 0,
      idx: i,
      kind: "TEXT",
      is_table: false,
      labels: [],
      facets: ["/s/p/en"],
      text: t,
      lang: "en",
      path: "",
      created: 0,
      modified: 0,
      hidden: false,
      groups: [],
      hash: String(rand()),
      terms: t,
      vectors: { default: vector() },
    };
  });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)}\t${quantile(xs, 0.95).toFixed(1)}\t${mean(xs).toFixed(1)}`;

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

console.log(`bench/paragraph-writes: ${PER_FIELD} paragraphs per field, ${DIM}-d vectors, ${K} awaited commits per row`);
console.log(["rows", "write", "p50 ms", "p95 ms", "mean ms"].join("\t"));
for (const N of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), "kbox-bench-pw-"));
  try {
    const store = await ParagraphStore.open(await openDb(join(dir, "lance")), {}, join(dir, "paragraphs.journal"));
    await store.ensureVectorset("default", DIM);
    for (let start = 0; start < N; start += 10_000) {
      const rows = [];
      for (let r = start / PER_FIELD; r < Math.min(N, start + 10_000) / PER_FIELD; r++)
        rows.push(...field(`r${r}`).map((p) => store.toArrowRow(p)));
      await store.exclusive(async (t) => t.add(makeArrowTable(rows, { schema: await t.schema() })));
    }
    await store.compact(true);
    const R = N / PER_FIELD;
    const pick = (i: number) => `r${Math.floor((i * 7919) % R)}`;
    // Before: the single merge-insert commit (full-table outer join), issued on the same table.
    const legacy = await timed(K, (i) =>
      store.exclusive(async (t) => {
        const rid = pick(i);
        const data = makeArrowTable(
          field(rid).map((p) => store.toArrowRow(p)),
          { schema: await t.schema() },
        );
        const scope = `rid = ${sqlString(rid)} AND field = 't/body'`;
        await t
          .mergeInsert("id")
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .whenNotMatchedBySourceDelete({ where: scope })
          .execute(data);
      }),
    );
    console.log([N, "merge-insert (before)", fmt(legacy)].join("\t"));
    const replace = await timed(K, (i) => store.replaceField(pick(i + K), "t/body", field(pick(i + K))));
    console.log([N, "replaceField existing", fmt(replace)].join("\t"));
    const fresh = await timed(K, (i) => store.replaceField(`new${i}`, "t/body", field(`new${i}`)));
    console.log([N, "replaceField new", fmt(fresh)].join("\t"));
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.replaceField(`burst${i}`, "t/body", field(`burst${i}`))));
    console.log([N, "200 concurrent writes", `${((performance.now() - t0) / 200).toFixed(1)} ms per field (batched)`].join("\t"));
    const expected = N + K * PER_FIELD + 200 * PER_FIELD;
    const count = await store.count();
    if (count !== expected) console.log(`!! row count ${count}, expected ${expected}`);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
