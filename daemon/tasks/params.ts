import { invalid } from "../errors.js";

/** A 422 located under body.parameters. */
export function badParam(path: (string | number)[], msg: string, input: unknown): never {
  throw invalid([{ type: "value_error", loc: ["body", "parameters", ...path], msg, input }]);
}

/** The operations of a data-augmentation task's parameters, with the one named `kind` (e.g. `label`, `qa`, `ask`). */
export function operation<T>(params: Record<string, unknown>, kind: string): T | undefined {
  const ops = params.operations;
  if (ops !== undefined && !Array.isArray(ops)) badParam(["operations"], "operations must be an array", ops);
  for (const op of (ops ?? []) as Record<string, unknown>[]) if (op && typeof op === "object" && op[kind]) return op[kind] as T;
  return undefined;
}

/** The model a task's parameters name (`llm.model`), if any. */
export function modelOf(params: Record<string, unknown>): string | undefined {
  const llm = params.llm as { model?: unknown } | undefined;
  return typeof llm?.model === "string" && llm.model ? llm.model : undefined;
}

/** Words of a text, lower case (letters and digits). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether a text matches a keyword or example given by the user: a short one (up to three words) as a
 * whole-word phrase (a plural s/es counts), a longer one by sharing at least 60% of its words (3+ letters).
 */
export function matchesExample(text: string, example: string): boolean {
  const ex = words(example);
  if (!ex.length) return false;
  if (ex.length <= 3) {
    const last = ex.length - 1;
    const phrase = ex
      .map((w, i) => escapeRe(i === last && w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w))
      .join("[^\\p{L}\\p{N}]+");
    return new RegExp(`(^|[^\\p{L}\\p{N}])${phrase}(e?s)?($|[^\\p{L}\\p{N}])`, "iu").test(text);
  }
  const have = new Set(words(text));
  const content = ex.filter((w) => w.length >= 3);
  if (!content.length) return false;
  return content.filter((w) => have.has(w)).length / content.length >= 0.6;
}

/** A generator's whole text answer. */
export async function complete(
  gen: { generate(req: import("../models/generate/types.js").GenerateRequest): AsyncIterable<{ type: string; text?: string }> },
  system: string,
  user: string,
  signal?: AbortSignal,
  maxTokens = 400,
): Promise<string> {
  let out = "";
  const messages = [
    { role: "system" as const, content: system },
    { role: "user" as const, content: user },
  ];
  for await (const c of gen.generate({ messages, question: user, context: [], maxTokens, signal }))
    if (c.type === "text" && c.text) out += c.text;
  return out.trim();
}
