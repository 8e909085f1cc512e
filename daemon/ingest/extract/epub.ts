import { parseHTML } from "linkedom";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { ExtractionError } from "./errors.js";
import { type DomNode, walkHtml } from "./html-walk.js";
import { byTag, openZip, resolvePart, zipXml } from "./zip.js";

/** EPUB: the spine's documents in reading order, one page per spine document that has text. */
export async function extractEpub(path: string): Promise<Extracted> {
  const zip = await openZip(path, "EPUB");
  const container = await zipXml(zip, "META-INF/container.xml", "EPUB");
  const opfPath = byTag(container, "rootfile")[0]?.getAttribute("full-path");
  if (!opfPath) throw new ExtractionError("CORRUPT_FILE", "Cannot read EPUB: no package document in container.xml");
  const opf = await zipXml(zip, opfPath, "EPUB");
  const hrefs = new Map(byTag(opf, "item").map((it) => [it.getAttribute("id"), it.getAttribute("href") ?? ""]));
  const spine = byTag(opf, "itemref")
    .map((ref) => hrefs.get(ref.getAttribute("idref")))
    .filter((h): h is string => !!h)
    .map((h) => resolvePart(opfPath, decodeURIComponent(h)));
  const b = new TextBuilder();
  let page = 0;
  for (const part of spine) {
    const entry = zip.file(part);
    if (!entry) continue;
    const { document } = parseHTML(await entry.async("string"));
    const before = b.length;
    b.startPage(page + 1);
    walkHtml((document.body ?? document.documentElement) as unknown as DomNode, b);
    b.endPage();
    if (b.length > before) page++;
  }
  const md: Extracted["metadata"] = { mime_type: "application/epub+zip", page_count: page };
  const dc = (tag: string) => byTag(opf, tag)[0]?.textContent?.trim() || undefined;
  if (dc("dc:title")) md.title = dc("dc:title");
  if (dc("dc:creator")) md.author = dc("dc:creator");
  if (dc("dc:description")) md.description = dc("dc:description");
  if (dc("dc:language")) md.language = (dc("dc:language") as string).split(/[-_]/)[0].toLowerCase();
  return b.build(md);
}
