/** Retrieval from one driver: a knowledge box of this daemon, or one of another kbox or zone over HTTP. */
import type { FindBody, FindResponse } from "../../src/api/find.js";
import type { FindService } from "../ask/retrieve.js";
import type { KbService } from "../kbs/service.js";
import { type FetchPolicy, guardedFetch } from "../net/outbound.js";
import type { DriverTarget } from "./config.js";

/** A paragraph a driver found. */
export interface Chunk {
  id: string;
  rid: string;
  text: string;
  title?: string;
  score?: number;
}

const DEFAULT_TOP_K = 5;

function findBody(t: DriverTarget, query: string, topK?: number): FindBody {
  const body: Record<string, unknown> = { query, top_k: topK ?? t.top_k ?? DEFAULT_TOP_K };
  if (t.filters) body.filters = t.filters;
  if (t.filter_expression) body.filter_expression = t.filter_expression;
  return body as FindBody;
}

/** Paragraphs of a find response, best first. */
export function chunksOf(r: FindResponse): Chunk[] {
  const out: Chunk[] = [];
  for (const [rid, res] of Object.entries(r.resources ?? {}))
    for (const field of Object.values(res.fields ?? {}))
      for (const [id, p] of Object.entries(field.paragraphs ?? {}))
        out.push({ id, rid, text: p.text, title: res.title ?? undefined, score: p.score, order: p.order } as Chunk & {
          order: number;
        });
  return out
    .sort((a, b) => ((a as { order?: number }).order ?? 0) - ((b as { order?: number }).order ?? 0))
    .map(({ order: _o, ...c }: Chunk & { order?: number }) => c);
}

export class DriverRetriever {
  constructor(
    private readonly kbs: KbService,
    private readonly search: FindService,
    private readonly fetchPolicy: FetchPolicy,
  ) {}

  async retrieve(t: DriverTarget, query: string, o: { topK?: number; signal?: AbortSignal }): Promise<Chunk[]> {
    if (t.kind === "local") {
      const found = await this.search.retrieve(t.kbid, findBody(t, query, o.topK), { signal: o.signal });
      const { store } = await this.kbs.open(t.kbid, "The driver's knowledge box is gone");
      return found.page.map((h) => ({ id: h.id, rid: h.rid, text: h.text, title: store.resources.get(h.rid)?.title }));
    }
    const url = `${t.url.replace(/\/+$/, "")}/api/v1/kb/${encodeURIComponent(t.kbid)}/find`;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (t.key) headers["x-nuclia-serviceaccount"] = `Bearer ${t.key}`;
    const res = await guardedFetch(
      url,
      { method: "POST", headers, body: JSON.stringify(findBody(t, query, o.topK)), signal: o.signal },
      this.fetchPolicy,
    );
    if (!res.ok) {
      const text = await res.text().catch(() => "");
      throw new Error(`${new URL(url).origin} answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ""}`);
    }
    return chunksOf((await res.json()) as FindResponse);
  }
}
