/**
 * Evaluating content against guardrail policies: with a generative model when one is configured (the
 * model reads the policy and answers VIOLATION or SAFE with a confidence), and otherwise with an
 * honest offline classifier: a policy's trigger terms (the phrases it quotes, else the comma-separated
 * items of its query) found in the content, matched whole-word and case-insensitively.
 */
import type { Generator } from "../models/generate/types.js";
import type { GuardrailPolicyDoc } from "../store/index.js";

/** The score from which content is flagged. */
export const THRESHOLD = 0.5;

export interface PolicyVerdict {
  policy_id: string;
  name: string;
  flagged: boolean;
  score: number;
  threshold: number;
  blocking: boolean;
  /** `model:<id>` or `offline:trigger-terms`. */
  method: string;
  /** What matched (offline) or the model's answer. */
  reason: string;
  /** The evaluation failed: a blocking policy then blocks, a monitoring one only reports. */
  error?: string;
}

export type PolicyLike = Pick<GuardrailPolicyDoc, "id" | "name" | "instruction" | "query" | "blocking">;

/** The quoted phrases of a text ("…", “…” or '…'). */
function quoted(text: string): string[] {
  return [...text.matchAll(/["“']([^"”']{2,200})["”']/g)].map((m) => m[1].trim()).filter(Boolean);
}

/** A policy's trigger terms for the offline classifier. */
export function triggerTerms(p: Pick<PolicyLike, "instruction" | "query">): string[] {
  const q = [...quoted(p.instruction), ...quoted(p.query)];
  if (q.length) return [...new Set(q.map((t) => t.toLowerCase()))];
  return [
    ...new Set(
      p.query
        .split(/[,;\n]/)
        .map((t) =>
          t
            .trim()
            .replace(/[?.!]+$/, "")
            .toLowerCase(),
        )
        .filter((t) => t.length > 1),
    ),
  ];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A term without a plural s (not "ss"), so that the singular and the plural both match. */
export const singular = (t: string) => (t.length > 3 && /[^s]s$/i.test(t) ? t.slice(0, -1) : t);

/** Offline: flagged when the content holds a trigger term (whole words; a plural s/es also counts). */
export function offlineVerdict(content: string, p: PolicyLike): PolicyVerdict {
  const hits = triggerTerms(p).filter((t) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(singular(t))}(e?s)?($|[^\\p{L}\\p{N}])`, "iu").test(content),
  );
  return {
    policy_id: p.id,
    name: p.name,
    flagged: hits.length > 0,
    score: hits.length ? 1 : 0,
    threshold: THRESHOLD,
    blocking: p.blocking,
    method: "offline:trigger-terms",
    reason: hits.length ? `matched ${hits.map((h) => JSON.stringify(h)).join(", ")}` : "no trigger term found",
  };
}

/** With a model: it answers VIOLATION or SAFE and a confidence; a failure is reported, never thrown. */
export async function modelVerdict(content: string, p: PolicyLike, gen: Generator, signal?: AbortSignal): Promise<PolicyVerdict> {
  const base = { policy_id: p.id, name: p.name, threshold: THRESHOLD, blocking: p.blocking, method: `model:${gen.id}` };
  const messages = [
    {
      role: "system" as const,
      content: `You enforce a content policy.\n\nPolicy "${p.name}":\n${p.instruction}\n\nAnswer with one word, VIOLATION or SAFE, then a confidence between 0 and 1.`,
    },
    { role: "user" as const, content: `${p.query}\n\nContent:\n${content}` },
  ];
  try {
    let text = "";
    for await (const c of gen.generate({ messages, question: p.query, context: [], maxTokens: 20, signal }))
      if (c.type === "text") text += c.text;
    const flaggedWord = /\bVIOLATION\b/i.test(text) || /^\s*(yes|unsafe)\b/i.test(text);
    const num = /\b(0(?:\.\d+)?|1(?:\.0+)?)\b/.exec(text.replace(/VIOLATION|SAFE/gi, ""));
    // The confidence is in the answer given: a confident SAFE is a low violation score.
    const confidence = num ? Number(num[1]) : 1;
    const score = flaggedWord ? confidence : 1 - confidence;
    return { ...base, flagged: flaggedWord && score >= THRESHOLD, score, reason: text.trim().slice(0, 200) };
  } catch (e) {
    const msg = (e as Error).message;
    return { ...base, flagged: p.blocking, score: p.blocking ? 1 : 0, reason: "evaluation failed", error: msg };
  }
}

/** Evaluate content against policies: with the generator when one is given (not the extractive one), offline otherwise. */
export async function evaluate(
  content: string,
  policies: PolicyLike[],
  gen?: Generator,
  signal?: AbortSignal,
): Promise<PolicyVerdict[]> {
  const model = gen && gen.kind !== "extractive" ? gen : undefined;
  const out: PolicyVerdict[] = [];
  for (const p of policies) out.push(model ? await modelVerdict(content, p, model, signal) : offlineVerdict(content, p));
  return out;
}
