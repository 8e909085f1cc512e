import { randomUUID } from "node:crypto";
import type { ChatCompletionBody, PredictChatBody, PredictChatTurn } from "../../src/api/predict.js";
import { badRequest, invalid, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { type GeneratorSettings, listedModels, ModelNameError, resolveGenerator } from "../models/generate/registry.js";
import { terms } from "../models/generate/text.js";
import {
  approxTokens,
  type ChatMessage,
  type ContextPiece,
  type GenerateRequest,
  type Generator,
  TOOL_CALLING,
  type ToolChoice,
} from "../models/generate/types.js";
import type { Embedder } from "../models/types.js";
import { contextScores } from "./predict-extras.js";
import { renderContext } from "./prompt.js";
import { modelRephrase } from "./rephrase.js";

/** What Predict Sentences needs of the model service. */
export interface SentenceModels {
  embedderFor(kb: string): Promise<Embedder | undefined>;
  embedder(ref?: string): Promise<Embedder | undefined>;
}

const flatten = (c: ChatCompletionBody["messages"][number]["content"]): string =>
  typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p.text ?? "").join("") : "";

/** Split a rendered prompt's context back into pieces (so the extractive answerer can serve chat completions). */
export function piecesOf(text: string): ContextPiece[] {
  return text
    .split(/\n\s*\n/)
    .map((t, i) => {
      const m = /^\[(block-[A-Z]{2})\]\s+/.exec(t);
      return { id: `context/${i}`, text: m ? t.slice(m[0].length).trim() : t.trim(), block: m?.[1] };
    })
    .filter((p) => p.text);
}

/** A Predict Chat history turn as a chat message (assistant turns keep their tool calls, tool turns their call id). */
function turnOf(m: PredictChatTurn): ChatMessage {
  if ("tool_call_id" in m) return { role: "tool", content: m.content, tool_call_id: m.tool_call_id, name: m.name ?? undefined };
  if ("tool_calls" in m) {
    const calls = m.tool_calls;
    return { role: "assistant", content: m.content ?? m.text ?? "", ...(calls.length ? { tool_calls: calls } : {}) };
  }
  const t = m as { author: string; text: string };
  return { role: t.author === "USER" ? "user" : "assistant", content: t.text };
}

/**
 * Tools reach only generators that call them (OpenAI-compatible endpoints). Another model cannot honour a
 * `required` or `forced` choice: 400 saying why; with `auto` it answers in text (a model may always choose
 * not to call), and `none` is what it does anyway.
 */
export function checkTools(g: Generator, req: GenerateRequest): void {
  if (!req.tools?.length || TOOL_CALLING.includes(g.kind)) return;
  const choice = req.toolChoice?.type ?? "auto";
  if (choice === "required" || choice === "forced")
    throw badRequest(
      `The ${g.kind} model ${g.id} cannot call tools (tool_choice ${choice}): only OpenAI-compatible models (openai:<model> with an endpoint) call tools in kbox`,
    );
  req.tools = undefined;
  req.toolChoice = undefined;
}

/** OpenAI's `tool_choice` as a tool choice. */
function choiceOf(c: ChatCompletionBody["tool_choice"]): ToolChoice | undefined {
  if (!c) return undefined;
  if (typeof c === "string") return { type: c };
  return { type: "forced", name: c.function.name };
}

/** The question and context of an OpenAI-style conversation: kbox's own prompt layout, else the last user turn. */
export function questionAndContext(messages: ChatMessage[]): { question: string; context: ContextPiece[] } {
  const last = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const m = /Context:\n([\s\S]*)\n\nQuestion:\s*([\s\S]*?)(?:\nAnswer:\s*)?$/.exec(last);
  if (m) return { question: m[2].trim(), context: piecesOf(m[1]) };
  const others = messages.filter((x) => x.role === "system" || (x.role === "user" && x.content !== last)).map((x) => x.content);
  return { question: last, context: piecesOf(others.join("\n\n")) };
}

/** The local understanding API: chat (Predict Chat, Chat Completions), sentences, query analysis, models. */
export class PredictService {
  constructor(
    private readonly kbs: KbService,
    private readonly models: SentenceModels,
    private readonly generation: GeneratorSettings,
  ) {}

  /** The generator for a model name (the KB's model when a kbid is given and no name is). */
  generator(model: string | null | undefined, kbid?: string, untrusted = true, loc: string[] = ["body", "model"]): Generator {
    const lc = kbid ? this.kbs.require(kbid, "Knowledge Box not found").learning_configuration : undefined;
    const name = !model || model === "default" || model === "kbox" ? (lc?.generative_model ?? undefined) : model;
    try {
      return resolveGenerator(name, {
        userKeys: lc?.user_keys as Record<string, unknown>,
        settings: this.generation,
        configured: lc?.generative_model,
        untrusted,
      });
    } catch (e) {
      if (e instanceof ModelNameError) throw invalid([{ type: "value_error", loc, msg: e.message, input: model }]);
      throw e;
    }
  }

  /** A generation request from an OpenAI chat-completions body. */
  completionRequest(body: ChatCompletionBody, maxHeader: number | undefined, signal: AbortSignal): GenerateRequest {
    const messages: ChatMessage[] = body.messages.map((m) => {
      if (m.role === "tool")
        return { role: "tool", content: flatten(m.content), tool_call_id: String(m.tool_call_id ?? ""), name: m.name as string };
      const role = m.role === "system" || m.role === "developer" ? "system" : m.role === "assistant" ? "assistant" : "user";
      const calls = Array.isArray(m.tool_calls) && m.tool_calls.length ? { tool_calls: m.tool_calls } : {};
      return { role, content: flatten(m.content), ...calls } as ChatMessage;
    });
    const { question, context } = questionAndContext(messages);
    const rf = body.response_format;
    const schema =
      rf?.type === "json_schema" && rf.json_schema
        ? { name: rf.json_schema.name, description: rf.json_schema.description, parameters: rf.json_schema.schema ?? {} }
        : undefined;
    return {
      messages,
      question,
      context,
      maxTokens: maxHeader ?? body.max_completion_tokens ?? body.max_tokens ?? undefined,
      seed: body.seed ?? undefined,
      jsonSchema: schema,
      reasoning: body.reasoning_effort ? true : undefined,
      tools: body.tools?.map((t) => ({
        name: t.function.name,
        description: t.function.description ?? undefined,
        parameters: t.function.parameters ?? { type: "object", properties: {} },
      })),
      toolChoice: choiceOf(body.tool_choice),
      footnotes: context.some((c) => c.block),
      signal,
    };
  }

  /** A generation request from a Predict Chat body. */
  chatRequest(body: PredictChatBody, signal: AbortSignal): GenerateRequest {
    const qc = body.query_context ?? [];
    const entries = Array.isArray(qc) ? qc.map((t, i) => [`context/${i}`, t] as const) : Object.entries(qc);
    const order = body.query_context_order ?? {};
    entries.sort((a, b) => (order[a[0]] ?? 0) - (order[b[0]] ?? 0));
    // rerank_context: the passages that match the question best come first (a stable sort keeps ties in order).
    if (body.rerank_context) {
      const scores = contextScores(body.question, entries);
      entries.sort((a, b) => scores[b[0]] - scores[a[0]]);
    }
    const footnotes = body.citations === "llm_footnotes";
    const context: ContextPiece[] = entries.map(([id, text], i) => ({
      id,
      text,
      block: footnotes
        ? `block-${"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[Math.floor(i / 26) % 26]}${"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i % 26]}`
        : undefined,
    }));
    const history = (body.chat_history ?? body.context ?? []).map(turnOf);
    const system = body.system ?? "Answer the question using only the given context.";
    const user =
      body.user_prompt && body.format_prompt === false
        ? body.user_prompt.prompt
        : (body.user_prompt?.prompt ?? "Context:\n{context}\n\nQuestion: {question}\nAnswer:")
            .replace("{context}", renderContext(context))
            .replace("{question}", body.question);
    return {
      messages: [{ role: "system", content: system }, ...history, { role: "user", content: user }],
      question: body.question,
      context,
      maxTokens: body.max_tokens ?? undefined,
      seed: body.seed ?? undefined,
      jsonSchema: body.json_schema ? { ...body.json_schema, description: body.json_schema.description ?? undefined } : undefined,
      reasoning: body.reasoning ? true : undefined,
      tools: body.tools?.map((t) => ({ name: t.name, description: t.description ?? undefined, parameters: t.parameters })),
      toolChoice: body.tool_choice ? { type: body.tool_choice.type, name: body.tool_choice.name ?? undefined } : undefined,
      footnotes,
      signal,
    };
  }

  /** Embeddings with the KB's embedder (kbid) or the daemon's named/default one. */
  async sentences(
    input: string | string[],
    model?: string | null,
    kbid?: string,
  ): Promise<{ model: string; vectors: Float32Array[]; tokens: number }> {
    const texts = Array.isArray(input) ? input : [input];
    if (kbid) this.kbs.require(kbid, "Knowledge Box not found");
    const embedder = kbid ? await this.models.embedderFor(kbid) : await this.models.embedder(model ?? undefined);
    if (!embedder)
      throw notFound(
        model ? `Embedding model ${model} is not installed` : "No embedding model is installed: run `kbox models pull`",
      );
    const vectors = await embedder.embed(texts, "passage");
    return { model: embedder.id, vectors, tokens: texts.reduce((a, t) => a + approxTokens(t), 0) };
  }

  /** Query analysis: language, stop words removed, the sentence vector when an embedder is available. */
  async query(text: string, kbid?: string): Promise<Record<string, unknown>> {
    if (kbid) this.kbs.require(kbid, "Knowledge Box not found");
    const embedder = await Promise.resolve(kbid ? this.models.embedderFor(kbid) : this.models.embedder()).catch(() => undefined);
    const t0 = performance.now();
    const vector = embedder && text ? Array.from((await embedder.embed([text], "query"))[0]) : [];
    return {
      language: /[^\u0000-\u024f]/.test(text) ? null : "en",
      stop_words: text.split(/\s+/).filter((w) => w && !terms(w).length),
      semantic_threshold: 0,
      semantic_thresholds: {},
      visual_llm: false,
      max_context: 12_000,
      entities: { tokens: [], time: 0 },
      sentence: embedder ? { data: vector, time: (performance.now() - t0) / 1000, model: embedder.id } : null,
      sentences: {},
      graph_nodes: null,
      graph_edges: null,
      query: text,
      rephrased_query: "",
    };
  }

  /**
   * A query rephrased by a generative model with `prompt` ({question} marks where the query goes); the
   * extractive generator cannot rephrase, so the query comes back unchanged.
   */
  async rephrase(
    text: string,
    o: { prompt?: string; model?: string; kbid?: string; untrusted: boolean; signal?: AbortSignal },
  ): Promise<string> {
    const g = this.generator(o.model, o.kbid, o.untrusted, ["body", "generative_model"]);
    if (g.kind === "extractive" || !text) return text;
    return modelRephrase(g, o.prompt, text, [], o.signal);
  }

  /** Models this daemon can run: generators and installed embedders. */
  listModels(): { id: string; name: string; title: string; description: string; model_type: "GENERATIVE" | "EMBEDDING" }[] {
    return listedModels(this.generation).map((m) => ({ ...m, name: m.id, model_type: "GENERATIVE" as const }));
  }

  /** The id of a chat completion. */
  static completionId(): string {
    return `chatcmpl-${randomUUID().replace(/-/g, "")}`;
  }

  defaultModel(): string {
    return this.generation.defaultModel;
  }
}
