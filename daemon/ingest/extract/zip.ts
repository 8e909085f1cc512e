import { readFile } from "node:fs/promises";
import JSZip from "jszip";
import { DOMParser } from "linkedom";
import { asExtractionError, ExtractionError } from "./errors.js";

/** A parsed XML document (linkedom's XML DOM). */
export type XmlDoc = ReturnType<DOMParser["parseFromString"]>;
/** An element of an `XmlDoc`. */
export type XmlEl = NonNullable<XmlDoc["documentElement"]>;

/** Opens a ZIP container (OOXML, ODF, EPUB); a damaged archive is a CORRUPT_FILE error. */
export async function openZip(path: string, what: string): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(await readFile(path));
  } catch (err) {
    throw asExtractionError(err, what);
  }
}

/** Reads and parses one XML entry of the archive; a missing required entry is CORRUPT_FILE. */
export async function zipXml(zip: JSZip, name: string, what: string): Promise<XmlDoc> {
  const entry = zip.file(name);
  if (!entry) throw new ExtractionError("CORRUPT_FILE", `Cannot read ${what}: ${name} is missing`);
  return parseXml(await entry.async("string"));
}

/** Parses an XML string. */
export function parseXml(xml: string): XmlDoc {
  return new DOMParser().parseFromString(xml, "text/xml");
}

/** Elements with a qualified tag name (e.g. "a:t") under `root`, in document order. */
export function byTag(root: XmlDoc | XmlEl, tag: string): XmlEl[] {
  return Array.from(root.getElementsByTagName(tag)) as XmlEl[];
}

/** Direct children with this tag name. */
export function childrenByTag(el: XmlEl, tag: string): XmlEl[] {
  return (Array.from(el.children) as XmlEl[]).filter((c) => c.tagName === tag);
}

/** Resolves a relationship target relative to the folder of the part that references it. */
export function resolvePart(base: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = base.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}
