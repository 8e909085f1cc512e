/**
 * Contracts between the ingestion stages: extraction (per field kind and file format) produces
 * `Extracted`; splitting turns it into `SplitParagraph`s; the queue embeds and indexes them.
 */

/** A span of the extracted text with a page number (1-based pages; 0 when the format has none). */
export interface PageSpan {
  start: number;
  end: number;
  page: number;
}

/** Text extracted from one field (or one conversation message), with what we know about it. */
export interface Extracted {
  /** The whole extracted text; paragraph offsets refer to it. */
  text: string;
  /** Page boundaries (PDF, PPTX slides, XLSX sheets...). */
  pages?: PageSpan[];
  /** Spans of `text` that are tables (XLSX/CSV rows, HTML/DOCX tables) and must be `is_a_table`. */
  tables?: { start: number; end: number }[];
  /** Hard breaks the splitter must respect (e.g. PLAIN_BLANKLINE_SPLIT, JSONL lines, markdown headings), as offsets. */
  breaks?: number[];
  /** Spans of `text` read by OCR (images, scanned PDF pages): their paragraphs are of kind OCR. */
  ocr?: { start: number; end: number }[];
  /** Paragraph kind for all of it (TEXT by default; TITLE/DESCRIPTION for generic fields). */
  kind?: "TEXT" | "OCR" | "INCEPTION" | "DESCRIPTION" | "TRANSCRIPT" | "TITLE" | "TABLE";
  metadata: {
    mime_type?: string;
    language?: string;
    languages?: string[];
    title?: string;
    description?: string;
    author?: string;
    page_count?: number;
    [k: string]: unknown;
  };
  /** Languages were detected already (on the daemon's thread; workers leave it to the daemon: finishField). */
  languagesDetected?: boolean;
  /** Conversation fields: one Extracted per message ident (the split). */
  splits?: Record<string, Extracted>;
}

/** A paragraph produced by the splitter, with offsets into `Extracted.text`. */
export interface SplitParagraph {
  start: number;
  end: number;
  text: string;
  page_number: number;
  index: number;
  kind: string;
  is_a_table: boolean;
}
