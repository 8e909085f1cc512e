import { randomUUID } from "node:crypto";
import { type AskBody, AskBody as AskBodySchema, type AskItem, type ChatMessage } from "../../src/api/ask.js";
import { toValidationIssues } from "../../src/api/errors.js";
import type { FindResponse } from "../../src/api/find.js";
import { invalid } from "../errors.js";
import type { GuardrailService } from "../guardrails/service.js";
import type { KbService } from "../kbs/service.js";
import type { GeneratorSettings } from "../models/generate/registry.js";
import type { Generator } from "../models/generate/types.js";
import type { ResourceService } from "../resources/service.js";
import { ridOf } from "../store/index.js";
import { type AgenticConfigService, applyAgentic, type RephraseWith } from "./agentic.js";
import { type BuiltContext, buildContext } from "./context.js";
import { evidence } from "./evidence.js";
import { generateItems } from "./generate.js";
import { boxGenerator } from "./generator.js";
import { genInfo, retrievalItem } from "./items.js";
import { ParagraphReader } from "./paragraphs.js";
import { renderPrompt } from "./prompt.js";
import { modelRephrase, rephraseQuery, shouldRephrase } from "./rephrase.js";
import { emptyFind, type FindService, type Retrieval, retrieve } from "./retrieve.js";
import { scopeBySources } from "./sources.js";
import type { AskOptions, PreparedAsk } from "./types.js";

export type { AskOptions, PreparedAsk } from "./types.js";

/** Search as ask uses it: find, and the stored configurations (kind ask). */
export interface AskSearch extends FindService {
  configs: { forRequest(kbid: string, name: string, kind: "find" | "ask"): Promise<Record<string, unknown>> };
}

/** Ask's settings (daemon/settings). */
export interface AskSettings {
  /** The context budget in tokens when the request sets none (KBOX_CONTEXT_TOKENS). */
  contextTokens: number;
  /** The evidence (daemon/ask/evidence.ts) the extractive answerer needs to answer rather than abstain. */
  extractiveMinEvidence: number;
  /** The same for a generative model, which also abstains on its own when the context does not say. */
  generativeMinEvidence: number;
}

/** Ask: retrieve, build the context, generate, cite; yields the wire's stream items in order. */
export class AskService {
  constructor(
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    private readonly search: AskSearch,
    private readonly settings: AskSettings,
    private readonly generation: GeneratorSettings,
    /** Agentic configurations, which `agentic_config_id` applies over the request. */
    readonly agentic: AgenticConfigService,
    /** The account's enabled guardrail policies, screening each question before anything is retrieved. */
    private readonly guard?: Pick<GuardrailService, "screen">,
  ) {}

  /** A generator by name, or the wire's 422 located at `loc`. */
  private generatorFor(
    name: string | null | undefined,
    kb: PreparedAsk["kb"],
    opts: AskOptions,
    loc: string,
    input: unknown,
  ): Generator {
    const untrusted = opts.principal !== undefined && opts.principal.via !== "socket";
    return boxGenerator(kb, name, this.generation, { untrusted, loc, input });
  }

  /** Validate and resolve everything an ask needs; throws the wire's errors (404, 400, 422). */
  async prepare(kbid: string, input: AskBody, opts: AskOptions = {}): Promise<PreparedAsk> {
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const rid = opts.resource ? (await this.resources.resolve(kb.uuid, opts.resource)).res.id : undefined;
    let body = input;
    if (input.search_configuration) {
      const config = await this.search.configs.forRequest(kb.uuid, input.search_configuration, "ask");
      const raw: Record<string, unknown> = { ...config };
      for (const [k, v] of Object.entries(input)) if (v !== undefined && k !== "search_configuration") raw[k] = v;
      const r = AskBodySchema.safeParse(raw);
      if (!r.success) throw invalid(toValidationIssues(r.error, "body", raw));
      body = r.data;
    }
    const lc = kb.learning_configuration;
    // The KB's prefer_markdown_generative_response applies when the request does not say.
    if (body.prefer_markdown === undefined && lc?.prefer_markdown_generative_response !== undefined)
      body = { ...body, prefer_markdown: lc.prefer_markdown_generative_response };
    let rephrase: RephraseWith | undefined;
    let hideHistory: boolean | undefined;
    if (body.agentic_config_id) {
      const config = await this.agentic.forRequest(kb.uuid, body.agentic_config_id);
      ({ body, rephrase, hideHistory } = applyAgentic(body, config));
      body = scopeBySources(body, await this.agentic.sourcesOf(kb.uuid, config));
    }
    const generator = this.generatorFor(
      body.generative_model,
      kb,
      opts,
      "generative_model",
      body.generative_model ?? lc?.generative_model,
    );
    const rephraser = rephrase && {
      ...rephrase,
      generator: rephrase.model ? this.generatorFor(rephrase.model, kb, opts, "agentic_config_id", rephrase.model) : generator,
    };
    return { kb, store, body, rid, generator, rephraser, hideHistory, learningId: randomUUID().replace(/-/g, ""), opts };
  }

  /** The stream of an ask, item by item (see wire.md for the order). */
  async *run(p: PreparedAsk): AsyncGenerator<AskItem> {
    const { body, opts } = p;
    const t0 = performance.now();
    const history = body.chat_history ?? body.context ?? [];
    const screening = await this.guard?.screen(body.query, { kb: p.kb, source: "ask", signal: opts.signal });
    if (screening?.blocked) {
      const b = screening.blocked;
      const why = b.error ? `its evaluation failed (${b.error})` : b.reason;
      const details = `blocked by guardrail policy "${b.name}" (${b.policy_id}): ${why}`;
      yield* this.tail(p, emptyFind(body.query), undefined, "error", details);
      return;
    }
    const rephrased = await this.rephrased(p, history);
    let retrieval: Retrieval;
    try {
      retrieval = await retrieve(this.search, p.kb.uuid, body, rephrased, {
        principal: opts.principal,
        signal: opts.signal,
        rid: p.rid,
      });
    } catch (e) {
      yield { type: "error", error: `retrieval failed: ${(e as Error).message}` };
      yield* this.tail(p, emptyFind(body.query), undefined, "error", (e as Error).message);
      return;
    }
    if (rephrased !== body.query) retrieval.main.rephrased_query = rephrased;
    const retrievalMs = performance.now() - t0;
    const extra = body.extra_context ?? [];
    if (!retrieval.ranked.length && !extra.length) {
      yield { type: "status", code: "-3", status: "no_retrieval_data" };
      if (body.generate_answer !== false) yield { type: "answer", text: "Not enough data to answer this." };
      yield retrievalItem(retrieval.main);
      if (retrieval.prequeries) yield { type: "prequeries", results: retrieval.prequeries };
      yield {
        type: "metadata",
        tokens: { input: 0, output: 0, input_nuclia: 0, output_nuclia: 0 },
        timings: {},
        generator: genInfo(p.generator),
      };
      return;
    }
    if (body.generate_answer === false) {
      yield* this.tail(p, retrieval.main, retrieval.prequeries, "success");
      return;
    }
    const ctx = await this.context(p, retrieval);
    for (const c of ctx.pieces) c.title ??= p.store.resources.get(ridOf(c.id) ?? "")?.title;
    const ev = extra.length ? undefined : this.evidence(p, ctx, rephrased);
    yield* this.answer(p, retrieval, ctx, rephrased, p.hideHistory ? [] : history, retrievalMs, ev);
  }

  /** The query retrieval uses: rephrased by a model (an agentic configuration), or with the history's words. */
  private async rephrased(p: PreparedAsk, history: ChatMessage[]): Promise<string> {
    const { body } = p;
    const r = p.rephraser;
    if (r && r.generator.kind !== "extractive") {
      try {
        return await modelRephrase(r.generator, r.prompt, body.query, r.history ? history : [], p.opts.signal);
      } catch {
        // The model failed: rephrase as without a model, and let the answer's generation report a broken endpoint.
      }
    }
    return shouldRephrase(body.query, history, body.rephrase, body.chat_history_relevance_threshold)
      ? rephraseQuery(body.query, history)
      : body.query;
  }

  private async context(p: PreparedAsk, r: Retrieval): Promise<BuiltContext> {
    const mt = p.body.max_tokens;
    const budget = (typeof mt === "object" && mt?.context) || this.settings.contextTokens;
    return buildContext({
      ranked: r.ranked,
      strategies: p.body.rag_strategies ?? [],
      extraContext: p.body.extra_context ?? [],
      budgetTokens: budget,
      footnotes: p.body.citations === "llm_footnotes",
      reader: new ParagraphReader(p.store),
      resource: (rid) => p.store.resources.get(rid),
    });
  }

  /** How well the context supports an answer, and whether that is enough for this generator. */
  private evidence(p: PreparedAsk, ctx: BuiltContext, question: string): { score: number; enough: boolean } {
    // A follow-up is searched with words of the conversation added ("Why do they purr" + "cats sleep"): the
    // documents answer it when they cover either the question as searched or as asked.
    let { score } = evidence(question, ctx.pieces);
    if (question !== p.body.query) score = Math.max(score, evidence(p.body.query, ctx.pieces).score);
    const min = p.generator.kind === "extractive" ? this.settings.extractiveMinEvidence : this.settings.generativeMinEvidence;
    return { score, enough: score >= min };
  }

  private async *answer(
    p: PreparedAsk,
    r: Retrieval,
    ctx: BuiltContext,
    question: string,
    history: AskBody["chat_history"] & {},
    retrievalMs: number,
    ev?: { score: number; enough: boolean },
  ): AsyncGenerator<AskItem> {
    const { body } = p;
    const footnotes = body.citations === "llm_footnotes";
    // The model sees the question as asked, with the history; retrieval used the rephrased one.
    const messages = renderPrompt(body, body.query, ctx.pieces, history, footnotes);
    const mt = body.max_tokens;
    yield* generateItems({
      prepared: p,
      retrieval: r,
      context: ctx,
      request: {
        messages,
        question: body.query,
        retrievalQuery: question === body.query ? undefined : question,
        context: ctx.pieces,
        maxTokens: typeof mt === "number" ? mt : (mt?.answer ?? undefined),
        seed: body.generative_model_seed ?? undefined,
        jsonSchema: body.answer_json_schema
          ? { ...body.answer_json_schema, description: body.answer_json_schema.description ?? undefined }
          : undefined,
        reasoning: body.reasoning ? true : undefined,
        footnotes,
        signal: p.opts.signal,
      },
      retrievalMs,
      evidence: ev?.score,
      abstain: ev ? !ev.enough : false,
    });
  }

  /** The closing items when no answer is generated (generate_answer false, or a failure before generation). */
  private async *tail(
    p: PreparedAsk,
    main: FindResponse,
    pre: Record<string, FindResponse> | undefined,
    status: "success" | "error",
    details?: string,
  ): AsyncGenerator<AskItem> {
    yield retrievalItem(main);
    if (pre) yield { type: "prequeries", results: pre };
    if (status === "error") {
      yield { type: "status", code: "-1", status: "error", details };
      return;
    }
    yield { type: "status", code: "0", status: "success" };
    yield {
      type: "metadata",
      tokens: { input: 0, output: 0, input_nuclia: 0, output_nuclia: 0 },
      timings: {},
      generator: genInfo(p.generator),
    };
  }
}
