import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { ActivityLog } from "./activity.js";
import { BlobStore } from "./blobs.js";
import type { Bucket } from "./bucket.js";
import { type CacheSizes, type Connection, openDb, openSession, type RemoteDb, type Session } from "./db.js";
import { DocTable, GroupedDocTable } from "./doc-table.js";
import { checkTables, registerConnection, type TableHealth } from "./health.js";
import { extractedBlobKey, resourceBlobPrefix } from "./keys.js";
import { keyOf, lanceOptions, type ObjectLocation, uriOf } from "./location.js";
import { OriginIndex } from "./origin-index.js";
import { ParagraphStore } from "./paragraphs.js";
import type { FieldDoc, KbDoc, ResourceDoc, ServiceAccountDoc } from "./records.js";
import { ResourceIndex } from "./resource-index.js";
import type {
  AccountDoc,
  InviteDoc,
  ModelConfigDoc,
  NuaClientDoc,
  NuaRequestDoc,
  NuaUsageDoc,
  PatDoc,
  UserDoc,
} from "./zone-records.js";

/** The zone's tables (meta database): accounts, users, invitations, personal tokens, NUA clients. */
export interface ZoneTables {
  accounts: DocTable<AccountDoc>;
  users: DocTable<UserDoc>;
  invites: DocTable<InviteDoc>;
  pats: DocTable<PatDoc>;
  nuaClients: DocTable<NuaClientDoc>;
  /** Understanding-API processing requests and token usage per client. */
  nuaRequests: DocTable<NuaRequestDoc>;
  /** Model configuration records of the accounts (`/default_models`). */
  modelConfigs: DocTable<ModelConfigDoc>;
  nuaUsage: DocTable<NuaUsageDoc>;
}

/** Everything stored for one knowledge box: its LanceDB tables and its blob folder. */
export class KbStore {
  /** The resources by status and in creation order (the processing status), kept with the resources table. */
  readonly resourceIndex: ResourceIndex;
  /** The resources each sync configuration owns, by file id, kept with the resources table. */
  readonly origins: OriginIndex;

  private constructor(
    readonly kbid: string,
    readonly dir: string,
    private readonly db: Connection,
    readonly resources: DocTable<ResourceDoc>,
    readonly fields: GroupedDocTable<FieldDoc>,
    readonly paragraphs: ParagraphStore,
    readonly blobs: BlobStore,
    /** Set when the box is on object storage: how often its cached tables look for other daemons' commits. */
    private readonly refreshMs?: number,
    /** Set when the box is on object storage: its bucket and key prefix (`lance/` and `blobs/` below). */
    readonly objects?: BoxObjects,
  ) {
    registerConnection(this, db);
    this.resourceIndex = new ResourceIndex(resources);
    this.origins = new OriginIndex(resources);
  }

  /** Every table of this knowledge box: opened, counted and read (doctor). */
  health(): Promise<TableHealth[]> {
    return checkTables(this.db);
  }

  /** Remove every blob of a resource (its files and extracted text); a failure only leaves orphan files behind. */
  removeResourceBlobs(rid: string): Promise<void> {
    return this.blobs.remove(resourceBlobPrefix(rid));
  }

  /**
   * Open a knowledge box's folder; `session` holds the caches shared with the daemon's other boxes.
   * With `remote`, its tables and blobs are on object storage and `dir` is this machine's cache of them.
   */
  static async open(kbid: string, dir: string, session?: Session, remote?: RemoteKb): Promise<KbStore> {
    const db = await openDb(remote ? remote.uri : join(dir, "lance"), session, remote?.db);
    const [resources, fields, paragraphs] = await Promise.all([
      DocTable.open<ResourceDoc>(db, "resources", remote?.db.refreshMs),
      GroupedDocTable.open<FieldDoc>(db, "fields", Boolean(remote)),
      ParagraphStore.open(db, {}, join(dir, "paragraphs.journal")),
    ]);
    if (remote) paragraphs.followOthers(remote.db.refreshMs);
    const blobs = new BlobStore(join(dir, "blobs"), remote && { bucket: remote.bucket, prefix: remote.blobPrefix });
    const objects = remote && { bucket: remote.bucket, prefix: remote.prefix };
    return new KbStore(kbid, dir, db, resources, fields, paragraphs, blobs, remote?.db.refreshMs, objects);
  }

  private readonly extra: { close(reason?: string): void; stopped(): Promise<void> }[] = [];
  private activityLog: Promise<ActivityLog> | undefined;

  /** This knowledge box's activity log (opened on first use, replaying what a kill left in its journal). */
  activity(): Promise<ActivityLog> {
    if (!this.activityLog) {
      this.activityLog = ActivityLog.open(this.db, join(this.dir, "activity.journal"));
      this.activityLog.catch(() => {
        this.activityLog = undefined;
      });
    }
    return this.activityLog;
  }

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
    const json = Buffer.from(JSON.stringify(extracted));
    // The output is mostly the field's text again, which compresses several-fold: a pack deflates it
    // itself; a file is gzipped (fast level) here. One compression either way.
    const packed = this.blobs.packs(json.length);
    const key = extractedBlobKey(rid, `${fieldHash(field)}-${outputSuffix()}.json${packed ? "" : ".gz"}`);
    await this.blobs.write(key, packed ? json : gzipSync(json, { level: 1 }));
    return key;
  }

  /** A field's extraction output from the blob folder (gzipped, or plain JSON as older versions wrote it). */
  async readExtracted(key: string): Promise<Record<string, unknown> | undefined> {
    const bytes = await this.blobs.readBuffer(key);
    if (!bytes) return undefined;
    const json = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
    return JSON.parse(json.toString("utf8"));
  }

  /** Fill in `extracted` of field records whose output is in the blob folder (for `show=extracted`). */
  async loadExtracted(docs: Iterable<FieldDoc | undefined>): Promise<void> {
    await Promise.all(
      [...docs].map(async (d) => {
        if (!d?.extracted_blob || d.extracted) return;
        // A file removed under us (the field was reprocessed meanwhile) reads as nothing extracted yet.
        d.extracted = (await this.readExtracted(d.extracted_blob)) as FieldDoc["extracted"];
      }),
    );
  }

  /** Remove blobs no record points to any more; a failure only leaves an orphan file behind. */
  async removeBlobs(keys: Iterable<string | undefined>): Promise<void> {
    await Promise.all([...keys].filter((k): k is string => Boolean(k)).map((k) => this.blobs.remove(k).catch(() => undefined)));
  }

  /** Open another table of this knowledge box's database (search configurations, labelsets, sync, ...). */
  async docTable<T>(name: string): Promise<DocTable<T>> {
    const t = await DocTable.open<T>(this.db, name, this.refreshMs);
    this.extra.push(t);
    return t;
  }

  /** Open another grouped-document table of this knowledge box's database. */
  async groupedDocTable<T>(name: string): Promise<GroupedDocTable<T>> {
    const t = await GroupedDocTable.open<T>(this.db, name, this.refreshMs !== undefined);
    this.extra.push(t);
    return t;
  }

  /** Wait until every acknowledged write is committed. */
  async idle(): Promise<void> {
    await Promise.all([this.resources.idle(), this.fields.idle(), this.paragraphs.idle()]);
    await (await this.activityLog?.catch(() => undefined))?.idle();
  }

  /** Every table of the box this store opened. */
  private tables(): { close(reason?: string): void; stopped(): Promise<void> }[] {
    return [this.resources, this.fields, this.paragraphs, ...this.extra];
  }

  /**
   * Once closed: resolves when nothing of the box is writing any more (commits, compactions, sweeps
   * and index builds that had started, pack writes, the activity table's commit): its folder can go.
   */
  async stopped(): Promise<void> {
    await Promise.all([...this.tables().map((t) => t.stopped()), this.blobs.stopped()]);
    await (await this.activityLog?.catch(() => undefined))?.stopped();
  }

  /** Close the database; writes still arriving (e.g. from work on a deleted box) are refused. */
  close(reason = "the knowledge box is closed"): void {
    for (const t of this.tables()) t.close(reason);
    this.blobs.close(reason);
    void this.activityLog?.then((a) => a.close()).catch(() => undefined);
    this.db.close();
  }
}

/** The objects of one box on object storage: `<prefix>/lance/...` and `<prefix>/blobs/...`. */
export interface BoxObjects {
  bucket: Bucket;
  prefix: string;
}

/** Where one box's data is on object storage. */
export interface RemoteKb extends BoxObjects {
  uri: string;
  db: RemoteDb;
  blobPrefix: string;
}

/** A store on object storage: where, how LanceDB reaches it, and the bucket blobs go through. */
interface Remote {
  location: ObjectLocation;
  db: RemoteDb;
  bucket: Bucket;
}

/**
 * The data dir: the account-level tables and one folder per knowledge box. With a data URI
 * (`s3://bucket/prefix`) the tables and blobs are there instead, and the data dir holds this
 * machine's cache and staging folders.
 */
export class Store {
  private readonly open = new Map<string, Promise<KbStore>>();

  private constructor(
    readonly dataDir: string,
    private readonly remote: Remote | undefined,
    /** LanceDB's caches, shared by every table of the store (undefined: LanceDB's defaults). */
    readonly session: Session | undefined,
    private readonly meta: Connection,
    readonly kbs: DocTable<KbDoc>,
    readonly accounts: DocTable<ServiceAccountDoc>,
    readonly zone: ZoneTables,
  ) {}

  /** Open another table of the account-level database (backups, schedules, ...). */
  async metaTable<T>(name: string): Promise<DocTable<T>> {
    const t = await DocTable.open<T>(this.meta, name, this.remote?.db.refreshMs);
    this.extraMeta.push(t);
    return t;
  }

  /** Account-level tables opened by other areas (closed with the store: they may poll for other daemons' commits). */
  private readonly extraMeta: { idle(): Promise<void>; close(reason?: string): void }[] = [];

  /** Every account-level table: opened, counted and read (doctor). */
  health(): Promise<TableHealth[]> {
    return checkTables(this.meta);
  }

  /**
   * Open the data dir; every table of every knowledge box shares caches of `caches` size (LanceDB's
   * defaults without). With `location`, the data is on object storage (see docs/object-storage.md).
   */
  static async open(dataDir: string, caches?: CacheSizes, location?: ObjectLocation): Promise<Store> {
    const session = caches && openSession(caches);
    // The S3 client is loaded only for data on object storage (it adds a quarter second to a start).
    const s3 = location && (await import("./bucket.js"));
    const remote: Remote | undefined = location &&
      s3 && {
        location,
        db: { storageOptions: lanceOptions(location), refreshMs: location.options.refreshMs },
        bucket: new s3.Bucket(s3.s3Client(location.options), location.bucket),
      };
    const meta = await openDb(remote ? uriOf(remote.location, "meta") : join(dataDir, "meta"), session, remote?.db);
    const refresh = remote?.db.refreshMs;
    const [kbs, accounts, zoneAccounts, users, invites, pats, nuaClients, nuaRequests, nuaUsage, modelConfigs] =
      await Promise.all([
        DocTable.open<KbDoc>(meta, "kbs", refresh),
        DocTable.open<ServiceAccountDoc>(meta, "service_accounts", refresh),
        DocTable.open<AccountDoc>(meta, "accounts", refresh),
        DocTable.open<UserDoc>(meta, "users", refresh),
        DocTable.open<InviteDoc>(meta, "invites", refresh),
        DocTable.open<PatDoc>(meta, "personal_tokens", refresh),
        DocTable.open<NuaClientDoc>(meta, "nua_clients", refresh),
        DocTable.open<NuaRequestDoc>(meta, "nua_requests", refresh),
        DocTable.open<NuaUsageDoc>(meta, "nua_usage", refresh),
        DocTable.open<ModelConfigDoc>(meta, "model_configs", refresh),
      ]);
    const zone = { accounts: zoneAccounts, users, invites, pats, nuaClients, nuaRequests, nuaUsage, modelConfigs };
    const store = new Store(dataDir, remote, session, meta, kbs, accounts, zone);
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
      // On object storage these folders are caches, and a box another daemon just created may not be
      // in our list yet: only the cache goes, never the objects.
      if (this.remote) {
        await rm(join(this.dataDir, "kbs", name), { recursive: true, force: true }).catch(() => undefined);
        continue;
      }
      await this.moveToTrash(name);
      removed.push(`kbs/${name}`);
    }
    return removed;
  }

  /** One rename takes a box's folder out of `kbs/` (atomic); removing the bytes may then take its time. */
  private async moveToTrash(kbid: string): Promise<void> {
    // On object storage the record is already gone (no daemon opens the box any more): delete its objects.
    if (this.remote) await this.remote.bucket.deletePrefix(keyOf(this.remote.location, `kbs/${kbid}/`));
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

  /** Where a box's data is on object storage (undefined for a local store). */
  remoteKb(kbid: string): RemoteKb | undefined {
    if (!this.remote) return undefined;
    const loc = this.remote.location;
    const prefix = keyOf(loc, `kbs/${kbid}`);
    return {
      uri: uriOf(loc, `kbs/${kbid}/lance`),
      db: this.remote.db,
      bucket: this.remote.bucket,
      prefix,
      blobPrefix: `${prefix}/blobs`,
    };
  }

  /** The data URI (`s3://bucket/prefix`), when the data is on object storage. */
  get dataUri(): string | undefined {
    return this.remote?.location.uri;
  }

  /** The store of one knowledge box, opened once and shared. */
  kb(kbid: string): Promise<KbStore> {
    let s = this.open.get(kbid);
    // A deleted box must not be re-created by late work (a queued task, a watcher) opening it.
    if (!s && !this.kbs.has(kbid)) return Promise.reject(new Error(`knowledge box ${kbid} does not exist`));
    if (!s) {
      s = KbStore.open(kbid, this.kbDir(kbid), this.session, this.remoteKb(kbid));
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
      // Work that had started (a sweep or a compaction queued after the idle, an index build) would
      // write into the folder again after its move.
      await kb?.stopped();
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
    const tables = [this.kbs, this.accounts, ...Object.values(this.zone), ...this.extraMeta];
    await Promise.all(tables.map((t) => t.idle()));
    for (const s of this.open.values()) await (await s.catch(() => undefined))?.idle();
  }

  async close(): Promise<void> {
    await this.idle();
    for (const s of this.open.values()) (await s.catch(() => undefined))?.close();
    for (const t of [this.kbs, this.accounts, ...Object.values(this.zone), ...this.extraMeta]) t.close("the store is closed");
    this.meta.close();
  }
}

export { type ActivityLog, type ActivityRecord, activityDate, activityMonth } from "./activity.js";
export { DatasetFiles, type PartitionColumn } from "./dataset-files.js";
export type { TableHealth } from "./health.js";
export { extractedBlobKey, type FieldKey, fieldRecordKey, fileBlobKey, paragraphId, resourceBlobPrefix, ridOf } from "./keys.js";
export type { ParagraphRow } from "./paragraph-row.js";
export type { AnnSettings, HitColumns, IndexInfo, KeywordQuery, ParagraphHit } from "./paragraph-search.js";
export type { FieldDoc, KbDoc, ResourceDoc, ServiceAccountDoc } from "./records.js";
export { resourceRelations } from "./records.js";
export type { ResourceIndex, ResourcePage } from "./resource-index.js";
export type {
  DatasetDoc,
  DatasetType,
  GuardrailPolicyDoc,
  TaskApply,
  TaskDoc,
  TaskOfferDoc,
  TaskOutputDoc,
} from "./task-records.js";
export type {
  AccountDoc,
  AccountRole,
  InviteDoc,
  KbMemberRole,
  ModelConfigDoc,
  NuaClientDoc,
  NuaRequestDoc,
  NuaUsageDoc,
  PatDoc,
  UserDoc,
} from "./zone-records.js";

const fieldHashes = new Map<string, string>();
/** The first 16 hex digits of a field key's SHA-1 (a box has few distinct field keys: computed once each). */
function fieldHash(field: string): string {
  let h = fieldHashes.get(field);
  if (!h) {
    h = createHash("sha1").update(field).digest("hex").slice(0, 16);
    if (fieldHashes.size < 10_000) fieldHashes.set(field, h);
  }
  return h;
}

/** This process's random prefix for output names, then a counter: a new name for every output, without a call for entropy each. */
const OUTPUT_PREFIX = randomBytes(4).toString("hex");
let outputs = 0;
function outputSuffix(): string {
  outputs += 1;
  return `${OUTPUT_PREFIX}${outputs.toString(36)}`;
}
