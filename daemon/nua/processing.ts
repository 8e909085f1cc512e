import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import type { ListRequestsQuery, ProcessingRequest, PushPayload } from "../../src/api/nua-processing.js";
import { KboxError, notFound } from "../errors.js";
import type { ProcessedEvent } from "../ingest/queue.js";
import type { KbService } from "../kbs/service.js";
import type { Log } from "../lifecycle/logger.js";
import type { FetchPolicy } from "../net/outbound.js";
import type { ResourceService } from "../resources/service.js";
import type { KbDoc, NuaClientDoc, NuaRequestDoc, Store } from "../store/index.js";
import { resourceOf } from "./payload.js";
import { processedRecord, statusRecord } from "./record.js";
import { downloadResponse, findUpload, storeUpload } from "./uploads.js";
import { approxTokens, type NuaUsage } from "./usage.js";
import { deliver, type WebhookTarget } from "./webhooks.js";

export interface NuaProcessingOptions {
  fetch: FetchPolicy;
  log: Log;
  /** Webhook attempts (first included) and the first retry's delay, doubling. */
  webhookAttempts?: number;
  webhookBackoffMs?: number;
}

/** What the processing service needs of the queue: to be told after each run. */
export interface ProcessedSource {
  onProcessed(listener: (e: ProcessedEvent) => void | Promise<void>): void;
}

/** The push as the record keeps it: the webhook's secret and header values are not shown back. */
function redacted(p: PushPayload): PushPayload {
  const w = p.webhook_config;
  if (!w) return p;
  const { secret: _s, ...rest } = w;
  const headers = w.headers ? Object.fromEntries(Object.keys(w.headers).map((k) => [k, "********"])) : undefined;
  return { ...p, webhook_config: { ...rest, ...(headers ? { headers } : {}) } };
}

/** The internal box of a client: one per understanding client, named after it. */
export const boxSlug = (clientId: string) => `nua-${clientId}`;

/**
 * The processing half of the understanding API. Each client's data goes into its own internal knowledge
 * box (`nua-<client_id>`, made on first use, dropped with the client) and through the one durable
 * ingestion queue; the queue's after-run hook completes requests, wakes streams and sends webhooks.
 */
export class NuaProcessing {
  private readonly byResource = new Map<string, string>();
  private readonly events = new EventEmitter();
  private readonly settling = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    queue: ProcessedSource,
    private readonly usage: NuaUsage,
    private readonly o: NuaProcessingOptions,
  ) {
    this.events.setMaxListeners(0);
    for (const d of this.docs()) this.byResource.set(`${d.box}/${d.rid}`, d.processing_id);
    queue.onProcessed((e) => this.processed(e));
  }

  private docs(): NuaRequestDoc[] {
    return [...this.store.zone.nuaRequests.values()];
  }

  /**
   * Requests completed while the daemon was down, and webhooks never tried or cut off by a restart (the
   * durable outbox: a delivery is `pending` from its first attempt to its end): finish them now.
   */
  async resume(): Promise<void> {
    for (const d of this.docs()) {
      if (d.completed_at === null) await this.settle(d);
      else if (d.webhook && !d.webhook_state?.delivered && (!d.webhook_state?.attempts || d.webhook_state.pending))
        void this.sendWebhook(d);
    }
  }

  /** The client's internal box (made on first use). */
  async box(client: NuaClientDoc, lc?: PushPayload["learning_config"]): Promise<KbDoc> {
    const slug = boxSlug(client.client_id);
    const found = this.kbs.list().find((k) => k.slug === slug);
    if (found) return found;
    const models = lc?.semantic_models ?? (lc?.semantic_model ? [lc.semantic_model] : undefined);
    return this.kbs.create(
      {
        slug,
        title: `Understanding API: ${client.title}`,
        description: `Data sent to process by understanding client ${client.client_id} (internal)`,
        ...(models?.length ? { learning_configuration: { semantic_models: models, default_semantic_model: models[0] } } : {}),
      } as Parameters<KbService["create"]>[0],
      client.account_id,
    );
  }

  /** Store an uploaded file in the client's box; the token names it in a push's `filefield`. */
  async upload(client: NuaClientDoc, meta: { filename?: string; contentType: string }, body: Readable): Promise<string> {
    this.usage.check(client.client_id);
    return storeUpload(this.kbs, await this.box(client), meta, body);
  }

  private uploaded(client: NuaClientDoc, token: string) {
    return findUpload(this.kbs, boxSlug(client.client_id), token);
  }

  /** Download a file sent to process (its token), for its client only. */
  async download(client: NuaClientDoc, token: string): Promise<Response> {
    const f = await this.uploaded(client, token);
    if (!f) throw notFound("No file sent to process has this token");
    return downloadResponse(f);
  }

  async push(client: NuaClientDoc, p: PushPayload) {
    this.usage.check(client.client_id);
    const files = new Map<string, Awaited<ReturnType<NuaProcessing["uploaded"]>>>();
    for (const token of Object.values(p.filefield)) files.set(token, await this.uploaded(client, token));
    const { input, sources } = resourceOf(p, (token, loc) => {
      const f = files.get(token);
      if (!f) throw new KboxError(422, [{ type: "value_error", loc, msg: "Unknown upload token for this client", input: token }]);
      return f;
    });
    const kb = await this.box(client, p.learning_config);
    const processing_id = randomUUID();
    const now = new Date().toISOString();
    const webhook = this.webhookOf(client, p);
    // The record exists before the resource: a run that ends at once still finds it.
    const rid = await this.createResource(kb.uuid, input, sources, async (rid, seqid) => {
      const doc: NuaRequestDoc = {
        processing_id,
        client_id: client.client_id,
        account_id: client.account_id,
        box: kb.uuid,
        rid,
        kbid: p.kbid ?? null,
        title: p.title ?? null,
        labels: p.labels,
        seq: seqid,
        timestamp: now,
        scheduled_at: now,
        completed_at: null,
        failed: false,
        retries: 0,
        request: redacted(p),
        webhook,
      };
      this.byResource.set(`${kb.uuid}/${rid}`, processing_id);
      await this.store.zone.nuaRequests.put(processing_id, doc);
    });
    const doc = this.store.zone.nuaRequests.get(processing_id);
    return { seqid: doc?.seq ?? null, account_seq: doc?.seq ?? null, queue: "private" as const, uuid: rid, processing_id };
  }

  private async createResource(
    box: string,
    input: Parameters<ResourceService["create"]>[1],
    sources: Record<string, () => Readable>,
    record: (rid: string, seqid: number) => Promise<void>,
  ): Promise<string> {
    // The resource id is only known once created; the queue's listener looks the request up by it, and
    // a run can end before `create` returns: settle() after recording catches that case.
    const { uuid, seqid } = await this.resources.create(box, input, { fileSources: sources });
    await record(uuid, seqid);
    const id = this.byResource.get(`${box}/${uuid}`);
    const doc = id ? this.store.zone.nuaRequests.get(id) : undefined;
    if (doc) await this.settle(doc);
    return uuid;
  }

  private webhookOf(client: NuaClientDoc, p: PushPayload): NuaRequestDoc["webhook"] {
    const own = p.webhook_config?.uri ? p.webhook_config : undefined;
    const dflt = client.processing_webhook as { uri?: string; headers?: Record<string, string>; secret?: string } | null;
    const w = own ?? (dflt?.uri ? dflt : undefined);
    if (!w?.uri) return null;
    return { uri: w.uri, headers: w.headers ?? {}, ...(w.secret ? { secret: w.secret } : {}) };
  }

  private async processed(e: ProcessedEvent): Promise<void> {
    const id = this.byResource.get(`${e.kbid}/${e.rid}`);
    const doc = id ? this.store.zone.nuaRequests.get(id) : undefined;
    if (!doc || doc.completed_at !== null) return;
    this.events.emit(doc.processing_id, {
      type: "progress",
      processing_id: doc.processing_id,
      fields: e.fields,
      paragraphs: e.paragraphs,
      embedded: e.embedded,
      ms: e.ms,
    });
    await this.settle(doc);
  }

  /** Complete a request whose resource has no PENDING field left: usage, stream wake-up, webhook. */
  private async settle(doc: NuaRequestDoc): Promise<void> {
    if (this.settling.has(doc.processing_id)) return;
    this.settling.add(doc.processing_id);
    try {
      await this.settleOnce(doc);
    } finally {
      this.settling.delete(doc.processing_id);
    }
  }

  private async settleOnce(doc: NuaRequestDoc): Promise<void> {
    const { store } = await this.kbs.open(doc.box).catch(() => ({ store: undefined }));
    const res = store?.resources.get(doc.rid);
    const statuses = Object.values(res?.fields ?? {}).map((f) => f.status);
    if (res && statuses.some((s) => s === "PENDING")) return;
    if (this.store.zone.nuaRequests.get(doc.processing_id)?.completed_at) return;
    const failed = !res || statuses.some((s) => s === "ERROR");
    const done: NuaRequestDoc = { ...doc, completed_at: new Date().toISOString(), failed };
    await this.store.zone.nuaRequests.put(doc.processing_id, done);
    const rows = res && store ? await store.paragraphs.resourceRows(doc.rid) : [];
    await this.usage.add(doc.client_id, "processing", approxTokens(rows.map((r) => r.text).join(" "))).catch(() => undefined);
    this.events.emit(doc.processing_id, { type: failed ? "failed" : "completed", processing_id: doc.processing_id });
    if (done.webhook) void this.sendWebhook(done);
  }

  private async sendWebhook(doc: NuaRequestDoc): Promise<void> {
    const w = doc.webhook;
    if (!w) return;
    const client = this.store.zone.nuaClients.get(doc.client_id);
    const target: WebhookTarget = { uri: w.uri, headers: w.headers, secret: w.secret ?? client?.key.hash ?? "" };
    const body = await this.view(doc, true);
    const keep = async (state: NonNullable<NuaRequestDoc["webhook_state"]>) => {
      const now = this.store.zone.nuaRequests.get(doc.processing_id);
      if (now) await this.store.zone.nuaRequests.put(doc.processing_id, { ...now, webhook_state: state });
    };
    const r = await deliver(target, body, {
      policy: this.o.fetch,
      attempts: this.o.webhookAttempts ?? 5,
      backoffMs: this.o.webhookBackoffMs ?? 500,
      log: this.o.log,
      // A delivery cut off by a restart resumes with the attempts it has left (at least one more).
      done: doc.webhook_state?.pending ? doc.webhook_state.attempts : 0,
      onAttempt: (state) => keep({ ...state, pending: true }).catch(() => undefined),
    });
    await keep({ ...r, pending: false }).catch(() => undefined);
  }

  /** The client's request, or 404 (another client's requests do not exist for it). */
  require(client: NuaClientDoc, id: string): NuaRequestDoc {
    const d = this.store.zone.nuaRequests.get(id);
    if (!d || d.client_id !== client.client_id) throw notFound("Processing request not found");
    return d;
  }

  async view(doc: NuaRequestDoc, withResponse: boolean, types?: readonly string[]): Promise<ProcessingRequest> {
    const out = statusRecord(doc);
    if (withResponse && doc.completed_at) out.response = await processedRecord(this.kbs, this.resources, doc, types);
    return out;
  }

  async list(client: NuaClientDoc, q: ListRequestsQuery) {
    let docs = this.docs().filter((d) => d.client_id === client.client_id);
    if (q.kbid) docs = docs.filter((d) => d.kbid === q.kbid);
    if (q.scheduled) docs = docs.filter((d) => (d.completed_at === null) === (q.scheduled === "true"));
    const key = q.sort_on === "timestamp" ? "timestamp" : q.sort_on;
    const dir = q.sort_order === "desc" ? -1 : 1;
    docs.sort((a, b) => dir * ((a[key] ?? "").localeCompare(b[key] ?? "") || a.seq - b.seq));
    const start = q.cursor && /^\d+$/.test(q.cursor) ? Number(q.cursor) : 0;
    const page = docs.slice(start, start + q.limit);
    const next = start + q.limit < docs.length ? String(start + q.limit) : null;
    return { results: await Promise.all(page.map((d) => this.view(d, false))), cursor: next };
  }

  /** Server-sent events of a request: scheduled, progress after each run, then completed (with the record) or failed. */
  async *stream(client: NuaClientDoc, id: string, types: readonly string[] | undefined, signal: AbortSignal) {
    const doc = this.require(client, id);
    const queue: Record<string, unknown>[] = [];
    let wake: (() => void) | undefined;
    const on = (e: Record<string, unknown>) => {
      queue.push(e);
      wake?.();
    };
    this.events.on(id, on);
    const abort = () => wake?.();
    signal.addEventListener("abort", abort);
    try {
      yield { type: "scheduled", processing_id: id, resource_id: doc.rid, timestamp: doc.timestamp };
      for (;;) {
        const now = this.store.zone.nuaRequests.get(id);
        if (now?.completed_at) {
          for (const e of queue.splice(0)) if (e.type === "progress") yield e;
          const view = await this.view(now, true, types);
          yield { ...view, type: now.failed ? "failed" : "completed", processing_id: id };
          return;
        }
        const e = queue.shift();
        if (e) {
          if (e.type === "progress") yield e;
          continue;
        }
        if (signal.aborted) return;
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
      }
    } finally {
      this.events.off(id, on);
      signal.removeEventListener("abort", abort);
    }
  }

  /** The oldest completed request of the client not pulled yet, marked pulled. */
  async pull(client: NuaClientDoc) {
    const next = this.docs()
      .filter((d) => d.client_id === client.client_id && d.completed_at && !d.pulled)
      .sort((a, b) => a.seq - b.seq)[0];
    if (!next) return { status: "empty" as const };
    await this.store.zone.nuaRequests.put(next.processing_id, { ...next, pulled: true });
    return { status: "ok" as const, payload: await this.view(next, true), msgid: next.processing_id };
  }

  /** A deleted client's requests and internal box go with it. */
  async dropClient(clientId: string): Promise<void> {
    for (const d of this.docs())
      if (d.client_id === clientId) {
        this.byResource.delete(`${d.box}/${d.rid}`);
        await this.store.zone.nuaRequests.delete(d.processing_id);
      }
    const kb = this.kbs.list().find((k) => k.slug === boxSlug(clientId));
    if (kb) await this.kbs.delete(kb.uuid);
    await this.usage.drop(clientId);
  }
}
