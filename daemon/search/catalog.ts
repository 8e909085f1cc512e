import type { FindResponse } from "../../src/api/find.js";
import type { CatalogBody, SearchBody } from "../../src/api/search.js";
import type { KbService } from "../kbs/service.js";
import { basicView, resourceView } from "../resources/view.js";
import { fieldRecordKey, type ResourceDoc, resourceRelations } from "../store/index.js";
import { fold, words } from "../text/analyzer.js";
import { compileExpr } from "./filters.js";
import { inWindow, pathMatches, resourceFacets, resourceMatches } from "./resource-props.js";
import type { SearchService } from "./service.js";

/** The readable facet prefixes upstream clients ask for, and the system prefixes they stand for. */
const FACET_ALIASES: Record<string, string> = {
  icon: "n/i",
  "metadata.status": "n/s",
  "metadata.language": "s/p",
  "metadata.languages": "s/s",
  "origin.tags": "t",
  "origin.metadata": "m",
  "origin.path": "p",
  "origin.source-id": "u/s",
  "classification.labels": "l",
  entities: "e",
  field: "f",
  "field-values": "fg",
  "generated.data-augmentation": "g/da",
};

/** A facet prefix in system form: `/classification.labels/topic` is `/l/topic`. */
function systemPrefix(p: string): string {
  const [, first, ...rest] = p.split("/");
  const sys = first === undefined ? undefined : FACET_ALIASES[first];
  return sys ? ["", sys, ...rest].join("/") : p;
}

/**
 * Count, for each requested facet prefix, the resources holding each facet one level below it.
 * An aliased prefix (`/classification.labels`) counts the system facets and answers in its own form.
 */
export function countFacets(resources: Iterable<ResourceDoc>, prefixes: string[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = Object.fromEntries(prefixes.map((p) => [p, {}]));
  const bases = prefixes.map((p) => {
    const slash = (x: string) => (x.endsWith("/") ? x : `${x}/`);
    return { p, sys: slash(systemPrefix(p)), shown: slash(p) };
  });
  for (const r of resources) {
    const fs = new Set(resourceFacets(r));
    for (const { p, sys, shown } of bases) {
      // A resource counts once under a tag, however many of its facets lie below it (`/p/a/b`, `/p/a/b/c`).
      const tags = new Set([...fs].filter((f) => f.startsWith(sys)).map((f) => shown + f.slice(sys.length).split("/")[0]));
      for (const tag of tags) out[p][tag] = (out[p][tag] ?? 0) + 1;
    }
  }
  return out;
}

function titleMatches(title: string, q: CatalogBody["query"]): boolean {
  if (q === undefined || (typeof q === "string" ? q : q.query) === "") return true;
  const { query, match } = typeof q === "string" ? { query: q, match: "words" as const } : q;
  const t = fold(title);
  const f = fold(query);
  switch (match) {
    case "exact":
      return t === f;
    case "starts_with":
      return t.startsWith(f);
    case "ends_with":
      return t.endsWith(f);
    case "contains":
      return t.includes(f);
    default: {
      const have = words(title).map((w) => fold(w.word));
      // `words` needs every word; the last one may be a prefix (as typed). `fuzzy` also forgives one typo.
      const want = words(query).map((w) => fold(w.word));
      return want.every((w, i) =>
        have.some((h) => h === w || (i === want.length - 1 && h.startsWith(w)) || (match === "fuzzy" && near(h, w))),
      );
    }
  }
}

function near(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a.length < 4) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

const sorter = (sort: CatalogBody["sort"]) => (a: ResourceDoc, b: ResourceDoc) => {
  const field = sort?.field ?? "created";
  const dir = (sort?.order ?? "desc") === "asc" ? 1 : -1;
  const av = (field === "title" ? a.title : a[field]) ?? "";
  const bv = (field === "title" ? b.title : b[field]) ?? "";
  return dir * av.localeCompare(bv) || a.id.localeCompare(b.id);
};

const results = (extra: { results: unknown[] } & Record<string, unknown>) => ({
  facets: {},
  min_score: 0,
  page_number: 0,
  page_size: 20,
  next_page: false,
  total: 0,
  query: "",
  ...extra,
});

/** The resource catalog, /search and /suggest: the read routes clients call around find. */
export class CatalogService {
  constructor(
    private readonly kbs: KbService,
    private readonly search: SearchService,
  ) {}

  private async matching(
    kbid: string,
    body: Pick<CatalogBody, "filter_expression" | "query" | "with_status" | "hidden" | "filters"> & Record<string, unknown>,
  ) {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const fe = body.filter_expression?.resource;
    const facetOk = (r: ResourceDoc) => {
      const fs = new Set(resourceFacets(r));
      return (body.filters ?? []).every((f) =>
        typeof f === "string"
          ? fs.has(f) ||
            [...fs].some((x) => x.startsWith(`${f}/`)) ||
            (f.startsWith("/p/") && pathMatches(r.origin?.path, f.slice(2)))
          : true,
      );
    };
    const out: ResourceDoc[] = [];
    for (const r of store.resources.values()) {
      if (fe && (await compileExpr(fe, (p) => ((resourceMatches(r, p) ?? true) ? "true" : "false"))) !== "true") continue;
      if (body.with_status && r.metadata.status !== body.with_status) continue;
      if (body.hidden != null && Boolean(r.hidden) !== body.hidden) continue;
      if (!titleMatches(r.title ?? "", body.query as CatalogBody["query"]) || !facetOk(r)) continue;
      const cs = body.range_creation_start as string | undefined;
      const ce = body.range_creation_end as string | undefined;
      if ((cs || ce) && !inWindow(r.created, cs, ce)) continue;
      const ms = body.range_modification_start as string | undefined;
      const me = body.range_modification_end as string | undefined;
      if ((ms || me) && !inWindow(r.modified, ms, me)) continue;
      out.push(r);
    }
    return { store, out };
  }

  async catalog(kbid: string, body: CatalogBody) {
    const { out } = await this.matching(kbid, body);
    out.sort(sorter(body.sort));
    const page = body.page_number ?? 0;
    const size = body.page_size ?? 20;
    const slice = out.slice(page * size, (page + 1) * size);
    const show = body.show ?? ["basic"];
    const query = typeof body.query === "string" ? body.query : (body.query?.query ?? "");
    return {
      resources: Object.fromEntries(
        slice.map((r) => [r.id, show.length > 1 ? resourceView(r, undefined, { show }) : basicView(r)]),
      ),
      fulltext: results({
        results: slice.map((r) => ({ score: 0, rid: r.id, field_type: "a", field: "title" })),
        facets: countFacets(out, body.faceted ?? []),
        query,
        total: out.length,
        page_number: page,
        page_size: size,
        next_page: out.length > (page + 1) * size,
      }),
      paragraphs: null,
      sentences: null,
      relations: null,
      nodes: null,
      shards: null,
      autofilters: [],
    };
  }

  async facets(kbid: string, facets: string[], fe: CatalogBody["filter_expression"]) {
    const { out } = await this.matching(kbid, { filter_expression: fe });
    return { facets: countFacets(out, facets) };
  }

  /** /search: keyword paragraphs, their fields (fulltext), semantic sentences, and the resources. */
  async searchKb(kbid: string, body: SearchBody) {
    const { faceted, sort, page_size, ...find } = body;
    const top_k = find.top_k ?? page_size ?? 20;
    const features = find.features ?? ["keyword", "semantic"];
    const kw = features.some((f) => f !== "semantic" && f !== "vectors")
      ? await this.search.find(kbid, { ...find, top_k, features: ["keyword"] })
      : undefined;
    const sem = features.some((f) => f === "semantic" || f === "vectors")
      ? await this.search.find(kbid, { ...find, top_k, features: ["semantic"] })
      : undefined;
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const paras = kw ? flatten(kw) : [];
    const fulltext = new Map<string, { score: number; rid: string; field_type: string; field: string }>();
    for (const p of paras) {
      const key = fieldRecordKey(p.rid, p.field);
      if (!fulltext.has(key)) fulltext.set(key, { score: p.score, rid: p.rid, field_type: p.field_type, field: p.field });
    }
    const rids = [...new Set([...paras, ...(sem ? flatten(sem) : [])].map((p) => p.rid))];
    const docs = rids.map((id) => store.resources.get(id)).filter((r): r is ResourceDoc => Boolean(r));
    if (sort) docs.sort(sorter(sort));
    const facets = countFacets(docs, faceted ?? []);
    const meta = (r?: FindResponse) => ({
      query: find.query ?? "",
      total: r?.total ?? 0,
      page_number: r?.page_number ?? 0,
      page_size: top_k,
      next_page: r?.next_page ?? false,
      min_score: r?.min_score.bm25 ?? 0,
    });
    return {
      resources: Object.fromEntries(docs.map((r) => [r.id, resourceView(r, undefined, { show: find.show ?? ["basic"] })])),
      paragraphs: results({ results: paras.map(({ p }) => p), facets, ...meta(kw) }),
      fulltext: results({ results: [...fulltext.values()], facets, ...meta(kw) }),
      sentences: sem
        ? results({ results: flatten(sem).map(({ p }) => p), ...meta(sem), min_score: sem.min_score.semantic ?? 0 })
        : null,
      relations: null,
      nodes: null,
      shards: null,
      autofilters: [],
    };
  }

  /** /suggest: paragraphs matching the words typed so far, and entities whose names start with them. */
  async suggest(
    kbid: string,
    q: { query: string; features?: string[]; fields?: string[]; filters?: string[]; show_hidden?: boolean },
  ) {
    const features = q.features?.length ? q.features : ["paragraph", "entities"];
    const res =
      features.includes("paragraph") && q.query.trim()
        ? await this.search.find(kbid, {
            query: q.query,
            features: ["keyword"],
            top_k: 10,
            fields: q.fields,
            filters: q.filters,
            show_hidden: q.show_hidden,
          })
        : undefined;
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const prefix = fold(q.query.trim());
    const entities = new Map<string, { value: string; family: string }>();
    if (features.includes("entities") && prefix) {
      for (const r of store.resources.values()) {
        for (const rel of resourceRelations(r) as { to?: { type?: string; group?: string; value?: string } }[]) {
          const to = rel.to;
          if (to?.type === "entity" && to.value && startsAWord(fold(to.value), prefix))
            entities.set(`${to.group}/${to.value}`, { value: to.value, family: to.group ?? "" });
        }
      }
    }
    const flat = res ? flatten(res) : [];
    const rids = [...new Set(flat.map((p) => p.rid))];
    return {
      paragraphs: results({ results: flat.map(({ p }) => p), query: q.query, total: flat.length }),
      entities: { entities: [...entities.values()] },
      resources: Object.fromEntries(
        rids.map((id) => [id, store.resources.get(id) ? basicView(store.resources.get(id) as ResourceDoc) : { id }]),
      ),
    };
  }
}

/** A find response's paragraphs in rank order, in the /search paragraph result shape. */
function flatten(r: FindResponse) {
  const out: { rid: string; field: string; field_type: string; score: number; p: Record<string, unknown> }[] = [];
  for (const [rid, res] of Object.entries(r.resources)) {
    for (const [key, f] of Object.entries(res.fields)) {
      const [, letter, fieldId] = key.split("/");
      for (const p of Object.values(f.paragraphs)) {
        const item = {
          score: p.score,
          rid,
          field_type: letter,
          field: fieldId,
          text: p.text,
          labels: p.labels,
          position: p.position,
          start: p.position.start,
          end: p.position.end,
          start_seconds: [],
          end_seconds: [],
          paragraph_id: p.id,
          fuzzy_result: false,
          page_with_visual: false,
          is_a_table: p.is_a_table,
          reference: null,
          order: p.order,
        };
        out.push({ rid, field: fieldId, field_type: letter, score: p.score, p: item });
      }
    }
  }
  return out.sort((a, b) => (a.p.order as number) - (b.p.order as number));
}

/** Does the name, or one of its words, start with the prefix ("cur" names "Marie Curie")? */
function startsAWord(name: string, prefix: string): boolean {
  return name.startsWith(prefix) || name.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(prefix));
}
