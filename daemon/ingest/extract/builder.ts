import type { Extracted, PageSpan } from "../types.js";

/** Separator between blocks: a blank line, which the splitter treats as a paragraph boundary. */
const BLOCK_SEP = "\n\n";

/** Two whitespace characters in a row, or one other than a space: what collapsing changes. */
const UNCOLLAPSED = /\s\s|[^\S ]/;

/**
 * Collapses runs of whitespace (HTML-style) into single spaces. Most text has none to collapse, and
 * is returned as it is (a replace copied every inline text of every document: 4 % of what ingesting
 * 10,000 notes allocated).
 */
export function collapseSpaces(s: string): string {
  return UNCOLLAPSED.test(s) ? s.replace(/\s+/g, " ") : s;
}

/**
 * Builds an `Extracted` text from structured pieces (blocks, lines, tables, pages) while recording
 * the offsets of pages, tables and hard breaks, so every extractor produces the same layout:
 * blocks separated by a blank line, lines by a newline, table cells by " | ".
 */
export class TextBuilder {
  private parts: string[] = [];
  private len = 0;
  private line = "";
  private lines: string[] = [];
  private readonly pages: PageSpan[] = [];
  private readonly tables: { start: number; end: number }[] = [];
  private readonly breaks: number[] = [];
  private page: { n: number; start: number } | null = null;
  private pendingPage: number | null = null;
  private pendingBreak = false;

  /** Current length of the text written so far. */
  get length(): number {
    return this.len;
  }

  /** Appends inline text (whitespace already collapsed by the caller) to the current line. */
  inline(s: string): void {
    if (!s) return;
    if (this.line.endsWith(" ") && s.startsWith(" ")) s = s.slice(1);
    this.line += s;
  }

  /** Ends the current line (a single newline inside the block). */
  endLine(): void {
    const l = this.line.trim();
    this.line = "";
    if (l) this.lines.push(l);
  }

  /** Ends the current block; the next text starts a new paragraph. */
  endBlock(): void {
    this.endLine();
    if (this.lines.length === 0) return;
    const text = this.lines.join("\n");
    this.lines = [];
    this.write(text);
  }

  /** Appends a whole block as is (trimmed); blank lines inside it remain paragraph boundaries. */
  block(text: string): void {
    this.endBlock();
    const t = text.replace(/^\s+|\s+$/g, "");
    if (t) this.write(t);
  }

  /** Appends a table block (one line per row, cells joined by " | ") and records its span. */
  table(rows: string[][]): void {
    this.endBlock();
    const lines = rows
      .map((cells) => cells.map((c) => collapseSpaces(c).trim()))
      .filter((cells) => cells.some((c) => c !== ""))
      .map((cells) => cells.join(" | "));
    if (lines.length === 0) return;
    const start = this.write(lines.join("\n"));
    this.tables.push({ start, end: this.len });
  }

  /** The next block starts at a hard break the splitter must respect. */
  hardBreak(): void {
    this.endBlock();
    this.pendingBreak = true;
  }

  /** Starts page `n` (1-based); text written until `endPage` belongs to it. */
  startPage(n: number): void {
    this.endPage();
    this.pendingPage = n;
  }

  /** Closes the open page, if any. */
  endPage(): void {
    this.endBlock();
    this.pendingPage = null;
    if (this.page && this.len > this.page.start) {
      this.pages.push({ start: this.page.start, end: this.len, page: this.page.n });
    }
    this.page = null;
  }

  /** Finishes the text and returns the `Extracted` value with the given metadata. */
  build(metadata: Extracted["metadata"] = {}, kind?: Extracted["kind"]): Extracted {
    this.endPage();
    const ex: Extracted = { text: this.parts.join(""), metadata };
    this.parts = [ex.text];
    if (this.pages.length) ex.pages = this.pages;
    if (this.tables.length) ex.tables = this.tables;
    if (this.breaks.length) ex.breaks = this.breaks;
    if (kind) ex.kind = kind;
    return ex;
  }

  private write(text: string): number {
    if (this.len > 0) {
      this.parts.push(BLOCK_SEP);
      this.len += BLOCK_SEP.length;
    }
    const start = this.len;
    if (this.pendingPage !== null) {
      this.page = { n: this.pendingPage, start };
      this.pendingPage = null;
    }
    if (this.pendingBreak) {
      if (start > 0) this.breaks.push(start);
      this.pendingBreak = false;
    }
    this.parts.push(text);
    this.len += text.length;
    return start;
  }
}
