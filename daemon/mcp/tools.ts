/** What the MCP tools do, over the daemon's services: find, ask, read, list and add. No MCP types here. */
import type { z } from "zod";
import { AskBody } from "../../src/api/ask.js";
import { toValidationIssues } from "../../src/api/errors.js";
import { FindBody, type FindResponse } from "../../src/api/find.js";
import type { CreateResource } from "../../src/api/resources.js";
import { CatalogBody } from "../../src/api/search.js";
import type { AskService } from "../ask/service.js";
import { collectSync } from "../ask/sync.js";
import type { Principal } from "../auth/service.js";
import { KboxError } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { ResourceService } from "../resources/service.js";
import type { CatalogService } from "../search/catalog.js";
import type { SearchService } from "../search/service.js";
import { type DocumentRef, readDocument, resourceUri } from "./documents.js";

/** The services the tools call. */
export interface ToolServices {
  kbs: KbService;
  resources: ResourceService;
  search: SearchService;
  catalog: CatalogService;
  ask: AskService;
}

/** Narrowing arguments shared by find and ask. */
export interface Narrowing {
  labels?: string[];
  path?: string;
  resource_ids?: string[];
  filters?: string[];
  filter_expression?: Record<string, unknown>;
  search_configuration?: string;
}

/** A failure the assistant should read (bad arguments, unknown document), not a protocol error. */
export class ToolError extends Error {}

/** One ranked paragraph of a find, as the tools show it. */
export interface Hit {
  rank: number;
  score: number;
  resource_id: string;
  title: string;
  paragraph_id: string;
  field: string;
  text: string;
  uri: string;
}

/** The narrowing arguments as members of a find or ask body. */
function narrowing(n: Narrowing): Record<string, unknown> {
  const field: unknown[] = [];
  for (const l of n.labels ?? []) {
    const [labelset, ...rest] = l.split("/");
    if (!labelset) throw new ToolError(`label ${JSON.stringify(l)} is not labelset or labelset/label`);
    field.push({ prop: "label", labelset, ...(rest.length ? { label: rest.join("/") } : {}) });
  }
  if (n.path) field.push({ prop: "origin_path", prefix: n.path });
  let fe = n.filter_expression;
  if (field.length) {
    const all = fe?.field ? [fe.field, ...field] : field;
    fe = { ...fe, field: all.length === 1 ? all[0] : { and: all } };
  }
  const out: Record<string, unknown> = {};
  if (fe) out.filter_expression = fe;
  if (n.filters?.length) out.filters = n.filters;
  if (n.resource_ids?.length) out.resource_filters = n.resource_ids;
  if (n.search_configuration) out.search_configuration = n.search_configuration;
  return out;
}

/** Parse a body the tools built, with the wire's schema; problems become a ToolError the assistant reads. */
function parsed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issues = toValidationIssues(r.error, "body", raw);
  throw new ToolError(`invalid arguments: ${issues.map((i) => `${i.loc.slice(1).join(".")}: ${i.msg}`).join("; ")}`);
}

/** Paragraphs of a find response in rank order. */
export function hitsOf(kbid: string, r: FindResponse): Hit[] {
  const rows: Hit[] = [];
  for (const [rid, res] of Object.entries(r.resources)) {
    const title = String(res.title ?? res.slug ?? rid);
    for (const [field, f] of Object.entries(res.fields))
      for (const p of Object.values(f.paragraphs))
        rows.push({
          rank: p.order,
          score: p.score,
          resource_id: rid,
          title,
          paragraph_id: p.id,
          field,
          text: p.text,
          uri: resourceUri(kbid, rid),
        });
  }
  return rows.sort((a, b) => a.rank - b.rank).map((h, i) => ({ ...h, rank: i + 1 }));
}

/** The knowledge box's operations as the MCP tools call them, for one caller. */
export class KbTools {
  constructor(
    private readonly s: ToolServices,
    readonly kbid: string,
  ) {}

  /** Title and description of the knowledge box, for the server's instructions. */
  about(): { slug: string; title: string; description: string } {
    const kb = this.s.kbs.require(this.kbid);
    return { slug: kb.slug, title: kb.title || kb.slug, description: kb.description ?? "" };
  }

  async find(query: string, topK: number, n: Narrowing, principal: Principal, signal?: AbortSignal): Promise<Hit[]> {
    const body = parsed(FindBody, { query, top_k: topK, ...narrowing(n) });
    return hitsOf(this.kbid, await this.s.search.find(this.kbid, body, { principal, signal }));
  }

  async ask(question: string, n: Narrowing, principal: Principal, signal?: AbortSignal) {
    const body = parsed(AskBody, { query: question, citations: true, ...narrowing(n) });
    const prepared = await this.s.ask.prepare(this.kbid, body, { principal, signal });
    const r = await collectSync(this.s.ask.run(prepared), prepared.learningId);
    const hits = r.retrieval_results ? hitsOf(this.kbid, r.retrieval_results as FindResponse) : [];
    const byId = new Map(hits.map((h) => [h.paragraph_id, h]));
    const citations = Object.keys(r.citations ?? {}).map((pid, i) => {
      const h = byId.get(pid);
      const rid = pid.slice(0, 32);
      return {
        n: i + 1,
        paragraph_id: pid,
        resource_id: rid,
        title: h?.title ?? rid,
        text: h?.text ?? "",
        uri: resourceUri(this.kbid, rid),
      };
    });
    return { answer: r.answer, status: r.status, citations, error: r.error_details as string | undefined };
  }

  /** A resource (by id, slug or URI) or one paragraph (by paragraph id), with its text. */
  get(ref: DocumentRef, maxChars: number) {
    return readDocument(this.s.resources, this.kbid, ref, maxChars);
  }

  async list(query: string | undefined, n: Pick<Narrowing, "labels">, page: number, pageSize: number) {
    const labels = (n.labels ?? []).map((l) => `/l/${l}`);
    const body = parsed(CatalogBody, {
      ...(query ? { query } : {}),
      ...(labels.length ? { filters: labels } : {}),
      page_number: page,
      page_size: pageSize,
      sort: { field: "created", order: "desc" },
    });
    const r = await this.s.catalog.catalog(this.kbid, body);
    const docs = Object.values(r.resources).map((d) => {
      const v = d as Record<string, unknown> & { id: string; metadata?: { status?: string } };
      return {
        resource_id: v.id,
        slug: v.slug as string | undefined,
        title: (v.title as string | undefined) ?? v.id,
        status: v.metadata?.status,
        created: v.created as string | undefined,
        uri: resourceUri(this.kbid, v.id),
      };
    });
    return { documents: docs, total: r.fulltext.total, next_page: r.fulltext.next_page };
  }

  /** Add a resource; WRITER only (the route lets readers in, so the tool checks). */
  async add(principal: Principal, input: CreateResource) {
    if (!principal.roles.has("WRITER")) throw new ToolError("this key may not write to the knowledge box (WRITER role needed)");
    try {
      const r = await this.s.resources.create(this.kbid, input);
      return { resource_id: r.uuid, uri: resourceUri(this.kbid, r.uuid) };
    } catch (e) {
      if (e instanceof KboxError) throw new ToolError(typeof e.detail === "string" ? e.detail : JSON.stringify(e.detail));
      throw e;
    }
  }
}
