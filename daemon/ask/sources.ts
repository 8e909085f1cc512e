/** Sources of a knowledge box: what an agentic configuration's `smart_agent.sources` may name. */
import type { AskBody } from "../../src/api/ask.js";
import { toValidationIssues } from "../../src/api/errors.js";
import type { FilterExpression } from "../../src/api/filters.js";
import { Source, type SourcePatch } from "../../src/api/sources.js";
import { badRequest, conflict, invalid, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { PerKb } from "../search/configs.js";

/** Drop null and undefined members, deeply (the wire omits them). */
export function compact<T>(v: T): T {
  if (Array.isArray(v)) return v.map(compact) as T;
  if (!v || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== null && x !== undefined)
      .map(([k, x]) => [k, compact(x)]),
  ) as T;
}

type Stored = { id: string; source: Source };

/** Create, read, update, delete and list sources (the cascade to agentic configurations is theirs). */
export class SourceService {
  private readonly tables = new PerKb<Stored>("sources");

  constructor(private readonly kbs: KbService) {}

  private async table(kbid: string) {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return this.tables.get(store);
  }

  async create(kbid: string, id: string, s: Source): Promise<void> {
    const t = await this.table(kbid);
    if (t.has(id)) throw conflict(`Source ${id} already exists`);
    await t.put(id, { id, source: compact(s) });
  }

  /** Merge the members given over the stored ones (null removes one), then check the result by its type. */
  async update(kbid: string, id: string, patch: SourcePatch): Promise<void> {
    const t = await this.table(kbid);
    const old = t.get(id);
    if (!old) throw notFound(`Source ${id} not found`);
    const merged: Record<string, unknown> = { ...old.source };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete merged[k];
      else if (v !== undefined) merged[k] = v;
    }
    const r = Source.safeParse(merged);
    if (!r.success) throw invalid(toValidationIssues(r.error, "body", merged));
    await t.put(id, { id, source: compact(r.data) });
  }

  async delete(kbid: string, id: string): Promise<void> {
    const t = await this.table(kbid);
    if (!t.has(id)) throw notFound(`Source ${id} not found`);
    await t.delete(id);
  }

  async get(kbid: string, id: string): Promise<Source> {
    const s = (await this.table(kbid)).get(id);
    if (!s) throw notFound(`Source ${id} not found`);
    return s.source;
  }

  /** The source an id names, or undefined. */
  async find(kbid: string, id: string): Promise<Source | undefined> {
    return (await this.table(kbid)).get(id)?.source;
  }

  async list(kbid: string): Promise<Record<string, Source>> {
    const all = [...(await this.table(kbid)).values()].sort((a, b) => a.id.localeCompare(b.id));
    return Object.fromEntries(all.map((s) => [s.id, s.source]));
  }
}

const CANNOT_RUN: Record<Exclude<Source["type"], "nucliadb">, string> = {
  perplexity: "web search through Perplexity needs a service kbox does not run",
  google: "web search through Google needs a service kbox does not run",
  mcp: "kbox's ask does not call remote MCP tools",
  sync: "kbox's ask does not read external connections",
};

const MEMBERS = ["field", "paragraph", "key_value"] as const;
const isEmpty = (f: FilterExpression | null | undefined) => !f || MEMBERS.every((m) => f[m] === undefined);

/**
 * What the sources an agentic configuration names do to an ask. A nucliadb source is this knowledge
 * box, or the part its `filter_expression` selects: retrieval is scoped to the union of the sources
 * (an unfiltered one is the whole box), and-ed with the request's own filter. Any other type cannot
 * run here: 400 saying why (never silently skipped).
 */
export function scopeBySources(body: AskBody, named: [string, Source][]): AskBody {
  for (const [id, s] of named)
    if (s.type !== "nucliadb")
      throw badRequest(
        `Source ${id} is of type ${s.type}: ${CANNOT_RUN[s.type]}. Remove it from smart_agent.sources to ask with this configuration`,
      );
  const filters = named.map(([, s]) => (s.type === "nucliadb" ? s.filter_expression : undefined));
  if (!filters.length || filters.some(isEmpty)) return body;
  let scope = filters[0] as FilterExpression;
  if (filters.length > 1) {
    if (filters.some((f) => f?.paragraph || f?.key_value))
      throw badRequest("kbox joins several filtered sources by their field expressions only");
    scope = { field: { or: filters.map((f) => f?.field as NonNullable<FilterExpression["field"]>) }, operator: "and" };
  }
  const own = body.filter_expression;
  if (isEmpty(own)) return { ...body, filter_expression: scope };
  const mixed = (f: FilterExpression) => f.operator === "or" && MEMBERS.filter((m) => f[m] !== undefined).length > 1;
  if (mixed(own as FilterExpression) || mixed(scope))
    throw badRequest("A source's filter_expression cannot join a request filter_expression when either uses operator or");
  const joined: FilterExpression = { operator: "and" };
  for (const m of MEMBERS) {
    const a = own?.[m];
    const b = scope[m];
    if (a && b) (joined as Record<string, unknown>)[m] = { and: [a, b] };
    else if (a || b) (joined as Record<string, unknown>)[m] = a ?? b;
  }
  return { ...body, filter_expression: joined };
}
