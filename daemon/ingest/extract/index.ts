/**
 * Extraction entry points, one per field kind. Each returns an `Extracted` (text, pages, tables,
 * breaks, metadata with language) for `splitParagraphs`; failures are `ExtractionError`s.
 */
import type { LinkField, Message, TextFormat } from "../../../src/api/fields.js";
import { detectLanguage, detectorReady, loadLanguageDetector } from "../language.js";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { asExtractionError } from "./errors.js";
import { extractFile } from "./file.js";
import { extractLink, type LinkOptions } from "./link.js";
import { plainText, textByFormat } from "./text.js";

export { ExtractionError, type ExtractionErrorCode } from "./errors.js";
export type { FetchImpl, LinkOptions } from "./link.js";

/** Sets metadata.language/languages: a caller-given language wins, then a declared one, then detection. */
function withLanguage(ex: Extracted, given?: string | null): Extracted {
  if (ex.languagesDetected) return ex;
  const detected = detectLanguage(ex.text);
  if (detectorReady()) ex.languagesDetected = true;
  const declared = given || ex.metadata.language;
  const language = declared || detected.language;
  const languages = [...new Set([...(language ? [language] : []), ...detected.languages])];
  if (language) ex.metadata.language = language;
  else delete ex.metadata.language;
  ex.metadata.languages = languages;
  return ex;
}

/** Extracts an inline text field in any of the service's text formats. */
export async function extractTextField(value: { body: string; format?: TextFormat }): Promise<Extracted> {
  await loadLanguageDetector();
  try {
    return withLanguage(textByFormat(value.body, value.format ?? "PLAIN"));
  } catch (err) {
    throw asExtractionError(err, `${value.format ?? "PLAIN"} text`);
  }
}

/** Extracts a stored file, detecting its type from its content. */
export async function extractFileField(input: {
  path: string;
  bytes?: Buffer;
  filename?: string;
  contentType?: string;
  password?: string;
  language?: string;
  ocr?: boolean;
}): Promise<Extracted> {
  const [ex] = await Promise.all([extractFile(input), loadLanguageDetector()]);
  return withLanguage(ex, input.language);
}

/** Fetches and extracts a link field (HTML main content, or any file type behind the link). */
export async function extractLinkField(value: LinkField, opts?: LinkOptions): Promise<Extracted> {
  const [ex] = await Promise.all([extractLink(value, opts), loadLanguageDetector()]);
  return withLanguage(ex, value.language);
}

/** Messages are short and may each be in another language: a conversation's are theirs, by count. */
function conversationLanguages(whole: Extracted, splits: Record<string, Extracted>): void {
  const counts = new Map<string, number>();
  for (const s of Object.values(splits)) for (const l of s.metadata.languages ?? []) counts.set(l, (counts.get(l) ?? 0) + 1);
  const languages = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([l]) => l);
  whole.metadata.languages = languages;
  if (languages.length) whole.metadata.language = languages[0];
  else delete whole.metadata.language;
}

/**
 * Language detection for an extraction made without it (in a worker that defers detection): the
 * same result as detecting during extraction, since a given or declared language is already in
 * `metadata.language` and wins over the detected one either way.
 */
export async function detectLanguages(ex: Extracted): Promise<void> {
  await loadLanguageDetector();
  if (!ex.splits) {
    withLanguage(ex);
    return;
  }
  for (const s of Object.values(ex.splits)) withLanguage(s);
  conversationLanguages(ex, ex.splits);
}

/** Extracts a conversation: one split per message ident, and the whole conversation as `text`. */
export async function extractConversationField(value: { messages: Message[] }): Promise<Extracted> {
  await loadLanguageDetector();
  const splits: Record<string, Extracted> = {};
  const b = new TextBuilder();
  for (const m of value.messages) {
    const body = m.content?.text ?? "";
    let ex: Extracted;
    try {
      ex = textByFormat(body, (m.content?.format ?? "PLAIN") as TextFormat);
    } catch {
      // One malformed message (e.g. invalid JSON) must not fail the whole conversation.
      ex = plainText(body);
    }
    if (m.who) ex.metadata.who = m.who;
    if (m.timestamp) ex.metadata.timestamp = m.timestamp;
    splits[m.ident] = withLanguage(ex);
    b.hardBreak();
    b.block(ex.text);
  }
  const whole = b.build({ mime_type: "text/x-conversation", messages: value.messages.length });
  conversationLanguages(whole, splits);
  whole.splits = splits;
  return whole;
}

/** Key-value data as text: one "key: value" paragraph per entry, in key order. */
export function extractKeyValueField(value: { data: Record<string, string> }): Extracted {
  const b = new TextBuilder();
  for (const key of Object.keys(value.data).sort()) {
    b.hardBreak();
    b.block(`${key}: ${value.data[key]}`);
  }
  return withLanguage(b.build({ mime_type: "text/x-key-value" }));
}

/** A generic field (title, summary...): its text verbatim, kind TITLE or DESCRIPTION. */
export function extractGenericField(id: "title" | "summary" | string, value: string): Extracted {
  const ex = plainText(value);
  ex.kind = id === "title" ? "TITLE" : id === "summary" ? "DESCRIPTION" : "TEXT";
  return withLanguage(ex);
}
