import { createHash } from "node:crypto";
import { FIELD_LETTER, type FieldType } from "../../src/api/common.js";
import { paragraphId, type ResourceDoc } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import type { SplitParagraph } from "./types.js";

/** The resource attributes copied onto every paragraph row, so that filters run inside LanceDB. */
export interface ResourceColumns {
  facets: string[];
  path: string;
  created: number;
  modified: number;
  hidden: boolean;
  groups: string[];
}

const ms = (s: string | null | undefined, fallback: string): number => {
  const t = s ? Date.parse(s) : Number.NaN;
  return Number.isNaN(t) ? Date.parse(fallback) || 0 : t;
};

/** Resource-level facets and columns: labels, origin tags/metadata/source, icon, path, dates, visibility, groups. */
export function resourceColumns(res: ResourceDoc): ResourceColumns {
  const facets: string[] = [];
  for (const c of res.usermetadata?.classifications ?? []) if (!c.cancelled_by_user) facets.push(`/l/${c.labelset}/${c.label}`);
  const o = res.origin;
  for (const t of o?.tags ?? []) facets.push(`/t/${t}`);
  for (const [k, v] of Object.entries(o?.metadata ?? {})) facets.push(`/m/${k}/${v}`);
  const source = o?.source_id ?? o?.source;
  if (source) facets.push(`/u/s/${source}`);
  if (res.icon) facets.push(`/n/i/${res.icon}`);
  return {
    facets,
    path: o?.path ?? "",
    created: ms(o?.created, res.created),
    modified: ms(o?.modified, res.modified),
    hidden: Boolean(res.hidden),
    groups: res.security?.access_groups ?? [],
  };
}

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

/** Paragraph labels a user attached through `fieldmetadata`, by paragraph id. */
export function userParagraphLabels(res: ResourceDoc): Map<string, string[]> {
  const out = new Map<string, string[]>();
  type Fm = { paragraphs?: { key: string; classifications: { labelset: string; label: string }[] }[] };
  for (const fm of (res.fieldmetadata ?? []) as Fm[]) {
    for (const p of fm.paragraphs ?? [])
      out.set(
        p.key,
        p.classifications.map((c) => `/l/${c.labelset}/${c.label}`),
      );
  }
  return out;
}

/** One unit of a field to index: the whole field, or one conversation message (`split`). */
export interface IndexUnit {
  split: string;
  paragraphs: SplitParagraph[];
  lang: string;
}

/** Paragraph rows of one field, with the resource's current denormalised columns. */
export function buildRows(
  res: ResourceDoc,
  type: FieldType,
  fieldId: string,
  units: IndexUnit[],
  mime: string | undefined,
): ParagraphRow[] {
  const cols = resourceColumns(res);
  const userLabels = userParagraphLabels(res);
  const rows = new Map<string, ParagraphRow>();
  for (const u of units) {
    const facets = [...new Set([...cols.facets, ...fieldFacets(mime, u.lang)])];
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
        labels: userLabels.get(id) ?? [],
        facets,
        text: p.text,
        lang: u.lang,
        path: cols.path,
        created: cols.created,
        modified: cols.modified,
        hidden: cols.hidden,
        groups: cols.groups,
        hash: textHash(p.text),
        // Keyword search indexes the title with every other paragraph (see ParagraphRow.context).
        ...(type === "generic" && fieldId === "title" ? {} : { context: res.title }),
      });
    }
  }
  return [...rows.values()];
}
