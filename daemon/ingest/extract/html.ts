import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import xpath from "xpath";
import type { Extracted } from "../types.js";
import { collapseSpaces, TextBuilder } from "./builder.js";
import { ExtractionError } from "./errors.js";
import { type DomNode, walkHtml } from "./html-walk.js";

/** How to pick the part of an HTML page to index. */
export interface HtmlOptions {
  /** Keep only the main content (readability), falling back to the whole body when it finds too little. */
  mainContent?: boolean;
  cssSelector?: string | null;
  xpath?: string | null;
  mimeType?: string;
}

// Below this, readability probably picked a fragment (or nothing): the whole body is the better answer.
const MIN_MAIN_CONTENT = 200;

interface XPathParse {
  parse(expr: string): { select(opts: { node: unknown; isHtml: boolean }): unknown };
}

type Doc = ReturnType<typeof parseHTML>["document"];

/** Extracts the text of an HTML document, with title, description, author and language in metadata. */
export function extractHtml(html: string, opts: HtmlOptions = {}): Extracted {
  // linkedom only builds a body for complete documents; fragments (Markdown output, HTML text fields) get one.
  const whole = /<html[\s>]|<body[\s>]/i.test(html);
  const { document } = parseHTML(whole ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
  const metadata = htmlMetadata(document);
  metadata.mime_type = opts.mimeType ?? "text/html";
  const b = new TextBuilder();
  if (opts.cssSelector || opts.xpath) {
    for (const node of selectNodes(document, opts)) {
      b.hardBreak();
      if (node.nodeType === 2 || node.nodeType === 3) b.block(node.textContent ?? "");
      else walkHtml(node, b);
    }
    return b.build(metadata);
  }
  // The page's first heading repeating its <title> is the title, not a paragraph of its own.
  const h1 = document.querySelector("h1");
  if (h1 && metadata.title && clean(h1.textContent) === metadata.title) h1.remove();
  if (opts.mainContent) {
    const main = mainContent(document);
    if (main) {
      walkHtml(main, b);
      if (b.length >= MIN_MAIN_CONTENT) return b.build(metadata);
      return extractHtml(html, { ...opts, mainContent: false });
    }
  }
  walkHtml((document.body ?? document) as unknown as DomNode, b);
  return b.build(metadata);
}

function selectNodes(document: Doc, opts: HtmlOptions): DomNode[] {
  let nodes: DomNode[];
  if (opts.cssSelector) {
    try {
      nodes = Array.from(document.querySelectorAll(opts.cssSelector)) as unknown as DomNode[];
    } catch (err) {
      throw new ExtractionError("INVALID_INPUT", `Invalid css_selector "${opts.cssSelector}": ${(err as Error).message}`);
    }
    if (nodes.length === 0) throw new ExtractionError("SELECTOR_NO_MATCH", `css_selector "${opts.cssSelector}" matched nothing`);
  } else {
    const expr = opts.xpath as string;
    let res: unknown;
    try {
      // xpath's typings omit parse(); its isHtml mode matches HTML element names case-insensitively.
      const parsed = (xpath as unknown as XPathParse).parse(expr);
      res = parsed.select({ node: document, isHtml: true });
    } catch (err) {
      throw new ExtractionError("INVALID_INPUT", `Invalid xpath "${expr}": ${(err as Error).message}`);
    }
    nodes = res as DomNode[];
    if (nodes.length === 0) throw new ExtractionError("SELECTOR_NO_MATCH", `xpath "${expr}" matched nothing`);
  }
  // A selector matching both a node and its descendant must not index the text twice.
  const set = new Set(nodes);
  return nodes.filter((n) => {
    for (let p = n.parentNode; p; p = p.parentNode) if (set.has(p)) return false;
    return true;
  });
}

function mainContent(document: Doc): DomNode | null {
  try {
    const article = new Readability(document.cloneNode(true) as unknown as Document, { charThreshold: 200 }).parse();
    if (!article?.content) return null;
    const { document: doc } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    return doc.body as unknown as DomNode;
  } catch {
    return null;
  }
}

/** Title, description, author and declared language of an HTML document. */
export function htmlMetadata(document: Doc): Extracted["metadata"] {
  const meta = (sel: string) => clean(document.querySelector(sel)?.getAttribute("content"));
  const md: Extracted["metadata"] = {};
  const title = clean(document.querySelector("title")?.textContent) ?? meta('meta[property="og:title"]');
  const description = meta('meta[name="description"]') ?? meta('meta[property="og:description"]');
  const author = meta('meta[name="author"]');
  const lang = clean(document.documentElement?.getAttribute("lang")) ?? meta('meta[http-equiv="content-language"]');
  if (title) md.title = title;
  if (description) md.description = description;
  if (author) md.author = author;
  if (lang) md.language = lang.split(/[-_]/)[0].toLowerCase();
  return md;
}

function clean(s: string | null | undefined): string | undefined {
  const t = s ? collapseSpaces(s).trim() : "";
  return t || undefined;
}
