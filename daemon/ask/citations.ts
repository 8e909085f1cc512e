import { splitSentences, terms } from "../models/generate/text.js";
import type { ContextPiece } from "../models/generate/types.js";

/** Default support an answer sentence needs from a paragraph to cite it. */
export const DEFAULT_CITATION_THRESHOLD = 0.4;

const FOOTNOTE = /\s*\[\^?(block-[A-Z]{2})\]/g;

/**
 * Post-hoc citations: each answer sentence is aligned to the context paragraphs whose sentences
 * support it (share most of its content terms). Returns paragraph id → answer spans [start, end).
 */
export function alignCitations(
  answer: string,
  pieces: ContextPiece[],
  threshold = DEFAULT_CITATION_THRESHOLD,
): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  const paras = pieces
    .filter((p) => /^[0-9a-f]{32}\//.test(p.id))
    .map((p) => ({ id: p.id, text: p.text.toLowerCase(), sentences: splitSentences(p.text).map((s) => new Set(terms(s.text))) }));
  for (const s of splitSentences(answer)) {
    const clean = s.text.replace(FOOTNOTE, "").trim();
    const mine = [...new Set(terms(clean))];
    if (!mine.length) continue;
    const scored = paras
      .map((p) => {
        if (clean.length > 20 && p.text.includes(clean.toLowerCase())) return { id: p.id, support: 1 };
        const best = Math.max(0, ...p.sentences.map((set) => mine.filter((t) => set.has(t)).length / mine.length));
        return { id: p.id, support: best };
      })
      .filter((x) => x.support >= threshold && x.support > 0)
      .sort((a, b) => b.support - a.support);
    // The best paragraph, and others nearly as good (the same fact stated twice).
    for (const x of scored.filter((x) => x.support >= scored[0]?.support * 0.9).slice(0, 3)) {
      const spans = out[x.id] ?? [];
      spans.push([s.start, s.end]);
      out[x.id] = spans;
    }
  }
  return out;
}

/** llm_footnotes: the footnote keys the answer uses, mapped to their context paragraphs. */
export function footnoteMap(answer: string, pieces: ContextPiece[]): Record<string, string> {
  const byBlock = new Map(pieces.filter((p) => p.block).map((p) => [p.block as string, p.id]));
  const out: Record<string, string> = {};
  for (const m of answer.matchAll(FOOTNOTE)) {
    const id = byBlock.get(m[1]);
    if (id) out[m[1]] = id;
  }
  return out;
}
