import type { Extracted } from "../types.js";
import { collapseSpaces, TextBuilder } from "./builder.js";
import { byTag, childrenByTag, openZip, resolvePart, type XmlEl, zipXml } from "./zip.js";

const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const ODT = "application/vnd.oasis.opendocument.text";

/** PPTX: one page per slide (in presentation order), text frames as paragraphs, tables as tables. */
export async function extractPptx(path: string): Promise<Extracted> {
  const zip = await openZip(path, "PPTX");
  const pres = await zipXml(zip, "ppt/presentation.xml", "PPTX");
  const rels = await zipXml(zip, "ppt/_rels/presentation.xml.rels", "PPTX");
  const targets = new Map(byTag(rels, "Relationship").map((r) => [r.getAttribute("Id"), r.getAttribute("Target") ?? ""]));
  const slides = byTag(pres, "p:sldId")
    .map((s) => targets.get(s.getAttribute("r:id")))
    .filter((t): t is string => !!t)
    .map((t) => resolvePart("ppt/presentation.xml", t));
  const b = new TextBuilder();
  for (let i = 0; i < slides.length; i++) {
    const slide = await zipXml(zip, slides[i], "PPTX");
    b.startPage(i + 1);
    const root = slide.documentElement as XmlEl;
    writeDrawingText(b, root);
  }
  return b.build({ mime_type: PPTX, page_count: slides.length, ...(await coreProperties(zip)) });
}

/** Text of DrawingML shapes in document order; a:tbl tables become table spans. */
function writeDrawingText(b: TextBuilder, root: XmlEl): void {
  const stack: XmlEl[] = [root];
  while (stack.length) {
    const el = stack.pop() as XmlEl;
    if (el.tagName === "a:tbl") {
      b.table(byTag(el, "a:tr").map((tr) => childrenByTag(tr, "a:tc").map((tc) => paragraphsText(tc).join(" "))));
      continue;
    }
    if (el.tagName === "a:p") {
      b.block(paragraphsText(el).join("\n"));
      continue;
    }
    const kids = Array.from(el.children) as XmlEl[];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

function paragraphsText(el: XmlEl): string[] {
  const ps = el.tagName === "a:p" ? [el] : byTag(el, "a:p");
  return ps
    .map((p) =>
      byTag(p, "a:t")
        .map((t) => t.textContent ?? "")
        .join(""),
    )
    .filter((t) => t.trim());
}

/** Title, author and description from docProps/core.xml (OOXML), when present. */
export async function coreProperties(zip: Awaited<ReturnType<typeof openZip>>): Promise<Extracted["metadata"]> {
  if (!zip.file("docProps/core.xml")) return {};
  const core = await zipXml(zip, "docProps/core.xml", "document properties");
  const get = (tag: string) => collapseSpaces(byTag(core, tag)[0]?.textContent ?? "").trim() || undefined;
  const md: Extracted["metadata"] = {};
  if (get("dc:title")) md.title = get("dc:title");
  if (get("dc:creator")) md.author = get("dc:creator");
  if (get("dc:description")) md.description = get("dc:description");
  if (get("dc:language")) md.language = (get("dc:language") as string).split(/[-_]/)[0].toLowerCase();
  return md;
}

/** ODT (OpenDocument text): headings, paragraphs, lists and tables from content.xml. */
export async function extractOdt(path: string): Promise<Extracted> {
  const zip = await openZip(path, "ODT");
  const content = await zipXml(zip, "content.xml", "ODT");
  const body = byTag(content, "office:text")[0];
  const b = new TextBuilder();
  if (body) writeOdf(b, body);
  const md: Extracted["metadata"] = { mime_type: ODT };
  if (zip.file("meta.xml")) {
    const meta = await zipXml(zip, "meta.xml", "ODT");
    const title = byTag(meta, "dc:title")[0]?.textContent?.trim();
    if (title) md.title = title;
  }
  return b.build(md);
}

function writeOdf(b: TextBuilder, root: XmlEl): void {
  const stack: XmlEl[] = [root];
  while (stack.length) {
    const el = stack.pop() as XmlEl;
    const tag = el.tagName;
    if (tag === "table:table") {
      b.table(byTag(el, "table:table-row").map((r) => childrenByTag(r, "table:table-cell").map((c) => odfText(c))));
    } else if (tag === "text:h") {
      b.hardBreak();
      b.block(odfText(el));
    } else if (tag === "text:p") {
      b.block(odfText(el));
    } else {
      const kids = Array.from(el.children) as XmlEl[];
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
}

/** Text of an ODF element, honouring text:s (spaces), text:tab and text:line-break. */
function odfText(el: XmlEl): string {
  let out = "";
  const walk = (n: ChildNode | XmlEl) => {
    if (n.nodeType === 3) out += n.textContent ?? "";
    else if (n.nodeType === 1) {
      const tag = (n as XmlEl).tagName;
      if (tag === "text:s") out += " ".repeat(Number((n as XmlEl).getAttribute("text:c") ?? 1) || 1);
      else if (tag === "text:tab") out += "\t";
      else if (tag === "text:line-break") out += "\n";
      else if (tag === "text:p" && out) out += "\n";
      if (tag !== "text:s") for (const c of Array.from(n.childNodes)) walk(c as ChildNode);
    }
  };
  walk(el);
  return out.trim();
}
