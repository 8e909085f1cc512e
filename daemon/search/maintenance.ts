import type { AnnSettings } from "../store/paragraph-search.js";
import { type ParagraphStore, vectorColumn } from "../store/paragraphs.js";

/** Fewer, larger partitions than LanceDB's default sqrt(n): cheaper to train, and recall holds. */
const partitionsFor = (n: number) => Math.max(8, Math.round(Math.sqrt(n) / 2));

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
  private lastWrite = 0;
  private closed = false;
  private readonly ann = new Map<string, { rows: number; partitions: number }>();
  /** Runs of optimize, with their cost, for benchmarks and logs. */
  readonly log: { what: string; ms: number }[] = [];

  /**
   * Below `annMinRows` vectors exact search is fast enough and exact; above it an IVF_RQ index is built:
   * RaBitQ codes (1 bit a dimension) searched in the nearest partitions, the best candidates re-ranked
   * with exact distances. At 100k 384-d vectors it trains in seconds (IVF_PQ: minutes) and, refined,
   * finds the exact top 20 (recall@20 >= 0.99 on bench/find's vectors, where IVF_PQ refined 20x had 0.83).
   */
  constructor(
    private readonly paragraphs: ParagraphStore,
    private readonly annMinRows: number,
    private readonly delayMs = 1500,
  ) {
    paragraphs.onCommit(() => this.schedule());
  }

  /** The FTS index exists (created at once on an empty table; built in the background otherwise). */
  async ensureFts(): Promise<void> {
    await this.paragraphs.ensureKeywordIndex().catch(() => undefined);
    for (const i of await this.paragraphs.indexes()) {
      if (i.vectorset !== undefined && !this.ann.has(i.column)) {
        // rows 0 makes the next step rebuild it as IVF_RQ; it is searched as it is meanwhile.
        this.ann.set(i.column, { rows: i.current ? i.indexedRows : 0, partitions: partitionsFor(i.indexedRows) });
      }
    }
  }

  /** ANN settings for a vectorset: exact search until an index exists. */
  annFor(vectorset: string): AnnSettings {
    const a = this.ann.get(vectorColumn(vectorset));
    // A quarter of the partitions (probing more did not raise recall), and the candidates re-ranked
    // exactly: 1-bit codes only shortlist, more loosely as the index grows. Measured on bench/find's
    // vectors: x25 gives recall@20 0.998 at 100k but 0.924 at 1M, where x60 gives 0.986.
    const rows = a?.rows ?? 0;
    return {
      indexed: Boolean(a),
      nprobes: Math.max(16, Math.ceil((a?.partitions ?? 0) / 4)),
      refineFactor: Math.max(25, Math.round(25 * (rows / 100_000) ** 0.4)),
    };
  }

  private schedule(): void {
    this.dirty = true;
    this.lastWrite = Date.now();
    this.arm();
  }

  /**
   * While writes go on, the indexes catch up only once the unindexed rows are half the indexed ones,
   * so a big ingestion updates them a handful of times rather than at every 5 % of growth (each
   * update is an optimize of the table); once writes settle, everything is indexed.
   */
  private arm(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const settled = Date.now() - this.lastWrite >= this.delayMs;
      if (settled) this.dirty = true;
      if (!this.running) this.running = this.run(settled).finally(() => (this.running = null));
      if (!settled) this.arm(); // look again once writes settle
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
    await this.ensureFts();
    const fts = (await this.paragraphs.indexes()).find((i) => i.column === "terms");
    const unindexed = fts?.unindexedRows ?? 0;
    if (unindexed > 0 && (force || unindexed >= Math.max(2000, (fts?.indexedRows ?? 0) * 0.5))) {
      // Between commits of the table's write queue, so it never races the store's own compaction.
      await this.timed("optimize", () => this.paragraphs.compact(true));
    }
    for (const vs of this.paragraphs.vectorColumns().keys()) {
      const n = await this.paragraphs.countVectors(vs);
      const have = this.ann.get(vectorColumn(vs));
      if (n < this.annMinRows || (have && n < have.rows * 2)) continue;
      const partitions = partitionsFor(n);
      await this.timed(`ivf_rq ${vs} (${n} vectors)`, () => this.paragraphs.buildVectorIndex(vs, partitions));
      this.ann.set(vectorColumn(vs), { rows: n, partitions });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running.catch(() => undefined);
  }
}
