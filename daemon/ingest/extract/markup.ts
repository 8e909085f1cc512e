import { Lexer, marked } from "marked";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { ExtractionError } from "./errors.js";
import { extractHtml } from "./html.js";

/** Markdown rendered to plain text (headings start paragraphs, tables become table spans). */
export function markdownToText(md: string): Extracted {
  const html = marked.parse(md, { async: false, gfm: true }) as string;
  const ex = extractHtml(html);
  ex.metadata = { mime_type: "text/markdown" };
  return ex;
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
