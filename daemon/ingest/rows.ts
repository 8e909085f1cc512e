import { createHash } from "node:crypto";
import { FIELD_LETTER, type FieldType } from "../../src/api/common.js";
import { paragraphId, type ResourceDoc } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import type { SplitParagraph } from "./types.js";

/** Field-level facets: the field's MIME type and language. */
export function fieldFacets(mime: string | undefined, lang: string | undefined): string[] {
  const out: string[] = [];
  if (mime) out.push(`/n/i/${mime.split(";")[0].trim().toLowerCase()}`);
  if (lang) out.push(`/s/p/${lang}`);
  return out;
}

/** Content hash of a paragraph's text: equal text reuses its stored vector. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 24);
}

/** One unit of a field to index: the whole field, or one conversation message (`split`). */
export interface IndexUnit {
  split: string;
  paragraphs: SplitParagraph[];
  lang: string;
}

/** Paragraph rows of one field: only what its content gives (resource attributes stay in the resource record). */
export function buildRows(
  res: ResourceDoc,
  type: FieldType,
  fieldId: string,
  units: IndexUnit[],
  mime: string | undefined,
): ParagraphRow[] {
  const rows = new Map<string, ParagraphRow>();
  for (const u of units) {
    const facets = fieldFacets(mime, u.lang);
    for (const p of u.paragraphs) {
      const id = paragraphId(res.id, `${FIELD_LETTER[type]}/${fieldId}`, u.split, p.start, p.end);
      if (rows.has(id)) continue; // a repeated message ident: keep the first, ids must be unique
      rows.set(id, {
        id,
        rid: res.id,
        field: `${FIELD_LETTER[type]}/${fieldId}`,
        field_type: type,
        split: u.split,
        start: p.start,
        end: p.end,
        page: p.page_number,
        idx: p.index,
        kind: p.kind,
        is_table: p.is_a_table,
        labels: [],
        facets,
        text: p.text,
        lang: u.lang,
        hash: textHash(p.text),
        // Keyword search indexes the title with every other paragraph (see ParagraphRow.context).
        ...(type === "generic" && fieldId === "title" ? {} : { context: res.title }),
      });
    }
  }
  return [...rows.values()];
}
