/**
 * Interaction: a question (with the session's history or an explicit chat_history) is rephrased,
 * planned over the drivers, retrieved from each, validated, answered by the configured model (the
 * extractive answerer without one) and post-processed; each stage is a step of the stream.
 */
import { randomUUID } from "node:crypto";
import type { AragAnswer, ChatTurn, InteractionRequest } from "../../src/api/agents.js";
import type { ChatMessage } from "../../src/api/ask.js";
import { alignCitations, DEFAULT_CITATION_THRESHOLD } from "../ask/citations.js";
import { evidence } from "../ask/evidence.js";
import { boxGenerator } from "../ask/generator.js";
import { renderContext } from "../ask/prompt.js";
import { modelRephrase, rephraseQuery, shouldRephrase } from "../ask/rephrase.js";
import type { Principal } from "../auth/principal.js";
import { badRequest } from "../errors.js";
import { NO_ANSWER } from "../models/generate/extractive.js";
import type { GeneratorSettings } from "../models/generate/registry.js";
import { terms } from "../models/generate/text.js";
import type { Generator, ChatMessage as GenMessage } from "../models/generate/types.js";
import { AgentConfigService } from "./config.js";
import type { Chunk, DriverRetriever } from "./drivers.js";
import { EPHEMERAL, SessionService } from "./sessions.js";
import { type Agent, AgentTables, type ModuleDoc, type SessionDoc, type WorkflowDoc } from "./tables.js";

const SYSTEM =
  "You are a retrieval agent. Answer the question using only the context, which comes from several sources; " +
  `combine them when the question needs more than one. If the context does not contain the answer, reply exactly: ${NO_ANSWER}`;

export interface Prepared {
  agent: Agent;
  workflow: WorkflowDoc;
  session?: SessionDoc;
  req: InteractionRequest;
  drivers: ReturnType<AgentConfigService["driversOpen"]>;
  generator: Generator;
  who: string;
  signal?: AbortSignal;
}

type Step = NonNullable<AragAnswer["step"]>;

export class InteractionService {
  constructor(
    private readonly config: AgentConfigService,
    private readonly retriever: DriverRetriever,
    private readonly generation: GeneratorSettings,
  ) {}

  /** Everything an interaction needs; the wire's 404, 400 and 422 before any item is sent. */
  async prepare(
    agentId: string,
    sessionRef: string,
    workflowId: string,
    req: InteractionRequest,
    o: { principal?: Principal; signal?: AbortSignal },
  ): Promise<Prepared> {
    const agent = await this.config.open(agentId);
    const workflow = AgentTables.workflow(agent, workflowId);
    const session =
      sessionRef === EPHEMERAL || agent.kb.mode === "agent_no_memory" ? undefined : SessionService.find(agent, sessionRef);
    const drivers = this.config.driversOpen(agent);
    if (!drivers.length && req.operation === 0)
      throw badRequest("The agent has no drivers to retrieve from: add one (kbox agent driver add, or POST .../drivers)");
    const gm = workflow.modules.generation.find((m) => m.module === "generate" || m.module === "summarize");
    const untrusted = o.principal !== undefined && o.principal.via !== "socket";
    const generator = boxGenerator(agent.kb, gm?.model, this.generation, { untrusted, loc: "model", input: gm?.model });
    const who = o.principal?.user ?? o.principal?.credential ?? o.principal?.via ?? "owner";
    return { agent, workflow, session, req, drivers, generator, who, signal: o.signal };
  }

  /** The interaction as one answer: the last item, with every step and context gathered. */
  async whole(p: Prepared): Promise<AragAnswer> {
    const steps: Step[] = [];
    const contexts: Record<string, unknown>[] = [];
    let last: AragAnswer = { operation: 3 };
    let answer: AragAnswer | undefined;
    for await (const item of this.run(p)) {
      if (item.step) steps.push(item.step);
      if (item.context) contexts.push(item.context);
      if (item.answer !== undefined && item.answer !== null) answer = item;
      if (item.operation === 4) return { ...item, steps, contexts };
      last = item;
    }
    return { ...last, ...(answer ? { answer: answer.answer, answer_citations: answer.answer_citations } : {}), steps, contexts };
  }

  async *run(p: Prepared): AsyncGenerator<AragAnswer> {
    const qid = randomUUID().replace(/-/g, "");
    let seq = 0;
    const emit = (x: AragAnswer): AragAnswer => ({
      ...x,
      seqid: seq++,
      original_question_uuid: qid,
    });
    const started = performance.now();
    let t = started;
    const step = (module: string, title: string, value: string, extra: Partial<Step> = {}): AragAnswer => {
      const now = performance.now();
      const s = { module, title, value, agent_path: `${p.workflow.id}/${module}`, timeit: (now - t) / 1000, ...extra };
      t = now;
      return emit({ step: s, operation: 0 });
    };
    yield emit({ operation: 2 });
    if (p.req.operation === 1) {
      yield emit({ operation: 1 });
      return;
    }
    const { req, workflow } = p;
    const history: ChatTurn[] = req.chat_history ?? p.session?.history ?? [];
    const wire: ChatMessage[] = history.flatMap((h) => [
      { author: "USER" as const, text: h.question },
      { author: "NUCLIA" as const, text: h.answer },
    ]);

    // Preprocess: rephrase the question with the conversation.
    const pre = workflow.modules.preprocess;
    let query = req.question;
    if (history.length) {
      const mod = pre.find((m) => m.module === "rephrase");
      const gen = mod?.model
        ? boxGenerator(p.agent.kb, mod.model, this.generation, { untrusted: false, loc: "model", input: mod.model })
        : p.generator;
      if (mod && gen.kind !== "extractive") {
        query = await modelRephrase(gen, mod.prompt ?? undefined, req.question, wire, p.signal).catch(() => req.question);
        yield step("rephrase", "Rephrase", query, {
          reason: `the model ${gen.id} rewrote the question with ${history.length} earlier turns`,
        });
      } else if (shouldRephrase(req.question, wire, true, null)) {
        query = rephraseQuery(req.question, wire);
        yield step("rephrase", "Rephrase", query, {
          reason: `the question leans on ${history.length} earlier turns: their words join the query`,
        });
      } else yield step("rephrase", "Rephrase", query, { reason: "the question stands on its own" });
    }
    for (const m of pre.filter((x) => x.module !== "rephrase" && x.module !== "historical"))
      yield step(m.module, m.title ?? m.module, "skipped", { reason: `kbox does not run the ${m.module} module` });

    // Plan: which drivers to query.
    const chosen = this.plan(p, workflow.modules.context);
    const topK = workflow.modules.context.find((m) => m.top_k)?.top_k ?? undefined;
    yield step("plan", "Plan", `query ${chosen.map((d) => d.name).join(", ")} for "${query}"`, {
      reason: workflow.modules.context.some((m) => m.sources?.length)
        ? "the workflow's context modules name these drivers"
        : "no context module narrows the sources: every driver is queried",
    });

    // Retrieve from each driver, in parallel.
    const found = await Promise.all(
      chosen.map(async (d) => {
        const t0 = performance.now();
        try {
          const chunks = await this.retriever.retrieve(AgentConfigService.target(d.config), query, { topK, signal: p.signal });
          return { d, chunks, secs: (performance.now() - t0) / 1000 };
        } catch (e) {
          return { d, chunks: [] as Chunk[], secs: (performance.now() - t0) / 1000, error: (e as Error).message };
        }
      }),
    );
    for (const f of found) {
      yield step("retrieve", f.d.name, `${f.chunks.length} paragraphs`, {
        timeit: f.secs,
        ...(f.error ? { error: f.error } : {}),
        reason: `${f.d.provider} driver ${f.d.identifier}`,
      });
      yield emit({
        context: {
          id: f.d.id,
          agent: f.d.identifier,
          title: f.d.name,
          source: f.d.provider,
          question: query,
          chunks: f.chunks.map((c) => ({ id: c.id, rid: c.rid, text: c.text, title: c.title ?? null })),
          missing: f.chunks.length === 0,
        },
        operation: 0,
      });
    }

    // Validate: keep paragraphs that share a word with the question as asked or as searched; interleave sources.
    const want = new Set([...terms(query), ...terms(req.question)]);
    const ranked: Chunk[] = [];
    for (let rank = 0; rank < Math.max(0, ...found.map((f) => f.chunks.length)); rank++)
      for (const f of found) if (f.chunks[rank]) ranked.push(f.chunks[rank]);
    const sharing = ranked.filter((c) => terms(`${c.title ?? ""} ${c.text}`).some((x) => want.has(x)));
    // Nothing shares a word (a semantic match in other words): keep what retrieval ranked.
    const kept = sharing.length ? sharing : ranked;
    const total = ranked.length;
    const pieces = kept.map((c) => ({ id: c.id, text: c.text, title: c.title }));
    const ev = evidence(req.question, pieces);
    yield step("validate", "Validate", `${kept.length} of ${total} paragraphs kept`, {
      reason: ev.missing.length ? `not found in any source: ${ev.missing.join(", ")}` : "the context covers the question's terms",
    });

    // Generate.
    const gm = workflow.modules.generation.find((m) => m.module === "generate" || m.module === "summarize");
    const system = [await this.systemPrompt(p, gm), this.rulesText(workflow)].filter(Boolean).join("\n\n");
    const messages: GenMessage[] = [
      { role: "system", content: system },
      ...wire.map((m): GenMessage => ({ role: m.author === "USER" ? "user" : "assistant", content: m.text })),
      { role: "user", content: `Context:\n${renderContext(pieces)}\n\nQuestion: ${req.question}` },
    ];
    const extractive = p.generator.kind === "extractive";
    let answer = "";
    if (pieces.length) {
      try {
        for await (const c of p.generator.generate({
          messages,
          question: req.question,
          retrievalQuery: query === req.question ? undefined : query,
          context: pieces,
          signal: p.signal,
        })) {
          if (c.type !== "text") continue;
          answer += c.text;
          if (req.streaming) yield emit({ generated_text: c.text, operation: 0 });
        }
      } catch (e) {
        yield step("generate", "Generate", "failed", { error: (e as Error).message });
        yield emit({ exception: { detail: `generation failed: ${(e as Error).message}` }, operation: 4 });
        return;
      }
    } else answer = NO_ANSWER;
    yield step("generate", "Generate", p.generator.id, {
      reason: extractive
        ? "no generative model is configured: the extractive answerer composed the answer from the retrieved sentences"
        : `generated by ${p.generator.id} from ${pieces.length} paragraphs`,
    });
    const cites = alignCitations(answer, pieces, DEFAULT_CITATION_THRESHOLD);
    const driverOf = new Map(found.flatMap((f) => f.chunks.map((c) => [c.id, f.d.identifier] as const)));
    const metadata = Object.fromEntries(
      Object.keys(cites).map((id) => [
        id,
        { chunk_index: pieces.findIndex((x) => x.id === id), context_id: driverOf.get(id), origin_urls: [] },
      ]),
    );
    yield emit({ answer, answer_citations: { metadata }, operation: 0 });
    for (const m of workflow.modules.postprocess)
      yield step(m.module, m.title ?? m.module, "skipped", { reason: `kbox does not run the ${m.module} module` });

    // Remember.
    const at = new Date().toISOString();
    if (p.session)
      await SessionService.remember(p.agent, p.session.id, {
        question: req.question,
        answer,
        at,
        workflow_id: workflow.id,
        rephrased: query,
      });
    await p.agent.interactions.put(qid, {
      id: qid,
      session_id: p.session?.id ?? EPHEMERAL,
      workflow_id: workflow.id,
      question: req.question,
      rephrased: query,
      answer,
      drivers: chosen.map((d) => d.identifier),
      generator: p.generator.id,
      at,
      seconds: (performance.now() - started) / 1000,
      who: p.who,
    });
    yield emit({ operation: 3 });
  }

  /** The drivers the context modules name (by id or identifier), else all. */
  private plan(p: Prepared, context: ModuleDoc[]): Prepared["drivers"] {
    const named = new Set(context.flatMap((m) => m.sources ?? []));
    if (!named.size) return p.drivers;
    const picked = p.drivers.filter((d) => named.has(d.id) || named.has(d.identifier));
    return picked.length ? picked : p.drivers;
  }

  private async systemPrompt(p: Prepared, gm: ModuleDoc | undefined): Promise<string> {
    if (gm?.prompt_id) {
      const stored = p.agent.prompts.get(gm.prompt_id);
      if (stored) return stored.prompt;
    }
    return gm?.prompt ?? SYSTEM;
  }

  private rulesText(w: WorkflowDoc): string {
    const rules = w.ruleList.map((r) => (typeof r === "string" ? r : r.prompt)).filter(Boolean);
    return rules.length ? `Follow these rules:\n${rules.map((r) => `- ${r}`).join("\n")}` : "";
  }
}
