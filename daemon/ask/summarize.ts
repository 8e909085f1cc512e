/**
 * Summaries of resources: extractive by default (the sentences that share the most words with the
 * whole text, in document order), generated when the knowledge box or the request names a model.
 */
import type { SummarizedResponse, SummarizeRequest } from "../../src/api/summarize.js";
import { KboxError } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { GeneratorSettings } from "../models/generate/registry.js";
import type { Generator } from "../models/generate/types.js";
import type { ResourceService } from "../resources/service.js";
import { boxGenerator } from "./generator.js";

const SENTENCES = { simple: 2, extended: 5 } as const;
const wordsOf = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []) as string[];
const tokensOf = (s: string) => (s.match(/\S+/g) ?? []).length;

/** The n sentences of a text closest to its word distribution, in their order. */
export function extractiveSummary(text: string, n: number): string {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => wordsOf(s).length > 0);
  const tf = new Map<string, number>();
  for (const w of wordsOf(text)) tf.set(w, (tf.get(w) ?? 0) + 1);
  const scored = sentences.map((s, i) => {
    const ws = new Set(wordsOf(s));
    let score = 0;
    for (const w of ws) score += tf.get(w) ?? 0;
    return { s, i, score: score / Math.sqrt(ws.size + 1) };
  });
  return scored
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, n)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s)
    .join(" ");
}

export class SummarizeService {
  constructor(
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    private readonly generation: GeneratorSettings,
  ) {}

  /** `untrusted`: a TCP caller, who may not point the daemon at a model endpoint or file (docs/security.md). */
  async summarize(
    kbid: string,
    body: SummarizeRequest,
    opts: { signal?: AbortSignal; untrusted?: boolean } = {},
  ): Promise<SummarizedResponse> {
    const { signal } = opts;
    const kb = this.kbs.require(kbid);
    const gen = boxGenerator(kb, body.generative_model, this.generation, {
      untrusted: opts.untrusted ?? false,
      loc: "generative_model",
      input: body.generative_model,
    });
    const texts = new Map<string, string>();
    for (const ref of body.resources) {
      const found = await this.resources
        .resolve(kb.uuid, { rid: ref })
        .catch(() => this.resources.resolve(kb.uuid, { slug: ref }).catch(() => undefined));
      if (!found) continue;
      const rows = (await found.store.paragraphs.resourceRows(found.res.id))
        // The title is a field of its own (a/title); the body fields follow in reading order.
        .sort((a, b) => a.field.localeCompare(b.field) || a.split.localeCompare(b.split) || a.start - b.start);
      texts.set(ref, rows.map((r) => String(r.text)).join("\n"));
    }
    const n = SENTENCES[body.summary_kind];
    const one = (text: string) =>
      gen.kind === "extractive" ? Promise.resolve(extractiveSummary(text, n)) : generated(gen, text, body, signal);
    const resources: SummarizedResponse["resources"] = {};
    for (const [ref, text] of texts) {
      const summary = await one(text);
      resources[ref] = { summary, tokens: tokensOf(summary) };
    }
    const all = [...Object.values(resources)].map((r) => r.summary);
    const summary = all.length <= 1 ? (all[0] ?? "") : await one(all.join("\n"));
    return { resources, summary, model: gen.id };
  }
}

/** A summary written by a generative model. */
export async function generated(
  gen: Generator,
  text: string,
  body: Pick<SummarizeRequest, "summary_kind" | "user_prompt">,
  signal?: AbortSignal,
): Promise<string> {
  const length =
    body.summary_kind === "extended" ? "a detailed summary in a few paragraphs" : "a short summary in two or three sentences";
  const instruction = body.user_prompt?.trim() || `Write ${length} of the following document.`;
  let out = "";
  try {
    out = await collect(gen, instruction, text, signal);
  } catch (e) {
    if (e instanceof KboxError) throw e;
    // The model's own failure (unreachable, refused by the fetch policy, a bad key) is the caller's to see.
    throw new KboxError(502, `the generative model ${gen.id} failed: ${(e as Error).message}`);
  }
  return out.trim();
}

async function collect(gen: Generator, instruction: string, text: string, signal?: AbortSignal): Promise<string> {
  let out = "";
  for await (const c of gen.generate({
    messages: [
      { role: "system", content: "You summarize documents faithfully, using only what they say." },
      { role: "user", content: `${instruction}\n\n${text}` },
    ],
    question: instruction,
    context: [{ id: "document", text }],
    signal,
  })) {
    if (c.type === "text") out += c.text;
  }
  return out;
}
