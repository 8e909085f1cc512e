/**
 * The understanding API's answers in their wire shapes: Chat Completions (a JSON completion, or
 * `chat.completion.chunk` items for the SSE encoder), Predict Chat (a JSON answer, or `{chunk}` items
 * for NDJSON), embeddings lists and model records. A failure mid-stream is thrown: the HTTP encoder
 * ends the stream with the route's error item.
 */
import type { ChatCompletionBody, PredictChatBody } from "../../src/api/predict.js";
import { notFound } from "../errors.js";
import { approxTokens, type GenChunk, type GenerateRequest, type Generator, type ToolCall } from "../models/generate/types.js";
import { checkTools, PredictService } from "./predict.js";
import { chatCitations, contextScores } from "./predict-extras.js";

/** A generation run to its end. */
async function collect(g: Generator, req: GenerateRequest) {
  let text = "";
  let reasoning = "";
  let object: Record<string, unknown> | undefined;
  let calls: ToolCall[] = [];
  let usage = { input: 0, output: 0 };
  for await (const c of g.generate(req)) {
    if (c.type === "text") text += c.text;
    else if (c.type === "reasoning") reasoning += c.text;
    else if (c.type === "json") object = c.object;
    else if (c.type === "tools") calls = c.calls;
    else usage = c;
  }
  if (!usage.output) usage = { input: req.messages.reduce((a, m) => a + approxTokens(m.content), 0), output: approxTokens(text) };
  return { text, reasoning, object, calls, usage };
}

/** Predict Chat's `tools` chunk: the calls by tool name, each in OpenAI's shape (as history turns send them back). */
function toolsByName(calls: ToolCall[]): Record<string, ToolCall[]> {
  const out: Record<string, ToolCall[]> = {};
  for (const c of calls) out[c.function.name] = [...(out[c.function.name] ?? []), c];
  return out;
}

/** Chat Completions chunks: the role first, content deltas, a stop chunk, then usage (the encoder adds `[DONE]`). */
async function* completionChunks(g: Generator, req: GenerateRequest, model: string): AsyncGenerator<object> {
  const id = PredictService.completionId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  yield chunk({ role: "assistant", content: "" });
  let usage = { input: 0, output: 0 };
  let finish = "stop";
  for await (const c of g.generate(req)) {
    if (c.type === "text") yield chunk({ content: c.text });
    else if (c.type === "reasoning") yield chunk({ reasoning_content: c.text });
    else if (c.type === "json") yield chunk({ content: JSON.stringify(c.object) });
    else if (c.type === "tools") {
      finish = "tool_calls";
      yield chunk({ tool_calls: c.calls.map((t, index) => ({ index, ...t })) });
    } else usage = c;
  }
  yield chunk({}, finish);
  const total = usage.input + usage.output;
  yield {
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: total },
  };
}

/** OpenAI Chat Completions: streamed chunks when the body asks `stream: true`, else one completion. */
export async function chatCompletion(
  predict: PredictService,
  body: ChatCompletionBody,
  maxTokens: number | undefined,
  signal: AbortSignal,
  untrusted = true,
): Promise<object | AsyncIterable<object>> {
  const g = predict.generator(body.model, undefined, untrusted);
  const req = predict.completionRequest(body, maxTokens, signal);
  checkTools(g, req);
  const model = body.model || g.id;
  if (body.stream) return completionChunks(g, req, model);
  const r = await collect(g, req);
  const content = r.object ? JSON.stringify(r.object) : r.text;
  return {
    id: PredictService.completionId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: r.calls.length && !content ? null : content,
          ...(r.reasoning ? { reasoning_content: r.reasoning } : {}),
          ...(r.calls.length ? { tool_calls: r.calls } : {}),
        },
        finish_reason: r.calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: r.usage.input, completion_tokens: r.usage.output, total_tokens: r.usage.input + r.usage.output },
  };
}

/** Predict Chat's NDJSON items: `{chunk}` text/reasoning/object, then meta and a success status. */
async function* chatChunks(
  g: Generator,
  req: GenerateRequest,
  body: PredictChatBody,
): AsyncGenerator<{ chunk: Record<string, unknown> }> {
  const t0 = performance.now();
  let first: number | undefined;
  let usage: GenChunk | undefined;
  let answer = "";
  if (body.rerank_context) yield { chunk: { type: "rerank", context_scores: scoresOf(body, req) } };
  for await (const c of g.generate(req)) {
    first ??= performance.now();
    if (c.type === "text") answer += c.text;
    if (c.type === "text" || c.type === "reasoning") yield { chunk: { type: c.type, text: c.text } };
    else if (c.type === "json") yield { chunk: { type: "object", object: c.object } };
    else if (c.type === "tools") yield { chunk: { type: "tools", tools: toolsByName(c.calls) } };
    else usage = c;
  }
  const u = usage?.type === "usage" ? usage : { input: 0, output: 0 };
  const timings = {
    generative_first_chunk: ((first ?? performance.now()) - t0) / 1000,
    generative: (performance.now() - t0) / 1000,
  };
  const cited = chatCitations(body, answer, req.context);
  if (cited) yield { chunk: cited };
  yield { chunk: { type: "meta", input_tokens: u.input, output_tokens: u.output, timings } };
  yield { chunk: { type: "status", code: "0" } };
}

/** Per-context scores of rerank_context, by the caller's context ids. */
function scoresOf(body: PredictChatBody, req: GenerateRequest): Record<string, number> {
  return contextScores(
    body.question,
    req.context.map((p) => [p.id, p.text]),
  );
}

/** Predict Chat: streamed chunks, or one JSON answer when `synchronous`. */
export async function predictChat(
  predict: PredictService,
  body: PredictChatBody,
  opts: { model?: string; kbid?: string; synchronous: boolean; signal: AbortSignal; untrusted?: boolean },
): Promise<object | AsyncIterable<object>> {
  const g = predict.generator(body.generative_model ?? opts.model, opts.kbid, opts.untrusted ?? true);
  const req = predict.chatRequest(body, opts.signal);
  checkTools(g, req);
  if (!opts.synchronous) return chatChunks(g, req, body);
  const r = await collect(g, req);
  const cited = chatCitations(body, r.text, req.context);
  return {
    answer: r.text,
    ...(body.rerank_context ? { context_scores: scoresOf(body, req) } : {}),
    ...(cited?.type === "citations" ? { citations: cited.citations } : {}),
    ...(cited?.type === "footnote_citations" ? { footnote_to_context: cited.footnote_to_context } : {}),
    reasoning: r.reasoning || null,
    object: r.object ?? null,
    ...(r.calls.length ? { tools: toolsByName(r.calls) } : {}),
    status: "0",
    input_tokens: r.usage.input,
    output_tokens: r.usage.output,
  };
}

/** Embeddings as an OpenAI list. */
export async function sentences(
  predict: PredictService,
  body: { input: string | string[]; model?: string | null },
  kbid?: string,
) {
  const r = await predict.sentences(body.input, body.model, kbid);
  return {
    object: "list" as const,
    data: r.vectors.map((v, index) => ({ object: "embedding" as const, embedding: Array.from(v), index })),
    model: r.model,
    usage: { prompt_tokens: r.tokens, total_tokens: r.tokens },
  };
}

/** Models are listed as "created" when the daemon started. */
const STARTED = Math.floor(Date.now() / 1000);

const modelInfo = (m: ReturnType<PredictService["listModels"]>[number]) => ({
  ...m,
  created: STARTED,
  max_input_tokens: 12_000,
  max_output_tokens: 4096,
});

/** The models this daemon can run, as an OpenAI list. */
export function modelList(predict: PredictService) {
  return {
    object: "list" as const,
    data: predict.listModels().map((m) => ({ ...modelInfo(m), object: "model" as const, owned_by: "kbox" })),
    has_more: false,
  };
}

/** One model's record; 404 when this daemon cannot run it. */
export function modelRecord(predict: PredictService, id: string) {
  const m = predict.listModels().find((x) => x.id === id);
  if (!m) throw notFound(`Model ${id} not found`);
  return modelInfo(m);
}
