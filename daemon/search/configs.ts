import { toValidationIssues } from "../../src/api/errors.js";
import { FindBody } from "../../src/api/find.js";
import type { LabelSet } from "../../src/api/labelsets.js";
import type { SearchConfiguration } from "../../src/api/search-configs.js";
import { badRequest, conflict, invalid, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbStore } from "../store/index.js";

/** One DocTable per knowledge box and name, opened once (stored configurations of any area). */
export class PerKb<T> {
  private readonly tables = new WeakMap<KbStore, Promise<DocTable<T>>>();
  constructor(private readonly name: string) {}
  get(store: KbStore): Promise<DocTable<T>> {
    let t = this.tables.get(store);
    if (!t) {
      t = store.docTable<T>(this.name);
      this.tables.set(store, t);
    }
    return t;
  }
}

type Stored = SearchConfiguration & { name: string };

/** Stored search configurations: named find or ask parameters. */
export class SearchConfigService {
  private readonly tables = new PerKb<Stored>("search_configurations");
  constructor(private readonly kbs: KbService) {}

  private async table(kbid: string) {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return this.tables.get(store);
  }

  private validate(c: SearchConfiguration): SearchConfiguration {
    if (c.kind !== "find") return c;
    const r = FindBody.safeParse(c.config);
    if (!r.success)
      throw invalid(
        toValidationIssues(r.error, "body", c.config).map((i) => ({ ...i, loc: ["body", "config", ...i.loc.slice(1)] })),
      );
    return { kind: c.kind, config: r.data as Record<string, unknown> };
  }

  async create(kbid: string, name: string, c: SearchConfiguration): Promise<void> {
    const t = await this.table(kbid);
    if (t.has(name)) throw conflict(`Search configuration ${name} already exists`);
    await t.put(name, { name, ...this.validate(c) });
  }

  async update(kbid: string, name: string, c: SearchConfiguration): Promise<void> {
    const t = await this.table(kbid);
    if (!t.has(name)) throw notFound(`Search configuration ${name} not found`);
    await t.put(name, { name, ...this.validate(c) });
  }

  async delete(kbid: string, name: string): Promise<void> {
    const t = await this.table(kbid);
    if (!t.has(name)) throw notFound(`Search configuration ${name} not found`);
    await t.delete(name);
  }

  async get(kbid: string, name: string): Promise<SearchConfiguration> {
    const c = (await this.table(kbid)).get(name);
    if (!c) throw notFound(`Search configuration ${name} not found`);
    return { kind: c.kind, config: c.config };
  }

  async list(kbid: string): Promise<Record<string, SearchConfiguration>> {
    const out: Record<string, SearchConfiguration> = {};
    for (const c of [...(await this.table(kbid)).values()].sort((a, b) => a.name.localeCompare(b.name)))
      out[c.name] = { kind: c.kind, config: c.config };
    return out;
  }

  /** The configuration a request names, for an endpoint of `kind`; unknown name or other kind → 400. */
  async forRequest(kbid: string, name: string, kind: "find" | "ask"): Promise<Record<string, unknown>> {
    const c = (await this.table(kbid)).get(name);
    if (!c) throw badRequest(`Search configuration ${name} not found`);
    if (c.kind !== kind) throw badRequest(`Search configuration ${name} is of kind ${c.kind}, not ${kind}`);
    return c.config;
  }
}

/** A labelset without a kind applies to resources (the upstream default). */
function withKind(ls: LabelSet): LabelSet {
  return ls.kind?.length ? ls : { ...ls, kind: ["RESOURCES"] };
}

/** Labelsets of a knowledge box. */
export class LabelsetService {
  private readonly tables = new PerKb<LabelSet & { id: string }>("labelsets");
  constructor(private readonly kbs: KbService) {}

  private async table(kbid: string) {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return this.tables.get(store);
  }

  async set(kbid: string, id: string, ls: LabelSet): Promise<void> {
    await (await this.table(kbid)).put(id, { id, ...withKind(ls) });
  }

  async get(kbid: string, id: string): Promise<LabelSet> {
    const ls = (await this.table(kbid)).get(id);
    if (!ls) throw notFound(`Labelset ${id} does not exist`);
    const { id: _id, ...rest } = ls;
    return withKind(rest);
  }

  async delete(kbid: string, id: string): Promise<void> {
    const t = await this.table(kbid);
    if (!t.has(id)) throw notFound(`Labelset ${id} does not exist`);
    await t.delete(id);
  }

  /** Every labelset, under the knowledge box's uuid (the upstream KnowledgeBoxLabels). */
  async list(kbid: string): Promise<{ uuid: string; labelsets: Record<string, LabelSet> }> {
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const out: Record<string, LabelSet> = {};
    for (const ls of [...(await this.tables.get(store)).values()].sort((a, b) => a.id.localeCompare(b.id))) {
      const { id, ...rest } = ls;
      out[id] = withKind(rest);
    }
    return { uuid: kb.uuid, labelsets: out };
  }
}
