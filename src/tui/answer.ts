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

/** One line per source, fitted to `width` columns (a long title is cut before the text is). */
export function sourceLines(sources: Source[], width = 100): string[] {
  return sources.map((s) => {
    const n = `[${s.n}] `;
    const title = fit(s.title.replace(/\s+/g, " "), Math.max(8, Math.floor((width - n.length) * 0.6)));
    const head = `${n}${title} — `;
    return fit(head + s.text.replace(/\s+/g, " ").trim(), width);
  });
}

/** `text` cut to `width` characters, ending in "…" when cut. */
export function fit(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

/** `text` wrapped to `width` columns at word boundaries (a word longer than a line is split); keeps its newlines. */
export function wrapLines(text: string, width: number): string[] {
  const w = new LineWrapper(width);
  return (w.push(text) + w.flush()).split("\n");
}

/**
 * Word wrapping of streamed text: `push` returns what can be printed now, with newlines inserted
 * where a word would cross the right edge (the word being typed is held back until it ends).
 */
export class LineWrapper {
  private col = 0;
  private word = "";
  private spaces = "";
  constructor(private readonly width: number) {}

  push(chunk: string): string {
    let out = "";
    for (const ch of chunk) {
      if (ch === "\n") {
        out += `${this.emitWord()}\n`;
        this.col = 0;
        this.spaces = "";
      } else if (ch === " " || ch === "\t") {
        out += this.emitWord();
        this.spaces += " ";
      } else {
        this.word += ch;
        // A word as long as a line is cut where the line ends.
        if ([...this.word].length >= this.width) out += this.emitWord();
      }
    }
    return out;
  }

  flush(): string {
    return this.emitWord();
  }

  private emitWord(): string {
    if (!this.word) return "";
    const len = [...this.word].length;
    let out: string;
    if (this.col > 0 && this.col + this.spaces.length + len > this.width) {
      out = `\n${this.word}`;
      this.col = len;
    } else {
      out = this.spaces + this.word;
      this.col += this.spaces.length + len;
    }
    this.word = "";
    this.spaces = "";
    return out;
  }
}
