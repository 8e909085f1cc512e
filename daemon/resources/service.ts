import { randomUUID } from "node:crypto";
import type { FieldType } from "../../src/api/common.js";
import type { CreateResource, GetResourceQuery, UpdateResource, WritableFieldType } from "../../src/api/resources.js";
import { conflict, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { assertStrategies, fieldStrategyRefs, inputStrategyRefs } from "../kbs/strategies.js";
import { type FieldDoc, fieldRecordKey, type KbStore, type ResourceDoc } from "../store/index.js";
import { type FileSource, fieldKey, type PreparedField, parseFieldBody, prepareField } from "./fields.js";
import { basicView, fieldEntry, resourceView } from "./view.js";

/** Extra inputs of a write that do not travel in JSON: file bytes as streams, by field id. */
export interface WriteOptions {
  fileSources?: Record<string, FileSource>;
}

/** A resource named by id or by slug, as the two route forms do. */
export type ResourceRef = { rid: string } | { slug: string };

/** Told about every change that needs (re)processing; the ingestion queue implements it. */
export interface ProcessingSink {
  enqueue(kbid: string, rid: string, fieldKeys: string[]): Promise<void>;
  forget(kbid: string, rid: string, fieldKeys?: string[]): Promise<void>;
  /** Synchronously told before field values are written, so that a run holding older values drops its result. */
  touch?(kbid: string, rid: string, fieldKeys: string[]): void;
}

const WRITABLE_MAPS: [string, FieldType][] = [
  ["texts", "text"],
  ["links", "link"],
  ["files", "file"],
  ["conversations", "conversation"],
  ["key_values", "key_value"],
];

/** Resources and their fields: the records, their values and their lifecycle. */
export class ResourceService {
  private lastSeq = 0;
  private readonly slugs = new WeakMap<KbStore, Map<string, string>>();

  constructor(
    private readonly kbs: KbService,
    private readonly processing: ProcessingSink,
  ) {}

  /** A strictly increasing sequence id, monotonic across restarts (time-based). */
  nextSeq(): number {
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now());
    return this.lastSeq;
  }

  private slugIndex(store: KbStore): Map<string, string> {
    let idx = this.slugs.get(store);
    if (!idx) {
      idx = new Map();
      for (const r of store.resources.values()) if (r.slug) idx.set(r.slug, r.id);
      this.slugs.set(store, idx);
    }
    return idx;
  }

  /** Resolve a resource reference to its record, or the wire's 404. */
  async resolve(kbid: string, ref: ResourceRef): Promise<{ store: KbStore; res: ResourceDoc }> {
    const { store } = await this.kbs.open(kbid);
    const rid = "rid" in ref ? ref.rid : this.slugIndex(store).get(ref.slug);
    const res = rid ? store.resources.get(rid) : undefined;
    if (!res) throw notFound("Resource does not exist");
    return { store, res };
  }

  async create(
    kbid: string,
    input: CreateResource,
    opts: WriteOptions = {},
  ): Promise<{ uuid: string; seqid: number; elapsed: number }> {
    const t0 = performance.now();
    const { kb, store } = await this.kbs.open(kbid);
    await assertStrategies(store, inputStrategyRefs(input));
    const slugs = this.slugIndex(store);
    if (input.slug && slugs.has(input.slug)) throw conflict(`Resource slug ${input.slug} already exists`);
    const rid = randomUUID().replace(/-/g, "");
    store.markNewResource(rid);
    if (input.slug) slugs.set(input.slug, rid);
    try {
      const now = new Date().toISOString();
      const seqid = this.nextSeq();
      const res: ResourceDoc = {
        id: rid,
        metadata: { status: "PENDING" },
        created: now,
        modified: now,
        last_seqid: seqid,
        queue: "private",
        fields: {},
      };
      if (input.hidden == null && kb.hidden_resources_enabled && kb.hidden_resources_hide_on_creation) res.hidden = true;
      const prepared = await this.applyInput(store, res, input, opts);
      await this.commit(store, res, prepared);
      await this.processing.enqueue(
        kb.uuid,
        rid,
        prepared.map((p) => fieldKey(p.type, p.id)),
      );
      return { uuid: rid, seqid, elapsed: (performance.now() - t0) / 1000 };
    } catch (e) {
      if (input.slug && slugs.get(input.slug) === rid) slugs.delete(input.slug);
      throw e;
    }
  }

  async get(kbid: string, ref: ResourceRef, q: GetResourceQuery): Promise<{ id: string } & Record<string, unknown>> {
    const { store, res } = await this.resolve(kbid, ref);
    const show = q.show ?? [];
    const needsFields = show.some((s) => s === "values" || s === "extracted" || s === "errors");
    const fields = needsFields ? await store.fields.group(res.id) : undefined;
    if (fields && show.includes("extracted")) await store.loadExtracted(fields.values());
    return resourceView(res, fields, { show, fieldTypes: q.field_type, extracted: q.extracted });
  }

  async list(kbid: string, page: number, size: number) {
    const { store } = await this.kbs.open(kbid);
    const all = [...store.resources.values()].sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
    const slice = all.slice(page * size, page * size + size);
    return { resources: slice.map(basicView), pagination: { page, size, last: (page + 1) * size >= all.length } };
  }

  async update(kbid: string, ref: ResourceRef, input: UpdateResource, opts: WriteOptions = {}): Promise<{ seqid: number }> {
    const { store, res } = await this.resolve(kbid, ref);
    await assertStrategies(store, inputStrategyRefs(input));
    const slugs = this.slugIndex(store);
    const next: ResourceDoc = structuredClone(res);
    if (input.slug && input.slug !== res.slug) {
      if (slugs.has(input.slug)) throw conflict(`Resource slug ${input.slug} already exists`);
      if (res.slug) slugs.delete(res.slug);
      slugs.set(input.slug, res.id);
    }
    const prepared = await this.applyInput(store, next, input, opts);
    next.last_seqid = this.nextSeq();
    next.modified = new Date().toISOString();
    await this.commit(store, next, prepared);
    const changed = prepared.map((p) => fieldKey(p.type, p.id));
    // Resource-level attributes are copied onto paragraphs, so any change reindexes them.
    await this.processing.enqueue(store.kbid, res.id, changed);
    return { seqid: next.last_seqid };
  }

  async delete(kbid: string, ref: ResourceRef): Promise<void> {
    const { store, res } = await this.resolve(kbid, ref);
    if (res.slug) this.slugIndex(store).delete(res.slug);
    await store.resources.delete(res.id);
    await this.processing.forget(store.kbid, res.id);
    await Promise.all([
      store.fields.deleteGroup(res.id),
      store.paragraphs.deleteResource(res.id),
      store.removeResourceBlobs(res.id),
    ]);
  }

  async putField(kbid: string, ref: ResourceRef, type: WritableFieldType, id: string, body: unknown): Promise<{ seqid: number }> {
    const value = parseFieldBody(type, body);
    const { store, res } = await this.resolve(kbid, ref);
    await assertStrategies(store, fieldStrategyRefs(value, ["body"]));
    const next = structuredClone(res);
    const p = await prepareField(type, id, value, { kbid: store.kbid, rid: res.id, blobs: store.blobs, loc: ["body"] });
    next.last_seqid = this.nextSeq();
    next.modified = new Date().toISOString();
    await this.commit(store, next, [p]);
    await this.processing.enqueue(store.kbid, res.id, [fieldKey(type, id)]);
    return { seqid: next.last_seqid };
  }

  async getField(
    kbid: string,
    ref: ResourceRef,
    type: FieldType,
    id: string,
    asked: string[],
    extracted?: string[],
    page?: number,
  ) {
    // The field-level show values upstream clients send (value, error) name the resource's (values, errors).
    const show = asked.map((v) => (v === "value" ? "values" : v === "error" ? "errors" : v));
    const { store, res } = await this.resolve(kbid, ref);
    const key = fieldKey(type, id);
    const summary = res.fields[key];
    if (!summary) throw notFound("Field does not exist");
    const doc = await store.fields.get(fieldRecordKey(res.id, key));
    if (show.includes("extracted")) await store.loadExtracted([doc]);
    const entry = fieldEntry(doc, summary, new Set(show.length ? show : ["values"]), extracted, page);
    return { field_type: type, field_id: id, ...entry };
  }

  /** The stored field document (value, extracted data, blob), for services such as ingestion and download. */
  async fieldDoc(
    kbid: string,
    ref: ResourceRef,
    type: FieldType,
    id: string,
  ): Promise<{ store: KbStore; res: ResourceDoc; doc: FieldDoc }> {
    const { store, res } = await this.resolve(kbid, ref);
    const key = fieldKey(type, id);
    const doc = res.fields[key] ? await store.fields.get(fieldRecordKey(res.id, key)) : undefined;
    if (!doc) throw notFound("Field does not exist");
    return { store, res, doc };
  }

  async deleteField(kbid: string, ref: ResourceRef, type: FieldType, id: string): Promise<void> {
    const { store, res } = await this.resolve(kbid, ref);
    const key = fieldKey(type, id);
    if (!res.fields[key]) throw notFound("Field does not exist");
    const old = await store.fields.get(fieldRecordKey(res.id, key));
    const next = structuredClone(res);
    delete next.fields[key];
    next.last_seqid = this.nextSeq();
    next.modified = new Date().toISOString();
    await store.resources.put(res.id, next);
    await this.processing.forget(store.kbid, res.id, [key]);
    await Promise.all([store.fields.delete(fieldRecordKey(res.id, key)), store.paragraphs.replaceField(res.id, key, [])]);
    await store.removeBlobs([old?.blob, old?.extracted_blob]);
  }

  async appendMessages(kbid: string, ref: ResourceRef, id: string, messages: unknown[]): Promise<{ seqid: number }> {
    const { store, res } = await this.resolve(kbid, ref);
    const key = fieldKey("conversation", id);
    const doc = res.fields[key] ? await store.fields.get(fieldRecordKey(res.id, key)) : undefined;
    const prev = (doc?.value as { messages?: unknown[] } | undefined)?.messages ?? [];
    return this.putField(kbid, { rid: res.id }, "conversation", id, {
      ...(doc?.value as object),
      messages: [...prev, ...messages],
    });
  }

  /** Queue a resource (or some of its fields) for processing again. */
  async reprocess(kbid: string, ref: ResourceRef, only?: { type: FieldType; id: string }): Promise<{ seqid: number }> {
    const { store, res } = await this.resolve(kbid, ref);
    const keys = only ? [fieldKey(only.type, only.id)] : Object.keys(res.fields);
    if (only && !res.fields[keys[0]]) throw notFound("Field does not exist");
    const next = structuredClone(res);
    next.metadata.status = "PENDING";
    for (const k of keys) next.fields[k].status = "PENDING";
    next.last_seqid = this.nextSeq();
    await store.resources.put(res.id, next);
    await this.processing.enqueue(store.kbid, res.id, keys);
    return { seqid: next.last_seqid };
  }

  /** Index a resource again: rewrite its indexed rows from the stored record, or (vectors) process it again. */
  async reindex(kbid: string, ref: ResourceRef, vectors: boolean): Promise<null> {
    if (vectors) await this.reprocess(kbid, ref);
    else {
      const { store, res } = await this.resolve(kbid, ref);
      await this.processing.enqueue(store.kbid, res.id, []);
    }
    return null;
  }

  /** Copy request attributes onto the record and prepare every field the request carries. */
  private async applyInput(
    store: KbStore,
    res: ResourceDoc,
    input: CreateResource | UpdateResource,
    opts: WriteOptions,
  ): Promise<PreparedField[]> {
    const attrs = [
      "slug",
      "title",
      "summary",
      "icon",
      "thumbnail",
      "usermetadata",
      "fieldmetadata",
      "origin",
      "extra",
      "hidden",
      "security",
    ] as const;
    for (const a of attrs) {
      const v = input[a];
      if (v !== undefined && v !== null) (res as unknown as Record<string, unknown>)[a] = v;
    }
    if (input.metadata)
      res.metadata = { ...res.metadata, ...input.metadata, status: res.metadata.status } as ResourceDoc["metadata"];
    if (input.usermetadata?.relations) res.relations = input.usermetadata.relations;
    const prepared: PreparedField[] = [];
    const ctx = (loc: (string | number)[], source?: FileSource) => ({
      kbid: store.kbid,
      rid: res.id,
      blobs: store.blobs,
      loc,
      source,
    });
    if (input.title != null) {
      delete res.titled_by; // a title set by the user is theirs: content no longer retitles the resource
      prepared.push(await prepareField("generic", "title", input.title, ctx(["body", "title"])));
    }
    if (input.summary != null) prepared.push(await prepareField("generic", "summary", input.summary, ctx(["body", "summary"])));
    for (const [map, type] of WRITABLE_MAPS) {
      const fields = (input as Record<string, Record<string, unknown> | undefined>)[map];
      for (const [id, body] of Object.entries(fields ?? {})) {
        const source = type === "file" ? opts.fileSources?.[id] : undefined;
        prepared.push(await prepareField(type, id, body, ctx(["body", map, id], source)));
      }
    }
    return prepared;
  }

  /** Field values first, then the record: the record is the commit point of a change. */
  private async commit(store: KbStore, res: ResourceDoc, prepared: PreparedField[]): Promise<void> {
    const now = new Date().toISOString();
    const changed = prepared.filter((p) => res.fields[fieldKey(p.type, p.id)]?.hash !== p.hash || p.type === "file");
    this.processing.touch?.(
      store.kbid,
      res.id,
      changed.map((p) => fieldKey(p.type, p.id)),
    );
    // A replaced value leaves its old file bytes and extraction output behind: read from the records
    // the new ones replace (without holding up their commit), they go once those are committed.
    const replaced = await Promise.all(
      changed.map((p) => {
        const key = fieldKey(p.type, p.id);
        const doc: FieldDoc = { rid: res.id, type: p.type, id: p.id, value: p.value, ...(p.blob ? { blob: p.blob } : {}) };
        const id = fieldRecordKey(res.id, key);
        return res.fields[key] ? store.fields.replacing(id, res.id, doc) : store.fields.put(id, res.id, doc);
      }),
    );
    for (const p of prepared) {
      const key = fieldKey(p.type, p.id);
      res.fields[key] = { type: p.type, id: p.id, status: "PENDING", hash: p.hash, added: res.fields[key]?.added ?? now };
    }
    if (prepared.length) res.metadata.status = "PENDING";
    await store.resources.put(res.id, res);
    const keep = new Set(prepared.map((p) => p.blob));
    // Off the write's path (a read of the table as it was can take a page's decompression); a crash
    // before it leaves the old blobs behind, as one between the commit and the removal always did.
    void Promise.all(replaced.map((read) => (read ? read() : undefined)))
      .then((old) => store.removeBlobs(old.flatMap((d) => [keep.has(d?.blob) ? undefined : d?.blob, d?.extracted_blob])))
      .catch(() => undefined); // the box closed meanwhile: orphan blobs at worst, as removeBlobs leaves them
  }
}
