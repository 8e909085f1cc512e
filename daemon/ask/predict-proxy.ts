/**
 * The knowledge-box-scoped predict proxy of the upstream clients (`/kb/{kbid}/predict/{endpoint}`),
 * answered by kbox itself: tokens by the local entity extraction (daemon/entities), summarize
 * extractively, rerank by the installed cross-encoder; chat has its own route (predict-answers.ts).
 */
import type { z } from "zod";
import { PREDICT_ENDPOINTS, PREDICT_UNSERVED, PredictRerankBody, PredictSummarizeBody } from "../../src/api/kb-predict.js";
import { analyse, type EntityGroupDef } from "../entities/index.js";
import { badRequest, invalid, KboxError, notFound } from "../errors.js";
import { docTableOf } from "../kbs/kb-docs.js";
import type { KbService } from "../kbs/service.js";
import type { Reranker } from "../models/types.js";
import { extractiveSummary } from "./summarize.js";

const SENTENCES = { simple: 2, extended: 5 } as const;
const tokensOf = (s: string) => (s.match(/\S+/g) ?? []).length;

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw invalid(
    r.error.issues.map((i) => ({
      type: i.code,
      loc: ["body", ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
      msg: i.message,
      input: body,
    })),
  );
}

function unserved(endpoint: string): never {
  if ((PREDICT_UNSERVED as readonly string[]).includes(endpoint))
    throw badRequest(
      `The predict endpoint ${endpoint} is not served by kbox: it needs the hosted service's agents and models (kbox serves ${PREDICT_ENDPOINTS.join(", ")})`,
    );
  throw notFound(`Unknown predict endpoint ${endpoint} (kbox serves ${PREDICT_ENDPOINTS.join(", ")})`);
}

export class PredictProxy {
  constructor(
    private readonly kbs: KbService,
    private readonly reranker: () => Promise<Reranker | undefined>,
  ) {}

  /** GET /kb/{kbid}/predict/{endpoint}. */
  async get(kbid: string, endpoint: string, query: { text?: string }): Promise<unknown> {
    if (endpoint === "tokens") return this.tokens(kbid, query.text ?? "");
    if ((PREDICT_ENDPOINTS as readonly string[]).includes(endpoint))
      throw badRequest(`The predict endpoint ${endpoint} takes a POST`);
    return unserved(endpoint);
  }

  /** POST /kb/{kbid}/predict/{endpoint} (chat has its own route). */
  async post(kbid: string, endpoint: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    this.kbs.require(kbid, "Knowledge Box not found");
    if (endpoint === "summarize") return this.summarize(parse(PredictSummarizeBody, body));
    if (endpoint === "rerank") return this.rerank(parse(PredictRerankBody, body), signal);
    if (endpoint === "tokens") {
      const text = (body as { text?: unknown } | null)?.text;
      return this.tokens(kbid, typeof text === "string" ? text : "");
    }
    return unserved(endpoint);
  }

  /** The named entities of a text (the box's entities groups included), as predict tokens. */
  async tokens(kbid: string, text: string) {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const t0 = performance.now();
    const groups = [...(await docTableOf<EntityGroupDef>(store, "entities_groups")).values()];
    const tokens = analyse(text, groups)
      .entities.flatMap((e) => e.positions.map((p) => ({ text: e.text, ner: e.label, start: p.start, end: p.end })))
      .sort((a, b) => a.start - b.start);
    return { tokens, time: (performance.now() - t0) / 1000, input_tokens: tokensOf(text) };
  }

  summarize(body: z.output<typeof PredictSummarizeBody>) {
    const n = SENTENCES[body.summary_kind];
    const resources: Record<string, { summary: string; tokens: number }> = {};
    for (const [id, r] of Object.entries(body.resources)) {
      const text = Object.values(r.fields).join("\n\n");
      resources[id] = { summary: extractiveSummary(text, n), tokens: tokensOf(text) };
    }
    const all = Object.values(resources)
      .map((r) => r.summary)
      .join("\n\n");
    return { resources, summary: extractiveSummary(all, n) };
  }

  async rerank(body: z.output<typeof PredictRerankBody>, signal?: AbortSignal) {
    const reranker = await this.reranker();
    if (!reranker)
      throw new KboxError(
        409,
        "No reranker is installed: pull a cross-encoder (kbox models pull <reranker> --use) for the predict rerank endpoint",
      );
    const ids = Object.keys(body.context);
    const scores = ids.length ? await reranker.score(body.question, Object.values(body.context), signal) : [];
    return { context_scores: Object.fromEntries(ids.map((id, i) => [id, scores[i]])) };
  }
}
