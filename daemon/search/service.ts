import { toValidationIssues } from "../../src/api/errors.js";
import { FindBody, type FindResponse } from "../../src/api/find.js";
import type { Principal } from "../auth/service.js";
import { invalid } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { Embedder, Reranker } from "../models/types.js";
import type { KbDoc, KbStore, ParagraphHit } from "../store/index.js";
import { analysisLanguage, queryTerms } from "../text/analyzer.js";
import type { SearchConfigService } from "./configs.js";
import { compileFilters } from "./filters.js";
import { fuse, type Ranked } from "./fusion.js";
import { parseQuery, positiveText } from "./keyword.js";
import { IndexMaintainer } from "./maintenance.js";
import { underFilter } from "./prefilter.js";
import { queryRelations } from "./relations.js";
import { mergeConfig, type ResolvedFind, resolveFind } from "./request.js";
import { shapeResources } from "./results.js";
import { expandSynonyms, type SynonymSource } from "./synonyms.js";

/** What search needs of the model service (daemon/models), when one is installed. */
export interface SearchModels {
  embedderFor(kb: string, vectorset?: string): Embedder | undefined | Promise<Embedder | undefined>;
  vectorsets?(kb: string): string[] | { id: string }[] | Promise<string[] | { id: string }[]>;
  reranker?(): Reranker | undefined | Promise<Reranker | undefined>;
}

/** Search's settings (daemon/settings). */
export interface SearchSettings {
  /** Vectors in a vectorset from which an ANN index is built (KBOX_ANN_MIN_ROWS). */
  annMinRows: number;
}

export interface FindOptions {
  principal?: Principal;
  /** Aborts the search between its steps (the client went away); the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A find's typed outcome: the wire response, and the paragraphs of its page as search ranked them (raw text). */
export interface Retrieval {
  response: FindResponse;
  page: Ranked[];
}

/** The first `n` ranked hits with every result column: those an `ids` pass left incomplete are read in one take. */
async function completeHead(store: KbStore, ranked: Ranked[], n: number): Promise<Ranked[]> {
  const bare = ranked.slice(0, n).filter((h) => h.text === undefined);
  if (!bare.length) return ranked;
  const full = new Map((await store.paragraphs.complete(bare)).map((h) => [h.id, h]));
  return ranked.flatMap((h, i) => {
    if (i >= n || h.text !== undefined) return [h];
    const f = full.get(h.id);
    return f ? [{ ...f, score: h.score, score_type: h.score_type }] : [];
  });
}

const issue = (loc: string[], msg: string, input?: unknown) =>
  invalid([{ type: "value_error", loc: ["body", ...loc], msg, input }]);

/** Find: keyword, semantic and hybrid retrieval over a knowledge box's paragraphs. */
export class SearchService {
  private readonly maintainers = new Map<KbStore, IndexMaintainer>();
  private readonly langCache = new WeakMap<KbStore, { rev: number; langs: string[] }>();

  constructor(
    private readonly kbs: KbService,
    readonly configs: SearchConfigService,
    private readonly models: SearchModels | undefined,
    private readonly settings: SearchSettings,
    /** Custom synonyms keyword queries expand to (none when not given). */
    private readonly synonyms?: SynonymSource,
  ) {
    kbs.onDrop(async (kbid) => {
      for (const [store, m] of this.maintainers) if (store.kbid === kbid) await m.close(), this.maintainers.delete(store);
    });
  }

  /** The index maintainer of a knowledge box (created, with its FTS index, on first use). */
  async maintainer(store: KbStore): Promise<IndexMaintainer> {
    let m = this.maintainers.get(store);
    if (!m) {
      m = new IndexMaintainer(store.paragraphs, this.settings.annMinRows);
      this.maintainers.set(store, m);
      await m.ensureFts();
    }
    return m;
  }

  /**
   * Languages keyword queries are analysed in: English (also used for text of unknown language)
   * and the main language of each resource (set by the user, or its largest field's). Not every
   * language detected in some field: one short title taken for Italian would add an Italian reading
   * of every query, whose extra terms (English stop words, other stems of the same words) skew BM25
   * for the whole box (SciFact keyword nDCG@10: 0.677 with such titles, 0.687 without; docs/benchmarks.md).
   * Cached until a resource record changes: it is needed on every query.
   */
  languages(store: KbStore): string[] {
    const hit = this.langCache.get(store);
    if (hit && hit.rev === store.resources.revision) return hit.langs;
    const langs = new Set(["en"]);
    for (const r of store.resources.values()) if (r.metadata.language) langs.add(analysisLanguage(r.metadata.language));
    const out = [...langs];
    this.langCache.set(store, { rev: store.resources.revision, langs: out });
    return out;
  }

  /** Run a find request (as sent: a named search configuration is merged in first). */
  async find(kbid: string, body: FindBody, opts: FindOptions = {}): Promise<FindResponse> {
    return (await this.retrieve(kbid, body, opts)).response;
  }

  /** A find, with the ranked paragraphs of its page for callers that build on them (ask). */
  async retrieve(kbid: string, body: FindBody, opts: FindOptions = {}): Promise<Retrieval> {
    const signal = opts.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    let merged = body;
    if (body.search_configuration) {
      const config = await this.configs.forRequest(kb.uuid, body.search_configuration, "find");
      const raw = mergeConfig(config, body as Record<string, unknown>);
      const r = FindBody.safeParse(raw);
      if (!r.success) throw invalid(toValidationIssues(r.error, "body", raw));
      merged = r.data;
    }
    // A secure token's groups are the request's security, whatever the request says.
    const groups = opts.principal?.securityGroups;
    // No group at all: public resources only (a group no resource has keeps the filter on).
    if (groups) merged = { ...merged, security: { groups: groups.length ? groups : ["\u0000"] } };
    return this.run(kb, store, resolveFind(merged, kb), signal);
  }

  /** The keyword query with the knowledge box's custom synonyms added. */
  private async keywordQuery(kbid: string, query: string): Promise<string> {
    return this.synonyms ? expandSynonyms(query, (await this.synonyms.get(kbid)).synonyms) : query;
  }

  private async run(kb: KbDoc, store: KbStore, req: ResolvedFind, signal: AbortSignal): Promise<Retrieval> {
    const m = await this.maintainer(store);
    const langs = this.languages(store);
    const filter = await compileFilters(req, { kb, store, langs });
    const need = (req.page_number + 1) * req.top_k + 1;
    const window = Math.max(need, req.rrf.window ?? 0, req.rerank.window ?? 0);
    const vector = req.semantic ? await this.queryVector(kb, store, req) : undefined;
    const ann = vector ? m.annFor(vector.vectorset) : { indexed: false, nprobes: 0, refineFactor: 0 };
    signal.throwIfAborted();
    const query = parseQuery(await this.keywordQuery(kb.uuid, req.query));
    // Hits of a large resource set come back ranked on ids alone: only those of the fused head are completed below.
    const complete = async (hits: ParagraphHit[]) => hits;
    const [kw, sem] = await Promise.all([
      req.keyword && req.query.trim()
        ? underFilter(
            (where, limit, cols) => store.paragraphs.keyword(query, langs, where, limit, cols),
            filter,
            window,
            complete,
          )
        : undefined,
      vector
        ? underFilter(
            (where, limit, cols) => store.paragraphs.nearest(vector.vectorset, vector.vector, where, limit, ann, cols),
            filter,
            window,
            complete,
            {
              ann,
              run: (where, keep, n, candidates) =>
                store.paragraphs.nearestKept(vector.vectorset, vector.vector, where, keep, n, candidates, ann),
            },
          )
        : undefined,
    ]);
    const kwKept = kw?.filter((h) => h.score >= req.minBm25);
    const semKept = sem?.filter((h) => req.minSemantic === null || h.score >= req.minSemantic);
    let ranked = fuse(kwKept, semKept, req.rrf);
    signal.throwIfAborted();
    ranked = await completeHead(store, await this.rerank(store, req, ranked), need);
    signal.throwIfAborted();
    const page = ranked.slice(req.page_number * req.top_k, (req.page_number + 1) * req.top_k);
    const terms = req.highlight
      ? queryTerms(positiveText(parseQuery(req.query)), [...langs, ...new Set(page.map((h) => analysisLanguage(String(h.lang))))])
      : undefined;
    const resources = await shapeResources(store, page, req.page_number * req.top_k, {
      show: req.show,
      fieldTypes: req.field_type_filter,
      extracted: req.extracted,
      highlightTerms: terms ? (l) => new Set(terms.get(l) ?? []) : undefined,
    });
    const response: FindResponse = {
      resources,
      relations: req.relations ? queryRelations(store.resources.values(), req.query) : null,
      query: req.query,
      rephrased_query: null,
      total: ranked.length,
      page_number: req.page_number,
      page_size: req.top_k,
      next_page: req.top_k > 0 && ranked.length > (req.page_number + 1) * req.top_k,
      nodes: null,
      shards: null,
      autofilters: [],
      min_score: { semantic: req.minSemantic, bm25: req.minBm25 },
      best_matches: page.map((h) => h.id),
      metrics: null,
      search_after: null,
    };
    return { response, page };
  }

  /** The query vector: the caller's, or the query embedded with the vectorset's model; none without either. */
  private async queryVector(
    kb: KbDoc,
    store: KbStore,
    req: ResolvedFind,
  ): Promise<{ vectorset: string; vector: number[] } | undefined> {
    const models = this.models;
    const columns = store.paragraphs.vectorColumns();
    let vectorset = req.vectorset ?? undefined;
    if (!vectorset) {
      const listed = (await models?.vectorsets?.(kb.uuid)) ?? [];
      const first = listed.map((v) => (typeof v === "string" ? v : v.id)).find((v) => columns.has(v));
      vectorset = first ?? [...columns.keys()][0];
    } else if (!columns.has(vectorset)) {
      const known = new Set([...((await models?.vectorsets?.(kb.uuid)) ?? []).map((v) => (typeof v === "string" ? v : v.id))]);
      if (!known.has(vectorset)) throw issue(["vectorset"], `Unknown vectorset ${vectorset}`, vectorset);
      return undefined;
    }
    if (!vectorset) return undefined;
    const dim = columns.get(vectorset);
    if (req.vector) {
      if (dim !== undefined && req.vector.length !== dim)
        throw issue(["vector"], `Vector has ${req.vector.length} dimensions; vectorset ${vectorset} has ${dim}`);
      return { vectorset, vector: req.vector };
    }
    if (!req.query.trim()) return undefined;
    const embedder = await models?.embedderFor(kb.uuid, vectorset);
    if (!embedder) return undefined;
    const [v] = await embedder.embed([req.query], "query");
    return { vectorset, vector: Array.from(v) };
  }

  /** `predict`: the best reranker available (none installed → the fused order, honestly unchanged). */
  private async rerank(store: KbStore, req: ResolvedFind, fused: Ranked[]): Promise<Ranked[]> {
    if (req.rerank.kind === "noop" || !req.query.trim() || !fused.length) return fused;
    const reranker = await this.models?.reranker?.();
    if (!reranker) return fused;
    const n = Math.min(fused.length, req.rerank.window ?? Math.max(req.top_k * (req.page_number + 1), 20), 200);
    const ranked = await completeHead(store, fused, n);
    const head = ranked.slice(0, n);
    const scores = await reranker.score(
      req.query,
      head.map((h) => String(h.text)),
    );
    const rescored: Ranked[] = head.map((h, i) => ({ ...h, score: scores[i], score_type: "RERANKER" }));
    rescored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return [...rescored, ...ranked.slice(n)];
  }

  async close(): Promise<void> {
    for (const m of this.maintainers.values()) await m.close();
  }
}
