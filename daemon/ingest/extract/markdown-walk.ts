import { decodeHTML } from "entities";
import type { Token, Tokens } from "marked";
import { collapseSpaces, TextBuilder } from "./builder.js";
import { writeText } from "./html-walk.js";

/**
 * Marked's tokens written straight into a TextBuilder, with the same result as rendering them to HTML
 * (`marked.parser`) and walking the parsed DOM (`walkHtml`), without the HTML string and the DOM.
 * Each token is mapped to what the DOM walk does with the element marked renders for it:
 * p/blockquote/ul/ol/pre/hr end blocks, h1–h6 are hard breaks, li ends lines, br ends a line,
 * tables go through `TextBuilder.table`, img and the task checkbox (input) add no text.
 * Text gets the HTML round trip it would have had (marked's escaping, then the HTML parser's
 * entity decoding), so `&amp;`, `&copy;` or `&notit;` read as they do today.
 *
 * Returns null where the walk cannot promise that result, and the caller takes the HTML path:
 * raw HTML anywhere (block or inline), text marked already holds as HTML (`escaped`), an image whose
 * address marked would drop (its alt text becomes text), or a token type it does not know.
 */
export function walkMarkdown(tokens: Token[], b: TextBuilder = new TextBuilder()): TextBuilder | null {
  try {
    b.endBlock();
    blocks(tokens, b);
    b.endBlock();
    return b;
  } catch (err) {
    if (err === FALLBACK) return null;
    throw err;
  }
}

/** Inline tokens (a heading's text) as the HTML path renders them; null where it must be used. */
export function walkMarkdownInline(tokens: Token[]): TextBuilder | null {
  const b = new TextBuilder();
  try {
    inline(tokens, builderSink(b));
    b.endBlock();
    return b;
  } catch (err) {
    if (err === FALLBACK) return null;
    throw err;
  }
}

const FALLBACK = { fallback: true };

interface Sink {
  text(s: string): void;
  br(): void;
}

function builderSink(b: TextBuilder): Sink {
  return { text: (s) => b.inline(collapseSpaces(s)), br: () => b.endLine() };
}

function blocks(tokens: Token[], b: TextBuilder): void {
  for (const tok of tokens) {
    switch (tok.type) {
      case "space":
      case "def":
        break;
      case "paragraph":
      case "blockquote":
      case "hr":
        // <p>, <blockquote>, <hr>: blocks of their own.
        b.endBlock();
        if (tok.type === "paragraph") inline((tok as Tokens.Paragraph).tokens, builderSink(b));
        else if (tok.type === "blockquote") blocks((tok as Tokens.Blockquote).tokens, b);
        b.endBlock();
        break;
      case "heading":
        b.hardBreak();
        inline((tok as Tokens.Heading).tokens, builderSink(b));
        b.endBlock();
        break;
      case "code":
        code(tok as Tokens.Code, b);
        break;
      case "list":
        b.endBlock();
        for (const item of (tok as Tokens.List).items) {
          b.endLine();
          blocks(item.tokens, b);
          b.endLine();
        }
        b.endBlock();
        break;
      case "table":
        b.table(tableRows(tok as Tokens.Table));
        break;
      case "checkbox":
        // <input …> (skipped) followed by a space.
        b.inline(" ");
        break;
      case "text":
        textToken(tok as Tokens.Text, builderSink(b));
        break;
      default:
        // html, or a type this walk does not know.
        throw FALLBACK;
    }
  }
}

function inline(tokens: Token[], sink: Sink): void {
  for (const tok of tokens) {
    switch (tok.type) {
      case "text":
      case "escape":
        textToken(tok as Tokens.Text, sink);
        break;
      case "strong":
      case "em":
      case "del":
        inline((tok as Tokens.Strong).tokens, sink);
        break;
      case "codespan":
        // <code>: escaped with every & encoded, so the parser gives back the text as is.
        sink.text((tok as Tokens.Codespan).text);
        break;
      case "br":
        sink.br();
        break;
      case "link": {
        const link = tok as Tokens.Link;
        if (link.autolink) sink.text(link.text);
        else inline(link.tokens, sink);
        break;
      }
      case "image":
        // <img> has no text; without a usable address marked writes its alt text instead.
        if (!usableUrl((tok as Tokens.Image).href)) throw FALLBACK;
        break;
      case "checkbox":
        sink.text(" ");
        break;
      default:
        // html (an inline tag), or a type this walk does not know.
        throw FALLBACK;
    }
  }
}

function textToken(tok: Tokens.Text | Tokens.Escape, sink: Sink): void {
  if ("tokens" in tok && tok.tokens) {
    inline(tok.tokens, sink);
    return;
  }
  if ("escaped" in tok && tok.escaped) throw FALLBACK;
  sink.text(htmlText(tok.text));
}

// marked's escape of text (an `&` that starts no reference becomes `&amp;`), as in its helpers.
const NEEDS_ESCAPE = /&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g;

/**
 * Text as the HTML parser reads it back from marked's output: `<>"'` round-trip unchanged, `&amp;`
 * gives `&`, a reference left as written is decoded as the parser decodes text (legacy mode).
 */
function htmlText(s: string): string {
  if (!s.includes("&")) return s;
  return decodeHTML(s.replace(NEEDS_ESCAPE, "&amp;"));
}

function usableUrl(href: string): boolean {
  try {
    encodeURI(href);
    return true;
  } catch {
    return false;
  }
}

/**
 * <pre><code>: lines kept, trailing spaces cut. The parser splits the text into separate text nodes
 * at each character marked escaped (`&<>"'`), and the DOM walk trims trailing spaces per node, so the
 * text is written in the same pieces.
 */
function code(tok: Tokens.Code, b: TextBuilder): void {
  if (tok.escaped) throw FALLBACK;
  b.endBlock();
  const text = tok.text ? `${tok.text.replace(/\n$/, "")}\n` : "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // & < > " '
    if (c === 38 || c === 60 || c === 62 || c === 34 || c === 39) {
      if (i > from) writeText(b, text.slice(from, i), true);
      b.inline(text[i]);
      from = i + 1;
    }
  }
  if (from < text.length) writeText(b, text.slice(from), true);
  b.endBlock();
}

/** Header row then body rows, each cell's text collapsed and trimmed (the DOM's textContent). */
function tableRows(tok: Tokens.Table): string[][] {
  const cell = (c: Tokens.TableCell) => {
    let s = "";
    inline(c.tokens, { text: (t) => (s += t), br: () => {} });
    return collapseSpaces(s).trim();
  };
  return [tok.header.map(cell), ...tok.rows.map((row) => row.map(cell))];
}
