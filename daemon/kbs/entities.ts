import type { CreateEntitiesGroup, EntitiesGroup, UpdateEntitiesGroup } from "../../src/api/entities.js";
import { conflict, notFound } from "../errors.js";
import { KbDocs } from "./kb-docs.js";
import type { KbService } from "./service.js";

type Stored = EntitiesGroup & { id: string };

/** The entities groups a user defines for a knowledge box (ingestion matches them in text: daemon/ingest/entities.ts). */
export class EntitiesGroupService {
  private readonly docs: KbDocs<Stored>;
  constructor(private readonly kbs: KbService) {
    this.docs = new KbDocs(kbs, "entities_groups");
  }

  /** The user's groups, then the families ingestion found in text (PERSON, LOC...) that no group of the user names. */
  async list(kbid: string) {
    const kb = this.kbs.require(kbid);
    const groups = [...(await this.docs.of(kbid)).values()].sort((a, b) => a.id.localeCompare(b.id));
    const out: Record<string, Omit<EntitiesGroup, "entities"> & { entities: Record<string, never> }> = Object.fromEntries(
      groups.map((g) => [g.id, { title: g.title, color: g.color, custom: g.custom, entities: {} }]),
    );
    for (const family of (await this.found(kbid)).keys()) out[family] ??= { title: family, custom: false, entities: {} };
    return { uuid: kb.uuid, groups: out };
  }

  async get(kbid: string, group: string): Promise<EntitiesGroup> {
    const g = (await this.docs.of(kbid)).get(group);
    if (g) {
      const { id: _id, ...rest } = g;
      return rest;
    }
    const values = (await this.found(kbid)).get(group);
    if (!values) throw notFound(`Entities group ${group} does not exist`);
    const entities = Object.fromEntries([...values].sort().map((v) => [v, { value: v, merged: false, represents: [] }]));
    return { title: group, custom: false, entities };
  }

  /** The entities ingestion found, by family, from the relations resources keep (daemon/ingest/entities.ts). */
  private async found(kbid: string): Promise<Map<string, Set<string>>> {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const out = new Map<string, Set<string>>();
    for (const r of store.resources.values())
      for (const rels of Object.values(r.field_relations ?? {}))
        for (const rel of rels as { to?: { type?: string; group?: string; value?: string } }[]) {
          const to = rel.to;
          if (to?.type !== "entity" || !to.group || !to.value) continue;
          const set = out.get(to.group) ?? new Set<string>();
          set.add(to.value);
          out.set(to.group, set);
        }
    return out;
  }

  async create(kbid: string, body: CreateEntitiesGroup): Promise<null> {
    const t = await this.docs.of(kbid);
    if (t.has(body.group)) throw conflict(`Entities group ${body.group} already exists`);
    await t.put(body.group, { id: body.group, title: body.title, color: body.color, custom: true, entities: body.entities });
    return null;
  }

  async update(kbid: string, group: string, body: UpdateEntitiesGroup): Promise<null> {
    if (!(await this.docs.of(kbid)).has(group)) throw notFound(`Entities group ${group} does not exist`);
    const cur = await this.get(kbid, group);
    const entities = { ...cur.entities, ...body.add };
    for (const [k, v] of Object.entries(body.update)) {
      if (!entities[k]) throw notFound(`Entity ${k} does not exist in group ${group}`);
      entities[k] = v;
    }
    for (const k of body.delete) delete entities[k];
    const next = { ...cur, entities, title: body.title ?? cur.title, color: body.color ?? cur.color };
    await (await this.docs.of(kbid)).put(group, { id: group, ...next });
    return null;
  }

  async delete(kbid: string, group: string): Promise<void> {
    const t = await this.docs.of(kbid);
    if (!t.has(group)) throw notFound(`Entities group ${group} does not exist`);
    await t.delete(group);
  }
}
