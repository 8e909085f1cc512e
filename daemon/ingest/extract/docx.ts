import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { coreProperties } from "./office.js";
import { byTag, childrenByTag, openZip, type XmlEl, zipXml } from "./zip.js";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * DOCX from word/document.xml: paragraphs, headings (hard breaks) and tables (table spans).
 * Read directly rather than through an HTML converter: several times faster, and only text matters here.
 */
export async function extractDocx(path: string): Promise<Extracted> {
  const zip = await openZip(path, "DOCX");
  const doc = await zipXml(zip, "word/document.xml", "DOCX");
  const body = byTag(doc, "w:body")[0];
  const b = new TextBuilder();
  if (body) writeBody(b, body);
  return b.build({ mime_type: DOCX, ...(await coreProperties(zip)) });
}

function writeBody(b: TextBuilder, root: XmlEl): void {
  const stack: XmlEl[] = [root];
  while (stack.length) {
    const el = stack.pop() as XmlEl;
    if (el.tagName === "w:tbl") {
      b.table(
        childrenByTag(el, "w:tr").map((tr) => childrenByTag(tr, "w:tc").map((tc) => byTag(tc, "w:p").map(runText).join(" "))),
      );
      continue;
    }
    if (el.tagName === "w:p") {
      const text = runText(el);
      if (isHeading(el)) b.hardBreak();
      b.block(text);
      if (isHeading(el)) b.hardBreak();
      continue;
    }
    const kids = Array.from(el.children) as XmlEl[];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

/** A paragraph styled as a title or heading (Heading1..9, Title, or an outline level). */
function isHeading(p: XmlEl): boolean {
  const style = byTag(p, "w:pStyle")[0]?.getAttribute("w:val") ?? "";
  return /^(heading|title)/i.test(style) || byTag(p, "w:outlineLvl").length > 0;
}

/** Text of a paragraph's runs: w:t text, tabs and line breaks (deleted text, w:delText, is left out). */
function runText(p: XmlEl): string {
  let out = "";
  const stack: XmlEl[] = [p];
  while (stack.length) {
    const el = stack.pop() as XmlEl;
    const tag = el.tagName;
    if (tag === "w:t") out += el.textContent ?? "";
    else if (tag === "w:tab") out += "\t";
    else if (tag === "w:br" || tag === "w:cr") out += "\n";
    else {
      const kids = Array.from(el.children) as XmlEl[];
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return out;
}
