/**
 * Turning the ask stream into what people read: footnotes renumbered [1], [2] as they stream,
 * and the sources list of the cited paragraphs. Pure functions: the CLI and the TUI share them.
 */
import type { AskItem } from "../client/routes/ask.js";
import type { FindResponse } from "../client/routes/find.js";

/** A cited paragraph, numbered in order of first citation. */
export interface Source {
  n: number;
  id: string;
  title: string;
  text: string;
}

/** Rewrites `[block-AA]` footnotes to `[1]`, `[2]`… across chunk boundaries. */
export class FootnoteNumberer {
  private pending = "";
  readonly order: string[] = [];

  private rewrite(s: string): string {
    return s.replace(/\s*\[\^?(block-[A-Z]{2})\]/g, (_, b: string) => {
      if (!this.order.includes(b)) this.order.push(b);
      return `[${this.order.indexOf(b) + 1}]`;
    });
  }

  /** Text safe to print now (a marker split over chunks is held back). */
  push(chunk: string): string {
    this.pending += chunk;
    const open = this.pending.lastIndexOf("[");
    let cut =
      open >= 0 && !this.pending.slice(open).includes("]") && this.pending.length - open < 16 ? open : this.pending.length;
    // Trailing spaces wait too: a marker arriving next swallows them ("120. [1]" → "120.[1]").
    while (cut > 0 && /\s/.test(this.pending[cut - 1])) cut--;
    const out = this.rewrite(this.pending.slice(0, cut));
    this.pending = this.pending.slice(cut);
    return out;
  }

  flush(): string {
    const out = this.rewrite(this.pending);
    this.pending = "";
    return out;
  }
}

/** Paragraph text and resource title by paragraph id, from a retrieval result. */
export function paragraphIndex(r: FindResponse | undefined): Map<string, { title: string; text: string }> {
  const out = new Map<string, { title: string; text: string }>();
  for (const [rid, res] of Object.entries(r?.resources ?? {})) {
    const title = String(res.title ?? res.slug ?? rid);
    for (const f of Object.values(res.fields))
      for (const [id, p] of Object.entries(f.paragraphs)) out.set(id, { title, text: p.text });
  }
  return out;
}

/** The cited paragraphs: footnote order when the answer had footnotes, else by first cited answer span. */
export function sourcesOf(items: AskItem[], footnoteOrder: string[] = []): Source[] {
  const retrieval = items.find((i) => i.type === "retrieval") as Extract<AskItem, { type: "retrieval" }> | undefined;
  const index = paragraphIndex(retrieval?.results);
  const foot = items.find((i) => i.type === "footnote_citations") as Extract<AskItem, { type: "footnote_citations" }> | undefined;
  const cites = items.find((i) => i.type === "citations") as Extract<AskItem, { type: "citations" }> | undefined;
  let ids: string[];
  if (foot) ids = footnoteOrder.map((b) => foot.footnote_to_context[b]).filter((x): x is string => !!x);
  else if (cites)
    ids = Object.entries(cites.citations)
      .sort((a, b) => (a[1][0]?.[0] ?? 0) - (b[1][0]?.[0] ?? 0))
      .map(([id]) => id);
  else ids = [];
  return ids.map((id, i) => ({ n: i + 1, id, title: index.get(id)?.title ?? id.slice(0, 32), text: index.get(id)?.text ?? "" }));
}

/** Post-hoc citations as inline markers: `[n]` after each cited answer span. */
export function markCitations(answer: string, citations: Record<string, [number, number][]>, sources: Source[]): string {
  const at = new Map<number, number[]>();
  for (const s of sources) for (const [, end] of citations[s.id] ?? []) at.set(end, [...(at.get(end) ?? []), s.n]);
  let out = "";
  let last = 0;
  for (const end of [...at.keys()].sort((a, b) => a - b)) {
    out += `${answer.slice(last, end)}${at
      .get(end)
      ?.map((n) => `[${n}]`)
      .join("")}`;
    last = end;
  }
  return out + answer.slice(last);
}

/** One line per source, trimmed to `width` columns. */
export function sourceLines(sources: Source[], width = 100): string[] {
  return sources.map((s) => {
    const head = `[${s.n}] ${s.title} — `;
    const text = s.text.replace(/\s+/g, " ");
    const room = Math.max(10, width - head.length);
    return head + (text.length > room ? `${text.slice(0, room - 1)}…` : text);
  });
}
