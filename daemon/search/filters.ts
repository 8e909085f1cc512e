import { FIELD_LETTER, type FieldType } from "../../src/api/common.js";
import type {
  CatalogProp,
  Expr,
  FieldProp,
  FilterExpression,
  KeyValueProp,
  LegacyFilter,
  ParagraphProp,
} from "../../src/api/filters.js";
import { invalid } from "../errors.js";
import { sqlString } from "../store/db.js";
import type { KbDoc, KbStore, ResourceDoc } from "../store/index.js";
import { termsSql } from "../store/paragraph-search.js";
import { and, eq, FALSE, inList, likeLiteral, listHas, listHasPrefix, not, or, ridSet, TRUE } from "../store/sql.js";
import { resourceMatches } from "./resource-props.js";

/** Everything of a request that restricts which paragraphs may be returned. */
export interface FilterInput {
  filter_expression?: FilterExpression | null;
  filters?: LegacyFilter[];
  fields?: string[];
  field_type_filter?: FieldType[];
  resource_filters?: string[];
  keyword_filters?: unknown[];
  range_creation_start?: string | null;
  range_creation_end?: string | null;
  range_modification_start?: string | null;
  range_modification_end?: string | null;
  security?: { groups: string[] } | null;
  show_hidden?: boolean;
}

/** What compiling needs: the resource records and the languages keyword terms are analysed in. */
export interface FilterContext {
  kb: KbDoc;
  store: KbStore;
  langs: string[];
}

/** Compile a boolean expression over leaves to SQL. */
export async function compileExpr<T>(e: Expr<T>, leaf: (x: T) => Promise<string> | string): Promise<string> {
  const o = e as Record<string, unknown>;
  if ("and" in o && Array.isArray(o.and)) return and(await Promise.all((o.and as Expr<T>[]).map((x) => compileExpr(x, leaf))));
  if ("or" in o && Array.isArray(o.or)) return or(await Promise.all((o.or as Expr<T>[]).map((x) => compileExpr(x, leaf))));
  if ("not" in o) return not(await compileExpr(o.not as Expr<T>, leaf));
  return leaf(e as T);
}

/**
 * A set of resources a filter keeps: as SQL (`rid IN (…)` or `rid NOT IN (…)`) and as a test on a
 * hit's resource, so that search can apply a large set to its hits rather than send the list.
 */
export interface ResourceSet {
  sql: string;
  keep(rid: string): boolean;
  /** Ids the SQL lists. */
  listed: number;
  /** The share of the knowledge box's resources kept (0..1). */
  share: number;
}

interface Memo {
  rev: number;
  sql: Map<string, string>;
  /** SQL → the set it stands for (what compileFilters pulls out of a request's conjuncts). */
  sets: Map<string, ResourceSet>;
}
const ridCache = new WeakMap<object, Memo>();

function memoOf(ctx: FilterContext): Memo {
  const res = ctx.store.resources;
  let memo = ridCache.get(res);
  if (!memo || memo.rev !== res.revision) {
    memo = { rev: res.revision, sql: new Map(), sets: new Map() };
    ridCache.set(res, memo);
  }
  return memo;
}

/**
 * The resources satisfying `pred`, as SQL. `key` names the predicate (same key, same predicate):
 * the result is kept until the resource records change, since every request filters on hidden and
 * security and a scan of every record per query would dominate a cheap keyword query.
 */
function rids(ctx: FilterContext, key: string | undefined, pred: (r: ResourceDoc) => boolean): string {
  const memo = memoOf(ctx);
  const hit = key === undefined ? undefined : memo.sql.get(key);
  if (hit !== undefined) return hit;
  const yes: string[] = [];
  const no: string[] = [];
  for (const r of ctx.store.resources.values()) (pred(r) ? yes : no).push(r.id);
  const sql = ridSet(yes, no);
  if (sql !== TRUE && sql !== FALSE && !memo.sets.has(sql)) {
    const ids = new Set(yes.length <= no.length ? yes : no);
    const inside = yes.length <= no.length;
    const share = yes.length / Math.max(1, yes.length + no.length);
    if (memo.sets.size >= 256) memo.sets.clear();
    memo.sets.set(sql, { sql, keep: (rid) => ids.has(rid) === inside, listed: ids.size, share });
  }
  if (key === undefined) return sql;
  if (memo.sql.size >= 256) memo.sql.clear();
  memo.sql.set(key, sql);
  return sql;
}

/** A resource-level property through `rids`, keyed by the property itself. */
const ridsMatching = (ctx: FilterContext, p: FieldProp | CatalogProp) =>
  rids(ctx, JSON.stringify(p), (r) => resourceMatches(r, p) === true);

/** The keyword terms of `word` as a contiguous run of a paragraph's terms, in any of the KB's languages. */
const keywordSql = termsSql;

const facetTest = (col: string, prefix: string, exact: boolean) =>
  exact ? listHas(col, prefix) : listHasPrefix(col, `${prefix}/`);

/** A field property (or catalog `resource` property) as SQL over paragraph rows. */
export function fieldPropSql(p: FieldProp | CatalogProp, ctx: FilterContext): string {
  switch (p.prop) {
    case "field":
      return and([eq("field_type", p.type), p.name ? eq("field", `${FIELD_LETTER[p.type]}/${p.name}`) : TRUE]);
    case "keyword":
      return keywordSql(p.word, ctx.langs);
    case "field_mimetype":
      return facetTest("facets", `/n/i/${p.type}${p.subtype ? `/${p.subtype}` : ""}`, Boolean(p.subtype));
    case "generated":
      return p.da_task
        ? listHas("facets", `/g/da/${p.da_task}`)
        : or([listHas("facets", "/g/da"), listHasPrefix("facets", "/g/da/")]);
    case "label":
      // Resource labels (the user's and those processing found) live in the resource record.
      return ridsMatching(ctx, p);
    case "entity":
      return or([ridsMatching(ctx, p), facetTest("facets", `/e/${p.subtype}${p.value ? `/${p.value}` : ""}`, Boolean(p.value))]);
    case "language":
      return p.only_primary ? ridsMatching(ctx, p) : or([ridsMatching(ctx, p), eq("lang", p.language.toLowerCase())]);
    case "resource":
      if (p.id && !p.slug) return eq("rid", p.id);
      return ridsMatching(ctx, p);
    default:
      return ridsMatching(ctx, p);
  }
}

/** A paragraph property as SQL: paragraph labels from the row, or from the user's fieldmetadata. */
export function paragraphPropSql(p: ParagraphProp, ctx: FilterContext): string {
  if (p.prop === "kind") return eq("kind", p.kind);
  const want = p.label ? `/l/${p.labelset}/${p.label}` : `/l/${p.labelset}/`;
  const ids: string[] = [];
  for (const r of ctx.store.resources.values()) {
    for (const fm of (r.fieldmetadata ?? []) as {
      paragraphs?: { key: string; classifications: { labelset: string; label: string }[] }[];
    }[]) {
      for (const para of fm.paragraphs ?? []) {
        if (para.classifications.some((c) => (p.label ? `/l/${c.labelset}/${c.label}` === want : c.labelset === p.labelset)))
          ids.push(para.key);
      }
    }
  }
  return or([p.label ? listHas("labels", want) : listHasPrefix("labels", want), ids.length ? inList("id", ids) : FALSE]);
}

/** Key-value fields are read from the field records; the result is the set of matching resources. */
async function keyValueSql(e: Expr<KeyValueProp>, ctx: FilterContext): Promise<string> {
  const docs = await ctx.store.fields.latest("id LIKE '%/k/%'");
  const byField = new Map<string, Map<string, Record<string, string>>>();
  for (const doc of docs.values() as Iterable<{ rid: string; id: string; value?: unknown }>) {
    const data = (doc.value as { data?: Record<string, string> } | undefined)?.data;
    if (!byField.has(doc.id)) byField.set(doc.id, new Map());
    byField.get(doc.id)?.set(doc.rid, data ?? {});
  }
  return compileExpr(e, (p) => {
    const cmp = (a: string, b: string | number) =>
      typeof b === "number" || (!Number.isNaN(Number(a)) && !Number.isNaN(Number(b)))
        ? Number(a) - Number(b)
        : a.localeCompare(String(b));
    // Not cached: it depends on the field records too.
    return rids(ctx, undefined, (r) => {
      const v = byField.get(p.schema_id)?.get(r.id)?.[p.key];
      if (v === undefined) return false;
      if ("eq" in p) return cmp(v, p.eq) === 0;
      if ("contains" in p) return v.toLowerCase().includes(p.contains.toLowerCase());
      return (p.gte === undefined || cmp(v, p.gte) >= 0) && (p.lte === undefined || cmp(v, p.lte) <= 0);
    });
  });
}

/** A legacy facet string as a property test. */
export function facetSql(f: string, ctx: FilterContext): string {
  const parts = f.split("/").slice(1);
  const [kind, a, ...rest] = parts;
  const tail = rest.join("/");
  const bad = () => {
    throw invalid([{ type: "value_error", loc: ["body", "filters"], msg: `Unsupported filter ${f}`, input: f }]);
  };
  switch (kind) {
    case "l":
      if (!a) bad();
      return fieldPropSql({ prop: "label", labelset: a, label: tail || undefined }, ctx);
    case "t":
      return fieldPropSql({ prop: "origin_tag", tag: parts.slice(1).join("/") }, ctx);
    case "p":
      return fieldPropSql({ prop: "origin_path", prefix: `/${parts.slice(1).join("/")}` }, ctx);
    case "k":
      if (!a) bad();
      return eq("kind", a.toUpperCase());
    case "e":
      if (!a) bad();
      return fieldPropSql({ prop: "entity", subtype: a, value: tail || undefined }, ctx);
    case "m":
      if (!a) bad();
      return fieldPropSql({ prop: "origin_metadata", field: a, value: tail || undefined }, ctx);
    case "u":
      if (a !== "s") bad();
      return fieldPropSql({ prop: "origin_source", id: tail || undefined }, ctx);
    case "s":
      if (a !== "p" || !tail) bad();
      return fieldPropSql({ prop: "language", language: tail, only_primary: true }, ctx);
    case "n":
      if (a === "s") return rids(ctx, `status:${tail.toUpperCase()}`, (r) => r.metadata.status === tail.toUpperCase());
      if (a === "i") {
        const [t, s] = tail.split("/");
        return or([
          fieldPropSql({ prop: "resource_mimetype", type: t, subtype: s }, ctx),
          fieldPropSql({ prop: "field_mimetype", type: t, subtype: s }, ctx),
        ]);
      }
      return listHas("facets", f);
    default:
      return listHas("facets", f);
  }
}

/** Legacy filters, one conjunct each. */
function legacySql(filters: LegacyFilter[], ctx: FilterContext): string[] {
  return filters.map((f) => {
    if (typeof f === "string") return facetSql(f, ctx);
    const each = (xs: string[] | undefined) => (xs ?? []).map((x) => facetSql(x, ctx));
    return and([
      f.all ? and(each(f.all)) : TRUE,
      f.any ? or(each(f.any)) : TRUE,
      f.none ? not(or(each(f.none))) : TRUE,
      f.not_all ? not(and(each(f.not_all))) : TRUE,
    ]);
  });
}

/** `fields`: `a/title` (one field) or `t` (a field type letter). */
function fieldsSql(fields: string[]): string {
  return or(
    fields.map((f) => (f.includes("/") ? eq("field", f.replace(/^\//, "")) : `field LIKE ${sqlString(`${likeLiteral(f)}/%`)}`)),
  );
}

/** `resource_filters`: resource ids, or `rid/letter/field`. */
function resourceFiltersSql(items: string[]): string {
  return or(
    items.map((x) => {
      const [rid, letter, field] = x.split("/");
      return letter && field ? and([eq("rid", rid), eq("field", `${letter}/${field}`)]) : eq("rid", rid);
    }),
  );
}

function keywordFiltersSql(items: unknown[], ctx: FilterContext): string {
  return and(
    items.map((k) => {
      if (typeof k !== "string" || !/^[\p{L}\p{N} ]+$/u.test(k)) {
        throw invalid([
          {
            type: "value_error",
            loc: ["body", "keyword_filters"],
            msg: "Keyword filters may hold letters, digits and spaces only",
            input: k,
          },
        ]);
      }
      return keywordSql(k, ctx.langs);
    }),
  );
}

/** Security groups, intersection semantics: public resources, or ones sharing a group with the request. */
function securitySql(req: FilterInput, ctx: FilterContext): string {
  const groups = req.security?.groups ?? [];
  if (!groups.length && !ctx.kb.enforce_security) return TRUE;
  const want = new Set(groups);
  return rids(ctx, `groups:${JSON.stringify([...want].sort())}`, (r) => {
    const g = r.security?.access_groups ?? [];
    return !g.length || g.some((x) => want.has(x));
  });
}

/** The members of a top-level `and`, so that each can be applied on its own. */
const conjuncts = <T>(e: Expr<T>): Expr<T>[] => {
  const o = e as { and?: Expr<T>[] };
  return Array.isArray(o.and) ? o.and.flatMap(conjuncts) : [e];
};

/**
 * A request's filters, compiled. `sql` is the whole prefilter. `where` and `resources` are the same
 * conditions split: the paragraph-level part, and the resource sets it is ANDed with, which search
 * may apply to its hits instead (a `rid IN` list of thousands of ids is slow for LanceDB).
 */
export interface CompiledFilter {
  sql: string;
  where: string;
  resources: ResourceSet[];
}

/** Compile every filter of a request (TRUE when nothing restricts). */
export async function compileFilters(req: FilterInput, ctx: FilterContext): Promise<CompiledFilter> {
  const parts: string[] = [];
  const fe = req.filter_expression;
  if (fe) {
    const field = fe.field ? (fe.operator === "or" ? [fe.field] : conjuncts(fe.field)) : [];
    const sub: string[] = await Promise.all(field.map((x) => compileExpr(x, (p) => fieldPropSql(p, ctx))));
    if (fe.paragraph) sub.push(await compileExpr(fe.paragraph, (p) => paragraphPropSql(p, ctx)));
    if (fe.key_value) sub.push(await keyValueSql(fe.key_value, ctx));
    if (sub.length) {
      if (fe.operator === "or") parts.push(or(sub));
      else parts.push(...sub);
    }
  }
  if (req.filters?.length) parts.push(...legacySql(req.filters, ctx));
  if (req.fields?.length) parts.push(fieldsSql(req.fields));
  if (req.field_type_filter?.length) parts.push(inList("field_type", req.field_type_filter));
  if (req.resource_filters?.length) parts.push(resourceFiltersSql(req.resource_filters));
  if (req.keyword_filters?.length) parts.push(keywordFiltersSql(req.keyword_filters, ctx));
  const cs = req.range_creation_start;
  const ce = req.range_creation_end;
  if (cs || ce) parts.push(fieldPropSql({ prop: "created", since: cs ?? undefined, until: ce ?? undefined }, ctx));
  const ms = req.range_modification_start;
  const me = req.range_modification_end;
  if (ms || me) parts.push(fieldPropSql({ prop: "modified", since: ms ?? undefined, until: me ?? undefined }, ctx));
  parts.push(securitySql(req, ctx));
  if (!req.show_hidden) parts.push(rids(ctx, "hidden", (r) => r.hidden !== true));
  const sets = memoOf(ctx).sets;
  const where: string[] = [];
  const resources: ResourceSet[] = [];
  for (const p of parts) {
    const set = sets.get(p);
    if (set) resources.push(set);
    else where.push(p);
  }
  return { sql: and(parts), where: and(where), resources };
}
