import * as lancedb from "@lancedb/lancedb";
import { analysisLanguage, keywordTerms } from "../text/analyzer.js";
import { arrow, tableOf } from "./arrow.js";
import { appendRows, type Connection, openOrCreate, sqlIn, sqlString, type Table } from "./db.js";
import { MintedKeys } from "./minted.js";
import { ReplaceJournal } from "./paragraph-journal.js";
import type { ParagraphRow } from "./paragraph-row.js";
import {
  type AnnSettings,
  ftsIndex,
  HIT_COLUMNS,
  type HitColumns,
  hitsOf,
  type IndexInfo,
  type KeywordQuery,
  keywordSearch,
  nearestKept,
  type ParagraphHit,
  TERMS_INDEX,
  VECTOR_INDEX_TYPE,
  vectorSearch,
} from "./paragraph-search.js";
import { Settler, VERSION_RETENTION_MS } from "./settle.js";
import { WriteQueue } from "./write-queue.js";

export type { ParagraphRow };

const { Bool, Field, FixedSizeList, Float32, Int32, List, Schema, Utf8 } = arrow;

const list = (name: string) => new Field(name, new List(new Field("item", new Utf8(), true)), true);

export const PARAGRAPH_BASE_FIELDS = [
  new Field("id", new Utf8(), false),
  new Field("rid", new Utf8(), false),
  new Field("field", new Utf8(), false),
  new Field("field_type", new Utf8(), false),
  new Field("split", new Utf8(), false),
  new Field("start", new Int32(), false),
  new Field("end", new Int32(), false),
  new Field("page", new Int32(), false),
  new Field("idx", new Int32(), false),
  new Field("kind", new Utf8(), false),
  new Field("is_table", new Bool(), false),
  list("labels"),
  list("facets"),
  new Field("text", new Utf8(), false),
  new Field("lang", new Utf8(), false),
  new Field("hash", new Utf8(), false),
  new Field("terms", new Utf8(), false),
];

export const vectorColumn = (vectorset: string) => `vec_${vectorset.replace(/[^A-Za-z0-9_]/g, "_")}`;

function vectorField(vectorset: string, dim: number) {
  return new Field(vectorColumn(vectorset), new FixedSizeList(dim, new Field("item", new Float32(), true)), true);
}

/** When background compaction looks at the table, and how many small fragments make it worth it. */
export interface CompactionPolicy {
  checkEvery: number;
  minSmallFragments: number;
  /** Quiet time after the last write before the settling compaction (default: Settler's). */
  settleMs?: number;
}
const RID_INDEX = "rid_idx";
/** Tries of an index build or a compaction whose commit the other preempted (see `buildIndex`). */
const CONFLICT_ATTEMPTS = 3;

async function retryConflicts<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= CONFLICT_ATTEMPTS || !/retryable commit conflict/i.test(String((e as Error)?.message))) throw e;
    }
  }
}
/** Resource attributes older versions copied onto every paragraph; dropped when such a table is opened. */
const LEGACY_COLUMNS = ["path", "created", "modified", "hidden", "groups"];
const DEFAULT_COMPACTION: CompactionPolicy = { checkEvery: 50, minSmallFragments: 64 };

type Op = { kind: "replace"; rid: string; field: string; rows: ParagraphRow[] } | { kind: "deleteResource"; rid: string };

/**
 * The paragraph table of one knowledge box: the only code that knows its layout.
 *
 * Writes go through one queue to the `writer` handle. A field's replace is two commits (delete, then
 * add: both use the `rid` BTREE index, so their cost does not grow with the table, unlike a
 * merge-insert with a not-matched-by-source delete, which joins against the whole table). Readers
 * use `table`, a second handle pinned to the last version at which no replace was half done; it
 * moves forward after every commit, so a reader never sees a field between its two commits. A crash
 * between them is rolled forward from the journal on the next open.
 */
export class ParagraphStore {
  private readonly queue: WriteQueue<Op>;
  private published = -1;
  /** The table's schema, read once per change of columns (LanceDB decodes it from IPC on every call). */
  private schema: Promise<InstanceType<typeof Schema>> | undefined;
  private vectorsets = new Map<string, number>();
  private readonly commitListeners: (() => void)[] = [];
  private commits = 0;
  /** Resources minted by this process and their fields written since: a first write is one append. */
  private readonly fresh = new MintedKeys();
  private readonly compaction: CompactionPolicy;
  /** Compaction runs so far, for tests, benchmarks and logs. */
  readonly compactions: { fragmentsBefore: number; ms: number }[] = [];

  /**
   * Once writes settle: compaction and cleanup of old versions, then the full-text index if the table
   * has none yet. A box filled before its first search used to get that index at the search, which
   * then waited for it (6.6 s over 500,000 paragraphs); built here, it is ready by the time the
   * user asks. Not earlier: every compaction folds new rows into the index, which during a big
   * ingestion meant rewriting it again and again (see `holdMaintenanceWhile`).
   */
  private readonly settler: Settler;
  private closed = false;

  private constructor(
    /** The latest version, for writes and index builds (see `buildIndex`); readers use `table`. */
    private readonly writer: Table,
    private readonly reader: Table,
    private readonly journal: ReplaceJournal,
    compaction: Partial<CompactionPolicy> = {},
  ) {
    this.queue = new WriteQueue((ops) => this.commit(ops), 4096);
    this.compaction = { ...DEFAULT_COMPACTION, ...compaction };
    this.settler = new Settler(async () => {
      await this.compact(true);
      await this.ensureKeywordIndex();
    }, this.compaction.settleMs);
  }

  /** Open (creating) the table; `journal` is the file that makes replaces crash-safe (none: in-memory only). */
  static async open(db: Connection, compaction: Partial<CompactionPolicy> = {}, journal?: string): Promise<ParagraphStore> {
    const writer = await openOrCreate(db, "paragraphs", new Schema(PARAGRAPH_BASE_FIELDS));
    const j = new ReplaceJournal(journal);
    await j.replay(writer);
    const legacy = (await writer.schema()).fields.map((f) => f.name).filter((n) => LEGACY_COLUMNS.includes(n));
    if (legacy.length) await writer.dropColumns(legacy);
    const indexed = (await writer.listIndices()).some((i) => i.columns[0] === "rid");
    const empty = !indexed && (await writer.countRows()) === 0;
    if (empty) await writer.createIndex("rid", { config: lancedb.Index.btree(), name: RID_INDEX, replace: false });
    const reader = await db.openTable("paragraphs");
    const store = new ParagraphStore(writer, reader, j, compaction);
    await store.publish();
    for (const f of (await writer.schema()).fields) {
      if (f.name.startsWith("vec_") && f.type instanceof FixedSizeList) store.vectorsets.set(f.name.slice(4), f.type.listSize);
    }
    // A table from before the index: build it in the background (writes meanwhile scan, as before).
    if (!indexed && !empty)
      void store
        .buildIndex("rid", () => ({ config: lancedb.Index.btree(), name: RID_INDEX, replace: false }))
        .catch(() => undefined);
    return store;
  }

  /**
   * Tell the table when more writes are on their way (the ingestion queue has work for its box): its
   * compaction, which also folds the new rows into the full-text index, then waits for the end of
   * the run instead of coming at each pause between batches. At 600,000 paragraphs of PDFs, each such
   * fold took seconds and 150–200 MB more memory than the last, after every batch.
   */
  holdMaintenanceWhile(busy: () => boolean): void {
    this.settler.busy = busy;
  }

  /** The table for queries: pinned to the last version with no replace half done. */
  private get table(): Table {
    return this.reader;
  }

  /** The table version readers see (never between the two commits of a replace): what a snapshot pins. */
  readVersion(): Promise<number> {
    return this.reader.version();
  }

  /** BM25 top `limit` paragraphs matching `query` (analysed in `langs`) under the prefilter `where`, best first. */
  keyword(query: KeywordQuery, langs: string[], where: string, limit: number, columns?: HitColumns): Promise<ParagraphHit[]> {
    return keywordSearch(this.table, query, langs, where, limit, columns);
  }

  /** The `limit` paragraphs nearest to `vector` in a vectorset, under the prefilter `where`, best first. */
  nearest(
    vectorset: string,
    vector: number[],
    where: string,
    limit: number,
    ann?: AnnSettings,
    columns?: HitColumns,
  ): Promise<ParagraphHit[]> {
    return vectorSearch(this.table, vectorColumn(vectorset), vector, where, limit, ann, columns);
  }

  /** The `window` nearest paragraphs of the resources `keep` accepts, among `candidates` (see nearestKept). */
  nearestKept(
    vectorset: string,
    vector: number[],
    where: string,
    keep: (rid: string) => boolean,
    window: number,
    candidates: number,
    ann: AnnSettings,
  ): Promise<{ hits: ParagraphHit[]; exhausted: boolean } | undefined> {
    return nearestKept(this.table, vectorColumn(vectorset), vector, where, keep, window, candidates, ann.nprobes);
  }

  /**
   * Hits of an `ids` pass with every result column, in their order and with their scores. Rows are taken by the
   * address the pass read them at; a row that moved since (a compaction committed between the two reads) is found
   * again by id through the rid index.
   */
  async complete(hits: ParagraphHit[]): Promise<ParagraphHit[]> {
    if (!hits.length) return [];
    const byId = new Map<string, ParagraphHit>();
    const addressed = hits.filter((h) => h.rowid !== undefined);
    if (addressed.length) {
      const taken = await this.table
        .takeRowIds(addressed.map((h) => BigInt(h.rowid as number)))
        .select([...HIT_COLUMNS])
        .toArrow()
        .catch(() => undefined); // an address from a version compacted away: find them by id below
      for (const h of taken ? hitsOf(taken, "_score", () => 0) : []) byId.set(h.id, h);
    }
    const missing = hits.filter((h) => !byId.has(h.id));
    if (missing.length) {
      const where = `${sqlIn("rid", new Set(missing.map((h) => h.rid)))} AND ${sqlIn(
        "id",
        missing.map((h) => h.id),
      )}`;
      const found = await this.table
        .query()
        .where(where)
        .select([...HIT_COLUMNS])
        .toArrow();
      for (const h of hitsOf(found, "_score", () => 0)) byId.set(h.id, h);
    }
    return hits.flatMap((h) => {
      const f = byId.get(h.id);
      if (!f) return [];
      const { rowid: _, ...row } = f;
      return [{ ...row, score: h.score }];
    });
  }

  /** The table's indexes, and how many rows each covers. */
  async indexes(): Promise<IndexInfo[]> {
    const out: IndexInfo[] = [];
    for (const i of await this.table.listIndices()) {
      const stats = await this.table.indexStats(i.name).catch(() => undefined);
      const column = i.columns[0] ?? "";
      out.push({
        name: i.name,
        column,
        vectorset: column.startsWith("vec_") ? column.slice(4) : undefined,
        current: i.name === TERMS_INDEX || (column.startsWith("vec_") && i.indexType === VECTOR_INDEX_TYPE),
        indexedRows: stats?.numIndexedRows ?? 0,
        unindexedRows: stats?.numUnindexedRows ?? 0,
      });
    }
    return out;
  }

  /**
   * Build the full-text index over the analysed terms, unless it exists. One build at a time: the
   * settling compaction and a first search may both ask for it, and the second waits for the first.
   */
  ensureKeywordIndex(): Promise<void> {
    this.keywordBuild ??= this.building(async () => {
      const names = (await this.table.listIndices()).map((i) => i.name);
      if (!names.includes(TERMS_INDEX))
        await this.buildIndex("terms", () => ({ config: ftsIndex(), name: TERMS_INDEX, replace: false }));
    }).finally(() => {
      this.keywordBuild = undefined;
    });
    return this.keywordBuild;
  }
  private keywordBuild: Promise<void> | undefined;

  /** (Re)build a vectorset's ANN index (IVF_RQ, cosine) with `partitions` partitions. */
  buildVectorIndex(vectorset: string, partitions: number): Promise<void> {
    return this.buildIndex(vectorColumn(vectorset), () => ({
      config: lancedb.Index.ivfRq({ distanceType: "cosine", numPartitions: partitions }),
      replace: true,
    }));
  }

  /** Paragraphs holding a vector of this vectorset. */
  countVectors(vectorset: string): Promise<number> {
    return this.vectorsets.has(vectorset) ? this.table.countRows(`${vectorColumn(vectorset)} IS NOT NULL`) : Promise.resolve(0);
  }

  /** Bytes the table takes on disk (0 when unknown). */
  async sizeBytes(): Promise<number> {
    const stats = await this.table.stats().catch(() => undefined);
    return stats?.totalBytes ?? 0;
  }

  /** Every resource id that has paragraphs. */
  async resourceIds(): Promise<Set<string>> {
    const rids = new Set<string>();
    for await (const batch of this.table.query().select(["rid"])) {
      for (const r of batch.getChild("rid")?.toArray() ?? []) rids.add(r as string);
    }
    return rids;
  }

  /** Every paragraph of some resources, with the columns named (never vectors unless asked). */
  async ofResources<K extends keyof ParagraphRow>(rids: Iterable<string>, columns: K[]): Promise<Pick<ParagraphRow, K>[]> {
    const list = [...new Set(rids)];
    if (!list.length) return [];
    const rows = await this.table.query().where(sqlIn("rid", list)).select(columns).toArray();
    return rows.map((r) => {
      const out: Record<string, unknown> = {};
      for (const c of columns) {
        const v = (r as Record<string, unknown>)[c];
        out[c] =
          typeof v === "bigint"
            ? Number(v)
            : v && typeof v === "object" && "toArray" in v
              ? Array.from(v as unknown as ArrayLike<unknown>)
              : v;
      }
      return out as Pick<ParagraphRow, K>;
    });
  }

  /**
   * Build an index on the latest version (reads and writes go on meanwhile), then show it to readers.
   * A compaction and an index build committed meanwhile preempt each other (LanceDB: "Retryable
   * commit conflict"): a box filled before its first search was left without a full-text index when
   * the settling compaction came while that search built it, and every keyword query then read and
   * tokenised every paragraph (half a second at 150,000) until the next write. So compactions wait
   * for the builds under way, and either one preempted all the same is tried again.
   */
  private buildIndex(column: string, options: () => Partial<lancedb.IndexOptions>): Promise<void> {
    return this.building(async () => {
      // A fresh configuration each try: LanceDB's index objects are spent by the first.
      await retryConflicts(() => this.writer.createIndex(column, options()));
      await this.queue.exclusive(() => this.publish());
    });
  }

  /** Index builds under way, each until it settles: compactions wait for them (see `buildIndex`). */
  private readonly builds = new Set<Promise<void>>();

  /**
   * Run an index build, counted among those under way. None starts once the table is closed: a build
   * writes into the table's folder outside the write queue, and `stopped` waits only for those begun.
   */
  private building<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the paragraph table is closed"));
    const work = fn();
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.builds.add(settled);
    void settled.then(() => this.builds.delete(settled));
    return work;
  }

  /** Move the read handle to the latest version; only between commits (in the queue, or at open). */
  private async publish(): Promise<void> {
    const v = await this.writer.version();
    if (v === this.published) return;
    await this.reader.checkout(v);
    this.published = v;
  }

  /** Vectorsets with a column in the table, and their dimensions. */
  vectorColumns(): ReadonlyMap<string, number> {
    return this.vectorsets;
  }

  /** Add a vector column for a vectorset (nulls for existing rows). */
  async ensureVectorset(vectorset: string, dim: number): Promise<void> {
    const have = this.vectorsets.get(vectorset);
    if (have === dim) return;
    if (have !== undefined) throw new Error(`vectorset ${vectorset} has dimension ${have}, not ${dim}`);
    // Several resources embedded at once each find the column missing: the first adds it, the others
    // (queued behind it) see it there. Adding it twice failed their embedding ("column already exists").
    await this.exclusive(async (t) => {
      const col = (await t.schema()).fields.find((f) => f.name === vectorColumn(vectorset));
      if (!col) await t.addColumns(new Schema([vectorField(vectorset, dim)]));
      else if (col.type instanceof FixedSizeList && col.type.listSize !== dim)
        throw new Error(`vectorset ${vectorset} has dimension ${col.type.listSize}, not ${dim}`);
    });
    this.schema = undefined;
    this.vectorsets.set(vectorset, dim);
  }

  /** Atomically replace every paragraph of one field (readers never see half of it; see the class note). */
  replaceField(rid: string, field: string, rows: ParagraphRow[]): Promise<void> {
    return this.queue.push({ kind: "replace", rid, field, rows });
  }

  deleteResource(rid: string): Promise<void> {
    this.fresh.forget(rid);
    return this.queue.push({ kind: "deleteResource", rid });
  }

  /** Declare a resource id that was just minted: no paragraph of it can exist yet. */
  markNew(rid: string): void {
    this.fresh.mint(rid);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Once closed: resolves when no commit or compaction is running and the index builds under way
   * (outside the write queue) are done; all of them write into the table's folder.
   */
  async stopped(): Promise<void> {
    await this.queue.stopped();
    await Promise.all(this.builds);
  }

  /** Refuse later writes (see WriteQueue.close). */
  close(reason?: string): void {
    this.closed = true;
    clearInterval(this.follower);
    this.settler.close();
    this.queue.close(reason);
  }

  private follower: NodeJS.Timeout | undefined;

  /**
   * Other daemons write this table too (data on object storage): every `ms`, move the read handle
   * to the latest version and learn vector columns they added. Their replace may then be seen
   * between its two commits for up to `ms` (a field briefly without paragraphs); their first writes
   * of new resources are single appends.
   */
  followOthers(ms: number): void {
    this.follower = setInterval(() => {
      void this.queue
        .exclusive(async () => {
          const before = this.published;
          await this.publish();
          if (this.published === before) return;
          this.schema = undefined;
          for (const f of (await this.writer.schema()).fields)
            if (f.name.startsWith("vec_") && f.type instanceof FixedSizeList)
              this.vectorsets.set(f.name.slice(4), f.type.listSize);
          // Index upkeep stays with the daemon that wrote (rows not yet indexed are searched flat).
        })
        .catch(() => undefined);
    }, ms);
    this.follower.unref();
  }

  /** Called after every commit (search uses it to refresh indexes in the background). */
  onCommit(fn: () => void): void {
    this.commitListeners.push(fn);
  }

  /** Paragraphs stored (matching a filter over the table's columns: the store's own tests). */
  async count(filter?: string): Promise<number> {
    return this.table.countRows(filter);
  }

  /** Content hashes of a field's current paragraphs, with their vectors, for incremental re-embedding. */
  async existingVectors(rid: string, field: string, vectorset: string): Promise<Map<string, number[]>> {
    const col = vectorColumn(vectorset);
    if (!this.vectorsets.has(vectorset)) return new Map();
    const rows = await this.table
      .query()
      .where(`rid = ${sqlString(rid)} AND field = ${sqlString(field)}`)
      .select(["hash", col])
      .toArray();
    const out = new Map<string, number[]>();
    for (const r of rows) if (r[col]) out.set(r.hash as string, Array.from(r[col] as ArrayLike<number>));
    return out;
  }

  /** Every stored paragraph of a resource, read back as rows (vectors and analysed terms as stored). */
  async resourceRows(rid: string): Promise<ParagraphRow[]> {
    const raw = await this.table
      .query()
      .where(`rid = ${sqlString(rid)}`)
      .toArray();
    return raw.map((r) => this.fromArrowRow(r as Record<string, unknown>));
  }

  /** The inverse of toArrowRow. */
  private fromArrowRow(r: Record<string, unknown>): ParagraphRow {
    const list = (v: unknown): string[] => (v ? Array.from(v as ArrayLike<string>) : []);
    const vectors: Record<string, number[]> = {};
    for (const [vs] of this.vectorsets) {
      const v = r[vectorColumn(vs)];
      if (v) vectors[vs] = Array.from(v as ArrayLike<number>);
    }
    return {
      id: r.id as string,
      rid: r.rid as string,
      field: r.field as string,
      field_type: r.field_type as string,
      split: r.split as string,
      start: Number(r.start),
      end: Number(r.end),
      page: Number(r.page),
      idx: Number(r.idx),
      kind: r.kind as string,
      is_table: Boolean(r.is_table),
      labels: list(r.labels),
      facets: list(r.facets),
      text: r.text as string,
      lang: r.lang as string,
      terms: r.terms as string | undefined,
      hash: r.hash as string,
      vectors,
    };
  }

  toArrowRow(row: ParagraphRow): Record<string, unknown> {
    const terms = row.terms ?? keywordTerms(row.text, row.context, analysisLanguage(row.lang));
    const out: Record<string, unknown> = { terms };
    for (const f of PARAGRAPH_BASE_FIELDS) if (f.name !== "terms") out[f.name] = row[f.name as keyof ParagraphRow];
    const vectors = row.vectors;
    for (const [vs] of this.vectorsets) {
      const v = vectors?.[vs];
      out[vectorColumn(vs)] = v ? Array.from(v) : null;
    }
    return out;
  }

  private async commit(ops: Op[]): Promise<void> {
    // Background compaction and index refresh (daemon/search/maintenance.ts) can race a commit; the
    // ops are idempotent, so a conflicting commit is simply applied again.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.apply(ops);
        break;
      } catch (e) {
        if (attempt >= 4 || !/conflict|retryable|concurrent/i.test(String((e as Error)?.message))) {
          // Never leave a replace half done behind the next publish: roll it forward, or fail loudly.
          await this.journal.replay(this.writer).catch(() => undefined);
          await this.publish().catch(() => undefined);
          throw e;
        }
        await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
      }
    }
    await this.publish();
    for (const fn of this.commitListeners) fn();
    // Every commit adds a small fragment; scans slow down with thousands of them, so they are merged
    // in the background, as a task of the write queue so that it never races a commit.
    if (++this.commits % this.compaction.checkEvery === 0) void this.compact(false).catch(() => undefined);
    this.settler.wrote();
  }

  /**
   * Merge small fragments and drop versions past the retention (backups tag the versions they copy).
   * Runs between commits; unless `force`, only when enough small fragments piled up.
   */
  async compact(force = true): Promise<boolean> {
    await Promise.all(this.builds); // outside the write queue: commits go on meanwhile
    return this.exclusive(async (t) => {
      const stats = await t.stats().catch(() => undefined);
      const small = stats?.fragmentStats.numSmallFragments ?? 0;
      if (!force && small < this.compaction.minSmallFragments) return false;
      const t0 = performance.now();
      await retryConflicts(() => t.optimize({ cleanupOlderThan: new Date(Date.now() - VERSION_RETENTION_MS) }));
      this.compactions.push({ fragmentsBefore: stats?.fragmentStats.numFragments ?? 0, ms: performance.now() - t0 });
      return true;
    });
  }

  /** Append rows in one commit, between commits of the queue (bulk loads: benchmarks, restores); no journal, no delete. */
  bulkAdd(rows: ParagraphRow[]): Promise<void> {
    return this.exclusive(async (t) => {
      this.schema ??= t.schema();
      await appendRows(
        t,
        tableOf(
          await this.schema,
          rows.map((r) => this.toArrowRow(r)),
        ),
      );
    });
  }

  /** Run table maintenance (optimize, bulk loads) on the latest version, between commits; readers see it after. */
  exclusive<T>(fn: (table: Table) => Promise<T>): Promise<T> {
    return this.queue.exclusive(async () => {
      try {
        return await fn(this.writer);
      } finally {
        await this.publish().catch(() => undefined);
      }
    });
  }

  private async apply(ops: Op[]): Promise<void> {
    // Group consecutive ops per (rid, field) so a burst of small fields still becomes few commits.
    const deletes: string[] = [];
    const replaces = new Map<string, Extract<Op, { kind: "replace" }>>();
    for (const op of ops) {
      if (op.kind === "deleteResource") {
        deletes.push(op.rid);
        for (const k of replaces.keys()) if (k.startsWith(`${op.rid}\u0000`)) replaces.delete(k);
      } else replaces.set(`${op.rid}\u0000${op.field}`, op);
    }
    const reps = [...replaces.values()];
    // First writes of fields of a new resource have nothing to delete: no journal, no delete commit.
    const first = new Set(reps.filter((r) => this.fresh.absent(r.rid, r.field)));
    const rows = reps.flatMap((r) => r.rows.map((p) => this.toArrowRow(p)));
    // `rid IN (...)` first: the BTREE index finds the rows; the per-field scope refines them.
    const whereOf = (rs: typeof reps) => {
      const scope = [
        ...(deletes.length ? [sqlIn("rid", deletes)] : []),
        ...rs.map((r) => `(rid = ${sqlString(r.rid)} AND field = ${sqlString(r.field)})`),
      ];
      return scope.length
        ? `${sqlIn("rid", new Set([...deletes, ...rs.map((r) => r.rid)]))} AND (${scope.join(" OR ")})`
        : undefined;
    };
    const stale = whereOf(reps.filter((r) => !first.has(r)));
    try {
      if (!rows.length) {
        if (stale) await this.writer.delete(stale);
        return;
      }
      this.schema ??= this.writer.schema();
      // Serialised once: the journal holds the same bytes as the commit adds.
      const ipc = arrow.tableToIPC(tableOf(await this.schema, rows), "file");
      if (stale) {
        // The journal's scope covers the first writes too, so that replaying it never adds them twice.
        await this.journal.write(whereOf(reps) as string, ipc);
        await this.writer.delete(stale);
      }
      await appendRows(this.writer, ipc);
      if (stale) await this.journal.clear();
      for (const r of first) this.fresh.written(r.rid, r.field);
    } catch (e) {
      for (const r of reps) this.fresh.forget(r.rid); // unsure what landed: back to the safe path
      throw e;
    }
  }
}
