import { collapseSpaces, type TextBuilder } from "./builder.js";

/** Elements whose content is never text a reader sees. */
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "head",
  "iframe",
  "object",
  "embed",
  "canvas",
  "select",
  "option",
  "button",
  "input",
  "textarea",
  "map",
  "audio",
  "video",
  "math",
]);
const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "aside",
  "header",
  "footer",
  "nav",
  "blockquote",
  "ul",
  "ol",
  "dl",
  "figure",
  "figcaption",
  "form",
  "fieldset",
  "address",
  "details",
  "summary",
  "hr",
  "body",
  "html",
  "center",
  "caption",
  "legend",
  "hgroup",
  "menu",
]);
const LINE = new Set(["li", "dt", "dd", "tr"]);
const HEADING = /^h[1-6]$/;

// Minimal structural view of a DOM node (linkedom's types are not exported in a usable form).
export interface DomNode {
  nodeType: number;
  nodeName: string;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode?: DomNode | null;
  querySelectorAll?(sel: string): ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

type Step = { node: DomNode; pre: boolean } | { exit: () => void };

/** Writes the visible text of `root` into `b`: blocks become paragraphs, tables become table spans. */
export function walkHtml(root: DomNode, b: TextBuilder): void {
  // An explicit stack instead of recursion: hostile, deeply nested pages must not overflow the call stack.
  const stack: Step[] = [{ node: root, pre: false }];
  while (stack.length) {
    const step = stack.pop() as Step;
    if ("exit" in step) {
      step.exit();
      continue;
    }
    const { node, pre } = step;
    if (node.nodeType === 3) {
      writeText(b, node.textContent ?? "", pre);
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = (node.localName ?? node.nodeName).toLowerCase();
    if (SKIP.has(tag) || chrome(node, tag)) continue;
    if (tag === "br") {
      b.endLine();
      continue;
    }
    if (tag === "table") {
      b.table(tableRows(node));
      continue;
    }
    const isPre = pre || tag === "pre";
    let exit: (() => void) | null = null;
    if (HEADING.test(tag)) {
      b.hardBreak();
      exit = () => b.endBlock();
    } else if (BLOCK.has(tag) || tag === "pre") {
      b.endBlock();
      exit = () => b.endBlock();
    } else if (LINE.has(tag)) {
      b.endLine();
      exit = () => b.endLine();
    } else if (tag === "td" || tag === "th") {
      b.inline(" ");
    }
    if (exit) stack.push({ exit });
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], pre: isPre });
  }
  b.endBlock();
}

/** Class names of a site's navigation: sidebars, menus, breadcrumbs, tables of contents, skip links. */
const CHROME_CLASS =
  /(?:^|\s)(?:nav|navbar|nav-panel|navigation|nav-wrapper|sidebar|sidebar-scrollbox|breadcrumbs?|toc|table-of-contents|menu-bar|skip-link|skip-to-content|page-footer|footer-nav|mobile-nav-chapters|nav-chapters)(?:\s|$)/i;

/** A site's chrome rather than its content: navigation around the page, not text a reader came for. */
function chrome(node: DomNode, tag: string): boolean {
  if (tag === "nav") return true;
  const role = node.getAttribute?.("role");
  if (role === "navigation" || role === "search" || role === "banner") return true;
  const cls = node.getAttribute?.("class") ?? "";
  if (cls && CHROME_CLASS.test(cls)) return true;
  // Texinfo's page header: "Next: …, Previous: …, Up: …".
  return cls === "header" && /^\s*(?:Next|Previous|Up):/.test(node.textContent ?? "");
}

/** A text node's text: collapsed spaces, or in a `<pre>` its lines kept with their trailing spaces cut. */
export function writeText(b: TextBuilder, text: string, pre: boolean): void {
  if (!pre) {
    b.inline(collapseSpaces(text));
    return;
  }
  const lines = text.split("\n");
  lines.forEach((l, i) => {
    if (i > 0) b.endLine();
    b.inline(l.replace(/\s+$/, ""));
  });
}

/** Rows of a table (its own rows only; nested tables are flattened into their cell's text). */
export function tableRows(table: DomNode): string[][] {
  const rows: string[][] = [];
  const trs = table.querySelectorAll ? Array.from(table.querySelectorAll("tr")) : [];
  for (const tr of trs) {
    if (closestTable(tr) !== table) continue;
    const cells: string[] = [];
    for (const c of Array.from(tr.childNodes)) {
      const t = (c.localName ?? "").toLowerCase();
      if (t === "td" || t === "th") cells.push(collapseSpaces(c.textContent ?? "").trim());
    }
    rows.push(cells);
  }
  return rows;
}

function closestTable(n: DomNode): DomNode | null {
  let p = n.parentNode ?? null;
  while (p && (p.localName ?? "").toLowerCase() !== "table") p = p.parentNode ?? null;
  return p;
}
