import * as lancedb from "@lancedb/lancedb";
import type { ParagraphStore } from "../store/paragraphs.js";
import { vectorColumn } from "../store/paragraphs.js";
import type { AnnSettings } from "./semantic.js";

export const FTS_INDEX = "terms_idx";
/** Below this many vectors exact search is fast enough and exact; above it an IVF_PQ index is built. */
export const ANN_MIN_ROWS = Number(process.env.KBOX_ANN_MIN_ROWS ?? 25_000);

/** Fewer, larger partitions than LanceDB's default sqrt(n): cheaper to train, and recall holds. */
const partitionsFor = (n: number) => Math.max(8, Math.round(Math.sqrt(n) / 2));

/** The full-text index: a whitespace tokenizer over terms the analyzer already produced. */
export const ftsIndex = () =>
  lancedb.Index.fts({ baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: false });

/**
 * Keeps one paragraph table's indexes fresh in the background, after writes settle. `optimize` folds
 * new rows into the indexes between two commits of the table's write queue; vector index builds read
 * a snapshot and commit at the end, so reads and writes go on meanwhile. LanceDB searches rows not
 * yet indexed by scanning them, so nothing waits for an index.
 */
export class IndexMaintainer {
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;
  private closed = false;
  private readonly ann = new Map<string, { rows: number; partitions: number }>();
  /** Runs of optimize, with their cost, for benchmarks and logs. */
  readonly log: { what: string; ms: number }[] = [];

  constructor(
    private readonly paragraphs: ParagraphStore,
    private readonly delayMs = 1500,
  ) {
    paragraphs.onCommit(() => this.schedule());
  }

  /** The FTS index exists (created at once on an empty table; built in the background otherwise). */
  async ensureFts(): Promise<void> {
    const names = (await this.paragraphs.table.listIndices()).map((i) => i.name);
    if (!names.includes(FTS_INDEX)) await this.paragraphs.buildIndex("terms", { config: ftsIndex(), name: FTS_INDEX, replace: false }).catch(() => undefined);
    for (const i of await this.paragraphs.table.listIndices()) {
      const col = i.columns[0];
      if (col?.startsWith("vec_") && !this.ann.has(col)) {
        const rows = (await this.paragraphs.table.indexStats(i.name))?.numIndexedRows ?? 0;
        this.ann.set(col, { rows, partitions: partitionsFor(rows) });
      }
    }
  }

  /** ANN settings for a vectorset: exact search until an index exists. */
  annFor(vectorset: string): AnnSettings {
    const a = this.ann.get(vectorColumn(vectorset));
    // Probing a quarter of the partitions and re-ranking 20x candidates exactly keeps recall@20 high.
    return { indexed: Boolean(a), nprobes: Math.max(16, Math.ceil((a?.partitions ?? 0) / 4)), refineFactor: 20 };
  }

  private schedule(): void {
    this.dirty = true;
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.running) this.running = this.run().finally(() => (this.running = null));
    }, this.delayMs);
    this.timer.unref();
  }

  /** Bring indexes up to date now (tests and benchmarks); resolves when done. */
  async refresh(force = true): Promise<void> {
    while (this.running) await this.running;
    this.dirty = true;
    this.running = this.run(force).finally(() => (this.running = null));
    await this.running;
  }

  private async run(force = false): Promise<void> {
    while (this.dirty && !this.closed) {
      this.dirty = false;
      try {
        await this.step(force);
      } catch {
        // A conflicting commit or a dropped KB: the next write schedules another try.
      }
    }
  }

  private async timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const out = await fn();
    this.log.push({ what, ms: performance.now() - t0 });
    return out;
  }

  private async step(force: boolean): Promise<void> {
    const t = this.paragraphs.table;
    await this.ensureFts();
    const stats = await t.indexStats(FTS_INDEX);
    const unindexed = stats?.numUnindexedRows ?? 0;
    if (unindexed > 0 && (force || unindexed >= Math.max(2000, (stats?.numIndexedRows ?? 0) * 0.05))) {
      // Between commits of the table's write queue, so it never races the store's own compaction.
      await this.timed("optimize", () => this.paragraphs.compact(true));
    }
    for (const [vs, dim] of this.paragraphs.vectorColumns()) {
      const col = vectorColumn(vs);
      const n = await t.countRows(`${col} IS NOT NULL`);
      const have = this.ann.get(col);
      if (n < ANN_MIN_ROWS || (have && n < have.rows * 2)) continue;
      const partitions = partitionsFor(n);
      const subVectors = dim % 16 === 0 ? dim / 16 : dim % 8 === 0 ? dim / 8 : 1;
      await this.timed(`ivf_pq ${vs} (${n} vectors)`, () =>
        this.paragraphs.buildIndex(col, { config: lancedb.Index.ivfPq({ distanceType: "cosine", numPartitions: partitions, numSubVectors: subVectors }), replace: true }),
      );
      this.ann.set(col, { rows: n, partitions });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running.catch(() => undefined);
  }
}
