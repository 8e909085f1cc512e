import { randomUUID } from "node:crypto";
import type { CreateKb, KbRecord, UpdateKb } from "../../src/api/kbs.js";
import type { ModelConfiguration } from "../../src/api/learning.js";
import { conflict, KboxError, notFound } from "../errors.js";
import type { KbDoc, KbStore, Store } from "../store/index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Listeners told when a knowledge box goes away (queues, watchers, caches). */
export type KbDropListener = (kbid: string) => Promise<void> | void;

/** Knowledge boxes: create, read, update, delete; the gate every per-KB service goes through. */
export class KbService {
  private readonly dropListeners: KbDropListener[] = [];

  constructor(private readonly store: Store) {}

  onDrop(listener: KbDropListener): void {
    this.dropListeners.push(listener);
  }

  private readonly arriveListeners: KbDropListener[] = [];

  /** Listeners told when a knowledge box arrives with data (restore, import): queues and sync pick it up. */
  onArrive(listener: KbDropListener): void {
    this.arriveListeners.push(listener);
  }

  /** Announce a knowledge box that arrived with data; a failing listener does not undo the arrival. */
  async arrived(kbid: string): Promise<void> {
    for (const l of this.arriveListeners) await Promise.resolve(l(kbid)).catch(() => undefined);
  }

  list(): KbDoc[] {
    return [...this.store.kbs.values()].sort((a, b) => a.created.localeCompare(b.created));
  }

  /** The knowledge box, or the wire's 404 (`message` differs between endpoints). */
  require(kbid: string, message = "Knowledge Box does not exist"): KbDoc {
    if (!UUID.test(kbid)) throw notFound("KnowledgeBox not found. UUID expected.");
    const kb = this.store.kbs.get(kbid.toLowerCase());
    if (!kb) throw notFound(message);
    return kb;
  }

  /** The knowledge box and its opened store. */
  async open(kbid: string, message?: string): Promise<{ kb: KbDoc; store: KbStore }> {
    const kb = this.require(kbid, message);
    return { kb, store: await this.store.kb(kb.uuid) };
  }

  bySlug(slug: string): KbDoc {
    for (const kb of this.store.kbs.values()) if (kb.slug === slug) return kb;
    throw notFound("Knowledge Box does not exist");
  }

  /** A new knowledge box; `account` (an id) absent: the default account's. */
  async create(input: CreateKb, account?: string, mode?: KbDoc["mode"]): Promise<KbDoc> {
    const uuid = randomUUID();
    const slug = input.slug ?? uuid;
    if (this.slugTaken(slug)) throw new KboxError(419, "Knowledge box already exists");
    const kb: KbDoc = {
      uuid,
      slug,
      title: input.title ?? "",
      description: input.description ?? "",
      state: "PUBLISHED",
      created: new Date().toISOString(),
      allowed_origins: input.allowed_origins ?? [],
      allowed_ip_addresses: input.allowed_ip_addresses ?? [],
      search_configs: input.search_configs ?? {},
      enforce_security: input.enforce_security ?? false,
      hidden_resources_enabled: input.hidden_resources_enabled ?? false,
      hidden_resources_hide_on_creation: input.hidden_resources_hide_on_creation ?? false,
      learning_configuration: input.learning_configuration ?? null,
      ...(account ? { account_id: account } : {}),
      ...(mode ? { mode } : {}),
    };
    await this.store.kbs.put(uuid, kb);
    await this.store.kb(uuid);
    return kb;
  }

  async update(kbid: string, patch: UpdateKb): Promise<KbDoc> {
    const kb = this.require(kbid);
    if (patch.slug && patch.slug !== kb.slug && this.slugTaken(patch.slug)) throw conflict("Knowledge box already exists");
    const next: KbDoc = { ...kb };
    for (const [k, v] of Object.entries(patch))
      if (v !== null && v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
    await this.store.kbs.put(kb.uuid, next);
    return next;
  }

  async setLearningConfiguration(kbid: string, conf: KbDoc["learning_configuration"]): Promise<KbDoc> {
    const kb = this.require(kbid);
    const next = { ...kb, learning_configuration: conf };
    await this.store.kbs.put(kb.uuid, next);
    return next;
  }

  async delete(kbid: string): Promise<KbDoc> {
    const kb = this.require(kbid);
    for (const l of this.dropListeners) await l(kb.uuid);
    await this.store.kbs.delete(kb.uuid);
    await this.store.dropKb(kb.uuid);
    return kb;
  }

  async counters(kbid: string) {
    const { store } = await this.open(kbid);
    let fields = 0;
    for (const r of store.resources.values()) fields += Object.keys(r.fields).length;
    const paragraphs = await store.paragraphs.count();
    const index_size = await store.paragraphs.sizeBytes();
    return { resources: store.resources.size, paragraphs, fields, sentences: paragraphs, index_size };
  }

  /** The wire's view of a knowledge box; `model` is its effective model configuration (LearningService). */
  static record(kb: KbDoc, model: ModelConfiguration | null): KbRecord {
    const { uuid, slug, learning_configuration: _lc, ...config } = kb;
    // Vectors are compared by cosine similarity (daemon/search/semantic.ts).
    const full = model && {
      ...model,
      similarity_function: "cosine" as const,
      vector_dimension: model.semantic_vector_size,
      default_min_score: null,
    };
    return { uuid, slug, config: { ...config, slug }, model: full };
  }

  private slugTaken(slug: string): boolean {
    for (const kb of this.store.kbs.values()) if (kb.slug === slug) return true;
    return false;
  }
}
