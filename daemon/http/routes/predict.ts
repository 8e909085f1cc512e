import type { Hono } from "hono";
import { BoolString } from "../../../src/api/common.js";
import * as api from "../../../src/api/predict.js";
import { PredictService } from "../../ask/predict.js";
import { notFound } from "../../errors.js";
import { approxTokens, type GenChunk, type GenerateRequest, type Generator } from "../../models/generate/types.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { type HandlerInput, mount } from "../mount.js";

const enc = new TextEncoder();

/** A Response streaming lines produced from a generator's chunks; the client leaving aborts generation. */
function streamed(type: string, lines: AsyncGenerator<string>, abort: AbortController): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const { value, done } = await lines.next();
      if (done) c.close();
      else c.enqueue(enc.encode(value));
    },
    async cancel() {
      abort.abort();
      await lines.return(undefined).catch(() => undefined);
    },
  });
  return new Response(body, { headers: { "Content-Type": type, "Cache-Control": "no-cache" } });
}

function aborter(signal: AbortSignal): AbortController {
  const ac = new AbortController();
  signal.addEventListener("abort", () => ac.abort(), { once: true });
  return ac;
}

/** Chat Completions as SSE: role first, content deltas, a usage chunk, then [DONE]; failures as an error event. */
async function* sse(g: Generator, req: GenerateRequest, model: string): AsyncGenerator<string> {
  const id = PredictService.completionId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  yield chunk({ role: "assistant", content: "" });
  let usage = { input: 0, output: 0 };
  try {
    for await (const c of g.generate(req)) {
      if (c.type === "text") yield chunk({ content: c.text });
      else if (c.type === "reasoning") yield chunk({ reasoning_content: c.text });
      else if (c.type === "json") yield chunk({ content: JSON.stringify(c.object) });
      else usage = c;
    }
  } catch (e) {
    yield `data: ${JSON.stringify({ error: { message: (e as Error).message, type: "generation_error" } })}\n\n`;
    return;
  }
  yield chunk({}, "stop");
  yield `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } })}\n\n`;
  yield "data: [DONE]\n\n";
}

/** Run a generation to the end. */
async function collect(g: Generator, req: GenerateRequest) {
  let text = "";
  let reasoning = "";
  let object: Record<string, unknown> | undefined;
  let usage = { input: 0, output: 0 };
  for await (const c of g.generate(req)) {
    if (c.type === "text") text += c.text;
    else if (c.type === "reasoning") reasoning += c.text;
    else if (c.type === "json") object = c.object;
    else usage = c;
  }
  if (!usage.output) usage = { input: req.messages.reduce((a, m) => a + approxTokens(m.content), 0), output: approxTokens(text) };
  return { text, reasoning, object, usage };
}

/** Predict Chat's NDJSON: `{"chunk": {...}}` text/reasoning/object, then meta and status. */
async function* predictLines(g: Generator, req: GenerateRequest): AsyncGenerator<string> {
  const line = (chunk: Record<string, unknown>) => `${JSON.stringify({ chunk })}\n`;
  const t0 = performance.now();
  let first: number | undefined;
  let usage: GenChunk | undefined;
  try {
    for await (const c of g.generate(req)) {
      first ??= performance.now();
      if (c.type === "text" || c.type === "reasoning") yield line({ type: c.type, text: c.text });
      else if (c.type === "json") yield line({ type: "object", object: c.object });
      else usage = c;
    }
  } catch (e) {
    yield line({ type: "status", code: "-1", details: (e as Error).message });
    return;
  }
  const u = usage?.type === "usage" ? usage : { input: 0, output: 0 };
  const timings = {
    generative_first_chunk: ((first ?? performance.now()) - t0) / 1000,
    generative: (performance.now() - t0) / 1000,
  };
  yield line({ type: "meta", input_tokens: u.input, output_tokens: u.output, timings });
  yield line({ type: "status", code: "0" });
}

/** The understanding API served locally (hosted paths, plus /v1/* for plain OpenAI clients). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const predict = new PredictService(s.kbs, s.models, s.settings.generation);
  const completions = async ({ body, req, signal }: HandlerInput<typeof api.chatCompletions>) => {
    const g = predict.generator(body.model);
    const maxHeader =
      Number(req.headers.get("x-understanding-max-output-tokens") ?? req.headers.get("x-nua-max-output-tokens")) || undefined;
    const abort = aborter(signal);
    const gr = predict.completionRequest(body, maxHeader, abort.signal);
    const model = body.model || g.id;
    if (body.stream) return streamed("text/event-stream", sse(g, gr, model), abort);
    const r = await collect(g, gr);
    const content = r.object ? JSON.stringify(r.object) : r.text;
    return {
      id: PredictService.completionId(),
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content, ...(r.reasoning ? { reasoning_content: r.reasoning } : {}) },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: r.usage.input, completion_tokens: r.usage.output, total_tokens: r.usage.input + r.usage.output },
    };
  };
  // Registered before the /chat/:kbid form so that "completions" is not taken for a kbid.
  mount(app, api.chatCompletions, completions);
  mount(app, api.openaiChatCompletions, completions);

  const chat = async (i: HandlerInput<typeof api.predictChat>, kbid?: string) => {
    const g = predict.generator(i.body.generative_model ?? i.query.model, kbid);
    const abort = aborter(i.signal);
    const gr = predict.chatRequest(i.body, abort.signal);
    if (BoolString.safeParse(i.req.headers.get("x-synchronous") ?? "false").data !== true)
      return streamed("application/x-ndjson", predictLines(g, gr), abort);
    const r = await collect(g, gr);
    return {
      answer: r.text,
      reasoning: r.reasoning || null,
      object: r.object ?? null,
      status: "0",
      input_tokens: r.usage.input,
      output_tokens: r.usage.output,
    };
  };
  mount(app, api.predictChat, (i) => chat(i));
  mount(app, api.predictChatKb, (i) => chat(i as never, i.params.kbid));

  const sentences = async (body: { input: string | string[]; model?: string | null }, kbid?: string) => {
    const r = await predict.sentences(body.input, body.model, kbid);
    return {
      object: "list" as const,
      data: r.vectors.map((v, index) => ({ object: "embedding" as const, embedding: Array.from(v), index })),
      model: r.model,
      usage: { prompt_tokens: r.tokens, total_tokens: r.tokens },
    };
  };
  mount(app, api.predictSentences, (i) => sentences(i.body));
  mount(app, api.openaiEmbeddings, (i) => sentences(i.body));
  mount(app, api.predictSentencesKb, (i) => sentences(i.body, i.params.kbid));

  mount(app, api.predictQuery, (i) => predict.query(i.body.text ?? ""));
  mount(app, api.predictQueryKb, (i) => predict.query(i.body.text ?? "", i.params.kbid));
  mount(app, api.predictQueryGet, (i) => predict.query(String(i.query.text ?? "")));

  const created = Math.floor(Date.now() / 1000);
  const info = (m: ReturnType<PredictService["listModels"]>[number]) => ({
    ...m,
    created,
    max_input_tokens: 12_000,
    max_output_tokens: 4096,
  });
  const list = async () => ({
    object: "list" as const,
    data: predict.listModels().map((m) => ({ ...info(m), object: "model" as const, owned_by: "kbox" })),
    has_more: false,
  });
  mount(app, api.listModels, list);
  mount(app, api.openaiModels, list);
  mount(app, api.getModel, async ({ params }) => {
    const m = predict.listModels().find((x) => x.id === params.model_id);
    if (!m) throw notFound(`Model ${params.model_id} not found`);
    return info(m);
  });
}
