/**
 * One indexed paragraph: what ingestion derives from a field's content. Resource-level attributes
 * (labels, origin, path, dates, hidden, security groups) are not copied here: filters read them from
 * the resource records, so a PATCH applies at once and no paragraph is rewritten for it.
 */
export interface ParagraphRow {
  /** `{rid}/{letter}/{field_id}[/{split}]/{start}-{end}` */
  id: string;
  rid: string;
  /** Field key without leading slash: `t/body`. */
  field: string;
  field_type: string;
  /** Conversation message ident, or "". */
  split: string;
  start: number;
  end: number;
  page: number;
  idx: number;
  /** TEXT, OCR, INCEPTION, DESCRIPTION, TRANSCRIPT, TITLE, TABLE */
  kind: string;
  is_table: boolean;
  /** Paragraph-level labels found by processing, as `/l/{labelset}/{label}` (a user's are in the resource record). */
  labels: string[];
  /** Field-level facets: the field's `/n/i/mime`, `/s/p/lang`, and what processing found (`/e/…`, `/g/da/…`). */
  facets: string[];
  text: string;
  /** Detected language (ISO 639-1) or "". */
  lang: string;
  /** Content hash of the text, used to skip re-embedding unchanged paragraphs. */
  hash: string;
  /** Analysed keyword terms (computed from text, context and lang when absent; see daemon/text/analyzer.ts). */
  terms?: string;
  /**
   * Text indexed with the paragraph for keyword search but not shown: the resource title, so that a
   * paragraph is found in the context of its document (set it on every paragraph but the title's).
   */
  context?: string;
  /** Vectors by vectorset, stored as `vec_{name}` columns. */
  vectors?: Record<string, Float32Array | number[]>;
}
