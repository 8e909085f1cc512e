import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { BlobStore } from "./blobs.js";
import { type CacheSizes, type Connection, openDb, openSession, type Session } from "./db.js";
import { DocTable, GroupedDocTable } from "./doc-table.js";
import { checkTables, registerConnection, type TableHealth } from "./health.js";
import { extractedBlobKey, resourceBlobPrefix } from "./keys.js";
import { ParagraphStore } from "./paragraphs.js";
import type { FieldDoc, KbDoc, ResourceDoc, ServiceAccountDoc } from "./records.js";
import type { AccountDoc, InviteDoc, NuaClientDoc, NuaRequestDoc, NuaUsageDoc, PatDoc, UserDoc } from "./zone-records.js";

/** The zone's tables (meta database): accounts, users, invitations, personal tokens, NUA clients. */
export interface ZoneTables {
  accounts: DocTable<AccountDoc>;
  users: DocTable<UserDoc>;
  invites: DocTable<InviteDoc>;
  pats: DocTable<PatDoc>;
  nuaClients: DocTable<NuaClientDoc>;
  /** Understanding-API processing requests and token usage per client. */
  nuaRequests: DocTable<NuaRequestDoc>;
  nuaUsage: DocTable<NuaUsageDoc>;
}

/** Everything stored for one knowledge box: its LanceDB tables and its blob folder. */
export class KbStore {
  private constructor(
    readonly kbid: string,
    readonly dir: string,
    private readonly db: Connection,
    readonly resources: DocTable<ResourceDoc>,
    readonly fields: GroupedDocTable<FieldDoc>,
    readonly paragraphs: ParagraphStore,
    readonly blobs: BlobStore,
  ) {
    registerConnection(this, db);
  }

  /** Every table of this knowledge box: opened, counted and read (doctor). */
  health(): Promise<TableHealth[]> {
    return checkTables(this.db);
  }

  /** Remove every blob of a resource (its files and extracted text); a failure only leaves orphan files behind. */
  removeResourceBlobs(rid: string): Promise<void> {
    return this.blobs.remove(resourceBlobPrefix(rid));
  }

  /** Open a knowledge box's folder; `session` holds the caches shared with the daemon's other boxes. */
  static async open(kbid: string, dir: string, session?: Session): Promise<KbStore> {
    const db = await openDb(join(dir, "lance"), session);
    const [resources, fields, paragraphs] = await Promise.all([
      DocTable.open<ResourceDoc>(db, "resources"),
      GroupedDocTable.open<FieldDoc>(db, "fields"),
      ParagraphStore.open(db, {}, join(dir, "paragraphs.journal")),
    ]);
    return new KbStore(kbid, dir, db, resources, fields, paragraphs, new BlobStore(join(dir, "blobs")));
  }

  private readonly extra: { close(reason?: string): void }[] = [];

  /** A resource id was just minted: its fields and paragraphs are written without looking for old ones. */
  markNewResource(rid: string): void {
    this.fields.markNew(rid);
    this.paragraphs.markNew(rid);
  }

  /**
   * Write a field's extraction output (its whole text and paragraph positions: often larger than
   * everything else about the field) to the blob folder, under a new key; returns the key. Kept out
   * of the fields table, whose compactions rewrite every row: with the text inline, each compaction
   * rewrote (and held in memory) all the text of the knowledge box.
   */
  async writeExtracted(rid: string, field: string, extracted: Record<string, unknown>): Promise<string> {
    const name = `${createHash("sha1").update(field).digest("hex").slice(0, 16)}-${randomBytes(4).toString("hex")}.json`;
    const key = extractedBlobKey(rid, name);
    await this.blobs.write(key, Buffer.from(JSON.stringify(extracted)));
    return key;
  }

  /** Fill in `extracted` of field records whose output is in the blob folder (for `show=extracted`). */
  async loadExtracted(docs: Iterable<FieldDoc | undefined>): Promise<void> {
    await Promise.all(
      [...docs].map(async (d) => {
        if (!d?.extracted_blob || d.extracted) return;
        // A file removed under us (the field was reprocessed meanwhile) reads as nothing extracted yet.
        d.extracted = await readFile(this.blobs.path(d.extracted_blob), "utf8").then(JSON.parse, () => undefined);
      }),
    );
  }

  /** Remove blobs no record points to any more; a failure only leaves an orphan file behind. */
  async removeBlobs(keys: Iterable<string | undefined>): Promise<void> {
    await Promise.all([...keys].filter((k): k is string => Boolean(k)).map((k) => this.blobs.remove(k).catch(() => undefined)));
  }

  /** Open another table of this knowledge box's database (search configurations, labelsets, sync, ...). */
  async docTable<T>(name: string): Promise<DocTable<T>> {
    const t = await DocTable.open<T>(this.db, name);
    this.extra.push(t);
    return t;
  }

  /** Open another grouped-document table of this knowledge box's database. */
  async groupedDocTable<T>(name: string): Promise<GroupedDocTable<T>> {
    const t = await GroupedDocTable.open<T>(this.db, name);
    this.extra.push(t);
    return t;
  }

  /** Wait until every acknowledged write is committed. */
  async idle(): Promise<void> {
    await Promise.all([this.resources.idle(), this.fields.idle(), this.paragraphs.idle()]);
  }

  /** Close the database; writes still arriving (e.g. from work on a deleted box) are refused. */
  close(reason = "the knowledge box is closed"): void {
    for (const t of [this.resources, this.fields, this.paragraphs, ...this.extra]) t.close(reason);
    this.blobs.close(reason);
    this.db.close();
  }
}

/** The data dir: the account-level tables and one folder per knowledge box. */
export class Store {
  private readonly open = new Map<string, Promise<KbStore>>();

  private constructor(
    readonly dataDir: string,
    /** LanceDB's caches, shared by every table of the store (undefined: LanceDB's defaults). */
    readonly session: Session | undefined,
    private readonly meta: Connection,
    readonly kbs: DocTable<KbDoc>,
    readonly accounts: DocTable<ServiceAccountDoc>,
    readonly zone: ZoneTables,
  ) {}

  /** Open another table of the account-level database (backups, schedules, ...). */
  metaTable<T>(name: string): Promise<DocTable<T>> {
    return DocTable.open<T>(this.meta, name);
  }

  /** Every account-level table: opened, counted and read (doctor). */
  health(): Promise<TableHealth[]> {
    return checkTables(this.meta);
  }

  /** Open the data dir; every table of every knowledge box shares caches of `caches` size (LanceDB's defaults without). */
  static async open(dataDir: string, caches?: CacheSizes): Promise<Store> {
    const session = caches && openSession(caches);
    const meta = await openDb(join(dataDir, "meta"), session);
    const [kbs, accounts, zoneAccounts, users, invites, pats, nuaClients, nuaRequests, nuaUsage] = await Promise.all([
      DocTable.open<KbDoc>(meta, "kbs"),
      DocTable.open<ServiceAccountDoc>(meta, "service_accounts"),
      DocTable.open<AccountDoc>(meta, "accounts"),
      DocTable.open<UserDoc>(meta, "users"),
      DocTable.open<InviteDoc>(meta, "invites"),
      DocTable.open<PatDoc>(meta, "personal_tokens"),
      DocTable.open<NuaClientDoc>(meta, "nua_clients"),
      DocTable.open<NuaRequestDoc>(meta, "nua_requests"),
      DocTable.open<NuaUsageDoc>(meta, "nua_usage"),
    ]);
    const zone = { accounts: zoneAccounts, users, invites, pats, nuaClients, nuaRequests, nuaUsage };
    const store = new Store(dataDir, session, meta, kbs, accounts, zone);
    await store.sweep();
    return store;
  }

  /**
   * Finish deletions a kill interrupted: a deleted box's folder waits in `trash/` until it is gone, and
   * a box folder no knowledge box owns (deleted but not yet moved, or re-created by late work) goes too.
   */
  async sweep(): Promise<string[]> {
    const removed: string[] = [];
    const trash = join(this.dataDir, "trash");
    for (const name of await readdir(trash).catch(() => [] as string[])) {
      await rm(join(trash, name), { recursive: true, force: true }).catch(() => undefined);
      removed.push(`trash/${name}`);
    }
    for (const name of await readdir(join(this.dataDir, "kbs")).catch(() => [] as string[])) {
      if (!/^[0-9a-f-]{36}$/.test(name) || this.kbs.has(name) || this.open.has(name)) continue;
      await this.moveToTrash(name);
      removed.push(`kbs/${name}`);
    }
    return removed;
  }

  /** One rename takes a box's folder out of `kbs/` (atomic); removing the bytes may then take its time. */
  private async moveToTrash(kbid: string): Promise<void> {
    const trash = join(this.dataDir, "trash");
    await mkdir(trash, { recursive: true, mode: 0o700 });
    const dest = join(trash, `${kbid}.${randomBytes(4).toString("hex")}`);
    try {
      await rename(this.kbDir(kbid), dest);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
      throw e;
    }
    await rm(dest, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Bytes held by LanceDB's index and metadata caches (daemon status). */
  cacheBytes(): number {
    return Number(this.session?.sizeBytes() ?? 0);
  }

  kbDir(kbid: string): string {
    // kbids are validated uuids before they reach here; the join cannot leave the data dir.
    if (!/^[0-9a-f-]{36}$/.test(kbid)) throw new Error(`invalid kbid ${kbid}`);
    return join(this.dataDir, "kbs", kbid);
  }

  /** The store of one knowledge box, opened once and shared. */
  kb(kbid: string): Promise<KbStore> {
    let s = this.open.get(kbid);
    // A deleted box must not be re-created by late work (a queued task, a watcher) opening it.
    if (!s && !this.kbs.has(kbid)) return Promise.reject(new Error(`knowledge box ${kbid} does not exist`));
    if (!s) {
      s = KbStore.open(kbid, this.kbDir(kbid), this.session);
      this.open.set(kbid, s);
      s.catch(() => this.open.delete(kbid));
    }
    return s;
  }

  /**
   * Close and remove every byte of a knowledge box (its record is already gone): its folder moves to
   * `trash/` and is removed there; a kill on the way is finished by the next start's sweep. Work that
   * raced the deletion and wrote into the old folder again is swept a little later.
   */
  async dropKb(kbid: string): Promise<void> {
    const s = this.open.get(kbid);
    this.open.delete(kbid);
    if (s) {
      const kb = await s.catch(() => undefined);
      await kb?.idle().catch(() => undefined);
      kb?.close("the knowledge box was deleted");
    }
    await this.moveToTrash(kbid);
    for (const ms of [2000, 10_000]) {
      const late = setTimeout(() => {
        if (!this.kbs.has(kbid) && !this.open.has(kbid)) void this.moveToTrash(kbid).catch(() => undefined);
      }, ms);
      late.unref();
    }
  }

  async idle(): Promise<void> {
    await Promise.all([this.kbs.idle(), this.accounts.idle(), ...Object.values(this.zone).map((t) => t.idle())]);
    for (const s of this.open.values()) await (await s.catch(() => undefined))?.idle();
  }

  async close(): Promise<void> {
    await this.idle();
    for (const s of this.open.values()) (await s.catch(() => undefined))?.close();
    this.meta.close();
  }
}

export type { TableHealth } from "./health.js";
export { extractedBlobKey, type FieldKey, fieldRecordKey, fileBlobKey, paragraphId, resourceBlobPrefix, ridOf } from "./keys.js";
export type { AnnSettings, HitColumns, IndexInfo, KeywordQuery, ParagraphHit } from "./paragraph-search.js";
export type { FieldDoc, KbDoc, ResourceDoc, ServiceAccountDoc } from "./records.js";
export { resourceRelations } from "./records.js";
export type {
  AccountDoc,
  AccountRole,
  InviteDoc,
  KbMemberRole,
  NuaClientDoc,
  NuaRequestDoc,
  NuaUsageDoc,
  PatDoc,
  UserDoc,
} from "./zone-records.js";
