import { Lexer, marked, type Token } from "marked";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { ExtractionError } from "./errors.js";
import { extractHtml } from "./html.js";
import { walkMarkdown, walkMarkdownInline } from "./markdown-walk.js";

/** Markdown rendered to plain text (headings start paragraphs, tables become table spans). */
export function markdownToText(md: string, via: MarkdownPath = "walk"): Extracted {
  const ex = markdownTokens(Lexer.lex(md, { gfm: true }), via);
  ex.metadata = { mime_type: "text/markdown" };
  return ex;
}

/**
 * How Markdown tokens become text: "walk" writes them straight into the text (markdown-walk.ts) and
 * takes the HTML path only where it must (raw HTML, …); "html" renders HTML and walks its DOM, the
 * reference the walk is held equal to (test/daemon/ingest/extract/markdown-walk.test.ts, bench/markdown.ts).
 */
export type MarkdownPath = "walk" | "html";

function markdownTokens(tokens: Token[], via: MarkdownPath): Extracted {
  const walked = via === "walk" ? walkMarkdown(tokens) : null;
  return walked ? walked.build() : extractHtml(marked.parser(tokens, { gfm: true }));
}

/**
 * A Markdown document (a file) as text, with its title: the front matter's `title:`, else the heading
 * that opens it, else its first level-1 heading. Front matter is not text, and the heading taken as
 * title is not a paragraph of its own (it titles the resource; see ingest/retitle.ts).
 */
export function markdownDocument(md: string, via: MarkdownPath = "walk"): Extracted {
  const { body, title: fmTitle } = frontMatter(md.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
  // Lexed once: the title heading is found among the tokens and the rest rendered from them.
  const tokens = new Lexer({ gfm: true }).lex(body);
  const heading = leadingHeading(tokens, fmTitle, via);
  const ex = markdownTokens(tokens, via);
  const title = fmTitle ?? heading;
  ex.metadata = { mime_type: "text/markdown", ...(title ? { title } : {}) };
  return ex;
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

/** YAML front matter (`---` … `---`) cut off the document, with its `title:` (quotes removed). */
function frontMatter(md: string): { body: string; title?: string } {
  const m = FRONT_MATTER.exec(md);
  if (!m) return { body: md };
  const line = /^title:[ \t]*(.+)$/m.exec(m[1])?.[1].trim();
  const title = line?.replace(/^(["'])(.*)\1$/, "$2").trim();
  return { body: md.slice(m[0].length), ...(title ? { title } : {}) };
}

/**
 * The heading that opens the document (only blank lines or HTML before it), else its first level-1
 * heading, taken out of the tokens. With a front-matter title, only a heading repeating that title is taken.
 */
function leadingHeading(tokens: Token[], fmTitle: string | undefined, via: MarkdownPath): string | undefined {
  let leading = true;
  for (const [i, tok] of tokens.entries()) {
    if (tok.type === "space" || tok.type === "html") continue;
    if (tok.type === "heading" && (leading || tok.depth === 1)) {
      const heading = headingText(tok.text, via);
      if (heading && (fmTitle === undefined || heading === fmTitle)) {
        tokens.splice(i, 1);
        return heading;
      }
      if (fmTitle === undefined) return undefined;
    }
    leading = false;
  }
  return undefined;
}

/** A heading's inline Markdown as plain text (lexed on its own, as marked.parseInline does). */
function headingText(inline: string, via: MarkdownPath): string {
  const walked = via === "walk" ? walkMarkdownInline(Lexer.lexInline(inline, { gfm: true })) : null;
  const text = walked ? walked.build().text : extractHtml(marked.parseInline(inline, { async: false, gfm: true }) as string).text;
  return text.replace(/\s+/g, " ").trim();
}

/** Markdown kept as written; headings are hard breaks and GFM tables are table spans. */
export function keepMarkdown(md: string): Extracted {
  const text = md.replace(/\r\n?/g, "\n");
  const ex: Extracted = { text, metadata: { mime_type: "text/markdown" } };
  const breaks: number[] = [];
  const tables: { start: number; end: number }[] = [];
  let offset = 0;
  for (const tok of new Lexer({ gfm: true }).lex(text)) {
    // Lexer tokens carry their raw source; find each one from where the previous ended.
    const at = text.indexOf(tok.raw, offset);
    if (at === -1) continue;
    if (tok.type === "heading" && at > 0) breaks.push(at);
    if (tok.type === "table") {
      const raw = tok.raw.replace(/\s+$/, "");
      tables.push({ start: at, end: at + raw.length });
      if (at > 0) breaks.push(at);
    }
    offset = at + tok.raw.length;
  }
  if (breaks.length) ex.breaks = breaks;
  if (tables.length) ex.tables = tables;
  return ex;
}

const ADORNMENT = /^([=\-`:'"~^_*+#<>])\1{2,}\s*$/;

/** reStructuredText to plain text: section adornments, directives and inline markup removed. */
export function rstToText(rst: string): Extracted {
  const lines = rst.replace(/\r\n?/g, "\n").split("\n");
  const b = new TextBuilder();
  let para: string[] = [];
  const flush = () => {
    if (para.length) b.block(para.join("\n"));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (ADORNMENT.test(line)) {
      // Underline of the title just read: the title is its own paragraph.
      if (para.length) {
        const title = para.pop() as string;
        flush();
        b.hardBreak();
        b.block(title);
      }
      continue;
    }
    if (/^\.\.\s/.test(line)) {
      flush();
      const directive = /^\.\.\s+[\w:-]+::\s*(.*)$/.exec(line);
      if (directive?.[1]) para.push(rstInline(directive[1]));
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    para.push(rstInline(line.trim().replace(/::$/, ":")));
  }
  flush();
  return b.build({ mime_type: "text/x-rst" });
}

function rstInline(s: string): string {
  return s
    .replace(/:[\w-]+:`([^`]*)`/g, "$1")
    .replace(/`([^`<]*?)\s*<[^>]*>`_{1,2}/g, "$1")
    .replace(/``([^`]*)``/g, "$1")
    .replace(/`([^`]*)`_{0,2}/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\*([^*]+)\*/g, "$1")
    .replace(/\|([^|\s][^|]*)\|/g, "$1");
}

/** The string values of a JSON document, each its own paragraph (in document order). */
export function jsonToText(body: string): Extracted {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    throw new ExtractionError("INVALID_INPUT", `Invalid JSON: ${(err as Error).message}`);
  }
  const b = new TextBuilder();
  for (const s of jsonStrings(value)) b.block(s);
  return b.build({ mime_type: "application/json" });
}

/** One paragraph per JSON Lines record (its string values; a line that is not JSON is kept as text). */
export function jsonlToText(body: string): Extracted {
  const b = new TextBuilder();
  for (const line of body.split(/\r?\n/)) {
    if (!line.trim()) continue;
    let text: string;
    try {
      text = jsonStrings(JSON.parse(line)).join("\n");
    } catch {
      text = line;
    }
    // A record is one paragraph: blank lines inside its strings must not split it.
    b.hardBreak();
    b.block(text.replace(/\n\s*\n/g, "\n"));
  }
  return b.build({ mime_type: "application/x-ndjson" });
}

/** String leaves of a JSON value, depth-first, without recursion (deep documents must not overflow). */
export function jsonStrings(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.trim()) out.push(v);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v && typeof v === "object") {
      const vals = Object.values(v);
      for (let i = vals.length - 1; i >= 0; i--) stack.push(vals[i]);
    }
  }
  return out;
}
