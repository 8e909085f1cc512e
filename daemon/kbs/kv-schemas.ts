import type { KVSchema, UpdateKVSchema } from "../../src/api/kv-schemas.js";
import { badRequest, conflict, notFound } from "../errors.js";
import { KbDocs } from "./kb-docs.js";
import type { KbService } from "./service.js";

/** Upstream's limit of schemas a knowledge box holds. */
export const MAX_KV_SCHEMAS = 20;

/** A knowledge box's key-value schemas: the typed keys its key_value fields are meant to carry. */
export class KvSchemaService {
  private readonly docs: KbDocs<KVSchema>;
  constructor(kbs: KbService) {
    this.docs = new KbDocs(kbs, "kv_schemas");
  }

  async list(kbid: string): Promise<{ schemas: Record<string, KVSchema> }> {
    const t = await this.docs.of(kbid);
    return { schemas: Object.fromEntries([...t.values()].sort((a, b) => a.name.localeCompare(b.name)).map((s) => [s.name, s])) };
  }

  async get(kbid: string, name: string): Promise<KVSchema> {
    const s = (await this.docs.of(kbid)).get(name);
    if (!s) throw notFound(`Key-value schema ${name} not found`);
    return s;
  }

  async create(kbid: string, schema: KVSchema): Promise<KVSchema> {
    const t = await this.docs.of(kbid);
    if (t.has(schema.name)) throw conflict(`Key-value schema ${schema.name} already exists`);
    if (t.size >= MAX_KV_SCHEMAS) throw badRequest(`A knowledge box holds at most ${MAX_KV_SCHEMAS} key-value schemas`);
    await t.put(schema.name, schema);
    return schema;
  }

  async update(kbid: string, name: string, change: UpdateKVSchema): Promise<KVSchema> {
    const cur = await this.get(kbid, name);
    const next: KVSchema = {
      ...cur,
      ...(change.description != null ? { description: change.description } : {}),
      ...(change.fields != null ? { fields: change.fields } : {}),
    };
    await (await this.docs.of(kbid)).put(name, next);
    return next;
  }

  async delete(kbid: string, name: string): Promise<void> {
    const t = await this.docs.of(kbid);
    if (!t.has(name)) throw notFound(`Key-value schema ${name} not found`);
    await t.delete(name);
  }
}
