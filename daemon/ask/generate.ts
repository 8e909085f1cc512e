import type { AskItem } from "../../src/api/ask.js";
import { NO_ANSWER } from "../models/generate/extractive.js";
import { approxTokens, type GenChunk, type GenerateRequest } from "../models/generate/types.js";
import { alignCitations, DEFAULT_CITATION_THRESHOLD, footnoteMap } from "./citations.js";
import type { BuiltContext } from "./context.js";
import { saysNotInContext } from "./evidence.js";
import { genInfo, retrievalItem } from "./items.js";
import type { Retrieval } from "./retrieve.js";
import type { PreparedAsk } from "./types.js";

interface GenerationInput {
  prepared: PreparedAsk;
  retrieval: Retrieval;
  context: BuiltContext;
  request: GenerateRequest;
  retrievalMs: number;
  /** The evidence score of the context (debug output). */
  evidence?: number;
  /** The evidence is too weak: answer "Not enough data" (status no_context) without running the model. */
  abstain?: boolean;
}

/** What a generator says when the documents do not answer the question. */
async function* abstention(): AsyncIterable<GenChunk> {
  yield { type: "text", text: NO_ANSWER };
  yield { type: "usage", input: 0, output: approxTokens(NO_ANSWER) };
}

/** Run the generator and emit the answer items, then the closing items in the wire's order. */
export async function* generateItems(g: GenerationInput): AsyncGenerator<AskItem> {
  const { prepared: p, request: req } = g;
  const start = performance.now();
  let first: number | undefined;
  let answer = "";
  let reasoning = "";
  let object: Record<string, unknown> | undefined;
  let usage: { input: number; output: number } | undefined;
  try {
    for await (const c of g.abstain ? abstention() : p.generator.generate(req)) {
      if (p.opts.signal?.aborted) return;
      first ??= performance.now();
      if (c.type === "text") {
        answer += c.text;
        yield { type: "answer", text: c.text };
      } else if (c.type === "reasoning") {
        reasoning += c.text;
        yield { type: "reasoning", text: c.text };
      } else if (c.type === "json") object = c.object;
      else if (c.type === "usage") usage = { input: c.input, output: c.output };
    }
  } catch (e) {
    if (p.opts.signal?.aborted) return;
    const msg = (e as Error).message;
    yield { type: "error", error: msg };
    yield retrievalItem(g.retrieval.main);
    if (g.retrieval.prequeries) yield { type: "prequeries", results: g.retrieval.prequeries };
    yield { type: "status", code: "-1", status: "error", details: msg };
    return;
  }
  if (p.opts.signal?.aborted) return;
  const total = performance.now();
  if (object) yield { type: "answer_json", object };
  yield retrievalItem(g.retrieval.main);
  if (g.retrieval.prequeries) yield { type: "prequeries", results: g.retrieval.prequeries };
  const noContext = !object && saysNotInContext(answer);
  yield noContext ? { type: "status", code: "-2", status: "no_context" } : { type: "status", code: "0", status: "success" };
  yield { type: "augmented_context", augmented: g.context.augmented };
  yield* citationItems(g, answer, noContext);
  const tokens = usage ?? {
    input: req.messages.reduce((a, m) => a + approxTokens(m.content), 0),
    output: approxTokens(answer || JSON.stringify(object ?? "")),
  };
  const timings = { generative_first_chunk: secs((first ?? total) - start), generative_total: secs(total - start) };
  yield {
    type: "metadata",
    tokens: { ...tokens, input_nuclia: tokens.input, output_nuclia: tokens.output },
    timings,
    generator: genInfo(p.generator),
  };
  if (p.opts.showConsumption) {
    const none = { input: 0, output: 0, image: 0 };
    yield { type: "consumption", normalized_tokens: { ...tokens, image: 0 }, customer_key_tokens: none };
  }
  if (p.body.debug) {
    yield {
      type: "debug",
      metadata: {
        prompt_context: g.context.pieces.map((c) => c.text),
        predict_request: { messages: req.messages, max_tokens: req.maxTokens ?? null, seed: req.seed ?? null },
        rephrased_query: g.retrieval.main.rephrased_query,
        context_tokens: g.context.tokens,
        context_truncated: g.context.truncated,
        generator: genInfo(p.generator),
        audit_metadata: p.body.audit_metadata ?? null,
        timings: { retrieval: secs(g.retrievalMs), ...timings },
        evidence: g.evidence,
        reasoning: reasoning || undefined,
      },
    };
  }
}

function* citationItems(g: GenerationInput, answer: string, noContext: boolean): Generator<AskItem> {
  const mode = g.prepared.body.citations;
  if (mode === "llm_footnotes") {
    yield { type: "footnote_citations", footnote_to_context: footnoteMap(answer, g.context.pieces) };
    return;
  }
  if (mode === true || mode === "default") {
    const threshold = g.prepared.body.citation_threshold ?? DEFAULT_CITATION_THRESHOLD;
    yield { type: "citations", citations: noContext ? {} : alignCitations(answer, g.context.pieces, threshold) };
  }
}

const secs = (ms: number) => Math.round(ms) / 1000;
