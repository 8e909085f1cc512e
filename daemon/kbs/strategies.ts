import { randomUUID } from "node:crypto";
import { issue, type ValidationIssue } from "../../src/api/errors.js";
import type { ExtractConfig, SplitConfiguration } from "../../src/api/strategies.js";
import { conflict, invalid, notFound } from "../errors.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbStore } from "../store/index.js";
import type { KbService } from "./service.js";

/** The two kinds of strategy a knowledge box stores. */
export type StrategyKind = "extract" | "split";
type ConfigOf<K extends StrategyKind> = K extends "extract" ? ExtractConfig : SplitConfiguration;
interface Stored<C> {
  id: string;
  created: string;
  config: C;
}
/** The strategy tables of one knowledge box. */
export interface StrategyTables {
  extract: DocTable<Stored<ExtractConfig>>;
  split: DocTable<Stored<SplitConfiguration>>;
}

const opened = new WeakMap<KbStore, Promise<StrategyTables>>();

/** The strategy tables of a knowledge box, opened once per store (the ingestion side reads them too). */
export function strategyTables(store: KbStore): Promise<StrategyTables> {
  let t = opened.get(store);
  if (!t) {
    t = Promise.all([
      store.docTable<Stored<ExtractConfig>>("extract_strategies"),
      store.docTable<Stored<SplitConfiguration>>("split_strategies"),
    ]).then(([extract, split]) => ({ extract, split }));
    opened.set(store, t);
    t.catch(() => opened.delete(store));
  }
  return t;
}

const LABEL: Record<StrategyKind, string> = { extract: "Extract strategy", split: "Split strategy" };
const FIELD_KEY: Record<StrategyKind, "extract_strategy" | "split_strategy"> = {
  extract: "extract_strategy",
  split: "split_strategy",
};

/** A reference to a strategy in a request, and where it sits there. */
export interface StrategyRef {
  kind: StrategyKind;
  id: string | null | undefined;
  loc: (string | number)[];
}

/** 422 (every unknown id, located) when a request names strategies the knowledge box does not have. */
export async function assertStrategies(store: KbStore, refs: StrategyRef[]): Promise<void> {
  const wanted = refs.filter((r) => r.id);
  if (!wanted.length) return;
  const t = await strategyTables(store);
  const issues: ValidationIssue[] = wanted
    .filter((r) => !t[r.kind].has(r.id as string))
    .map((r) => issue("value_error", r.loc, `${LABEL[r.kind]} ${r.id} does not exist in this knowledge box`, r.id));
  if (issues.length) throw invalid(issues);
}

/** The strategy references of one field body (text, link, file or conversation), located under `loc`. */
export function fieldStrategyRefs(body: unknown, loc: (string | number)[]): StrategyRef[] {
  if (!body || typeof body !== "object") return [];
  const v = body as Record<string, unknown>;
  const ref = (kind: StrategyKind): StrategyRef[] => {
    const id = v[FIELD_KEY[kind]];
    return typeof id === "string" && id ? [{ kind, id, loc: [...loc, FIELD_KEY[kind]] }] : [];
  };
  return [...ref("extract"), ...ref("split")];
}

const FIELD_MAPS = ["texts", "links", "files", "conversations"] as const;

/** The strategy references of every field of a create or update body. */
export function inputStrategyRefs(input: object): StrategyRef[] {
  return FIELD_MAPS.flatMap((map) =>
    Object.entries(((input as Record<string, unknown>)[map] as Record<string, unknown> | undefined) ?? {}).flatMap(([id, body]) =>
      fieldStrategyRefs(body, ["body", map, id]),
    ),
  );
}

/** Something outside the fields that may refer to strategies (sync configurations). */
export interface StrategyUser {
  /** What uses the strategy, described for a message; undefined when nothing does. */
  usingStrategy(kbid: string, kind: StrategyKind, id: string): Promise<string | undefined>;
}

/** Extract and split strategies of knowledge boxes: add, list, read, delete (refused while in use). */
export class StrategyService {
  /** `users` are checked before a delete, besides the fields. */
  constructor(
    private readonly kbs: KbService,
    private readonly users: StrategyUser[],
  ) {}

  private async open(kbid: string) {
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return { kbid: kb.uuid, store, t: await strategyTables(store) };
  }

  private async table<K extends StrategyKind>(kbid: string, kind: K): Promise<DocTable<Stored<ConfigOf<K>>>> {
    return (await this.open(kbid)).t[kind] as unknown as DocTable<Stored<ConfigOf<K>>>;
  }

  async add<K extends StrategyKind>(kbid: string, kind: K, config: ConfigOf<K>): Promise<string> {
    const t = await this.table(kbid, kind);
    const id = randomUUID().replace(/-/g, "");
    await t.put(id, { id, created: new Date().toISOString(), config });
    return id;
  }

  async list<K extends StrategyKind>(kbid: string, kind: K): Promise<Record<string, ConfigOf<K>>> {
    const all = [...(await this.table(kbid, kind)).values()].sort(
      (a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id),
    );
    return Object.fromEntries(all.map((s) => [s.id, s.config]));
  }

  async get<K extends StrategyKind>(kbid: string, kind: K, id: string): Promise<ConfigOf<K>> {
    const s = (await this.table(kbid, kind)).get(id);
    if (!s) throw notFound(`${LABEL[kind]} ${id} not found`);
    return s.config;
  }

  /** Delete a strategy; 409 while a field or a registered user still refers to it. */
  async delete(kbid: string, kind: StrategyKind, id: string): Promise<void> {
    const { kbid: uuid, store, t } = await this.open(kbid);
    if (!t[kind].has(id)) throw notFound(`${LABEL[kind]} ${id} not found`);
    const user = (await fieldUsing(store, kind, id)) ?? (await this.userUsing(uuid, kind, id));
    if (user) throw conflict(`${LABEL[kind]} ${id} is used by ${user}: change or delete it first`);
    await t[kind].delete(id);
  }

  private async userUsing(kbid: string, kind: StrategyKind, id: string): Promise<string | undefined> {
    for (const u of this.users) {
      const found = await u.usingStrategy(kbid, kind, id);
      if (found) return found;
    }
    return undefined;
  }
}

/** A field referring to the strategy, described for a message; undefined when none does. */
async function fieldUsing(store: KbStore, kind: StrategyKind, id: string): Promise<string | undefined> {
  // Candidates by a text match of the id (a scan), confirmed on the parsed value.
  const docs = await store.fields.containing(id, 10_000);
  const doc = docs.find((d) => (d.value as Record<string, unknown> | null)?.[FIELD_KEY[kind]] === id);
  return doc ? `field ${doc.type}/${doc.id} of resource ${doc.rid}` : undefined;
}
