import type { PredictChatBody } from "../../src/api/predict.js";
import { terms } from "../models/generate/text.js";
import type { ContextPiece } from "../models/generate/types.js";
import { alignCitations, DEFAULT_CITATION_THRESHOLD, footnoteMap } from "./citations.js";

/**
 * rerank_context: how well each context passage matches the question, 0..1 (the share of the
 * question's content terms the passage holds), by context id.
 */
export function contextScores(question: string, entries: readonly (readonly [string, string])[]): Record<string, number> {
  const q = [...new Set(terms(question))];
  const out: Record<string, number> = {};
  for (const [id, text] of entries) {
    const have = new Set(terms(text));
    out[id] = q.length ? Math.round((q.filter((t) => have.has(t)).length / q.length) * 1000) / 1000 : 0;
  }
  return out;
}

/**
 * Predict Chat's citations of an answer: `default` (or true) aligns answer sentences to the context
 * passages that support them (context id → answer spans); `llm_footnotes` maps the footnotes the
 * answer uses to their passages. undefined when the body asks for none.
 */
export function chatCitations(
  body: Pick<PredictChatBody, "citations" | "citation_threshold">,
  answer: string,
  pieces: ContextPiece[],
):
  | { type: "citations"; citations: Record<string, [number, number][]> }
  | { type: "footnote_citations"; footnote_to_context: Record<string, string> }
  | undefined {
  const c = body.citations;
  if (c === "llm_footnotes") return { type: "footnote_citations", footnote_to_context: footnoteMap(answer, pieces) };
  if (c !== true && c !== "default") return undefined;
  // alignCitations cites paragraph ids only: give each passage one, then map back to the caller's ids.
  const ids = pieces.map((_, i) => `${i.toString(16).padStart(32, "0")}/ctx`);
  const aligned = alignCitations(
    answer,
    pieces.map((p, i) => ({ ...p, id: ids[i] })),
    body.citation_threshold ?? DEFAULT_CITATION_THRESHOLD,
  );
  const citations: Record<string, [number, number][]> = {};
  for (const [id, spans] of Object.entries(aligned)) citations[pieces[ids.indexOf(id)].id] = spans;
  return { type: "citations", citations };
}
