import { z } from "zod";
import { Classification, HttpUrl } from "./common.js";

export const TEXT_FORMATS = [
  "PLAIN",
  "HTML",
  "RST",
  "MARKDOWN",
  "JSON",
  "KEEP_MARKDOWN",
  "JSONL",
  "PLAIN_BLANKLINE_SPLIT",
] as const;
export const TextFormat = z.enum(TEXT_FORMATS);
export type TextFormat = z.infer<typeof TextFormat>;

const strategies = { extract_strategy: z.string().nullable().optional(), split_strategy: z.string().nullable().optional() };

/** Inline documents are capped so that one JSON body cannot exhaust memory; larger files go by upload. */
export const MAX_TEXT_BODY = 20 * 1024 * 1024;

export const TextField = z.object({
  body: z.string().max(MAX_TEXT_BODY),
  format: TextFormat.default("PLAIN"),
  md5: z.string().nullable().optional(),
  ...strategies,
});
export type TextField = z.infer<typeof TextField>;

export const LinkField = z.object({
  uri: HttpUrl,
  headers: z.record(z.string(), z.string()).optional(),
  cookies: z.record(z.string(), z.string()).optional(),
  language: z.string().nullable().optional(),
  localstorage: z.record(z.string(), z.string()).optional(),
  css_selector: z.string().nullable().optional(),
  xpath: z.string().nullable().optional(),
  ...strategies,
});
export type LinkField = z.infer<typeof LinkField>;

export const FilePayload = z.object({
  filename: z.string().max(1024).nullable().optional(),
  content_type: z.string().max(255).nullable().optional(),
  payload: z.string().nullable().optional(),
  md5: z.string().nullable().optional(),
  uri: z.string().nullable().optional(),
  extra_headers: z.record(z.string(), z.string()).optional(),
});
export const FileField = z.object({
  language: z.string().nullable().optional(),
  password: z.string().nullable().optional(),
  file: FilePayload,
  ...strategies,
});
export type FileField = z.infer<typeof FileField>;

export const MessageType = z.enum(["UNSET", "QUESTION", "ANSWER"]);
export const Message = z.object({
  ident: z.string().min(1).max(250),
  timestamp: z.string().nullable().optional(),
  who: z.string().nullable().optional(),
  to: z.array(z.string()).optional(),
  type: MessageType.optional(),
  content: z.object({
    text: z.string().max(MAX_TEXT_BODY).nullable().optional(),
    format: z.enum(["PLAIN", "HTML", "MARKDOWN", "RST", "KEEP_MARKDOWN", "JSON"]).optional(),
    attachments: z.array(FilePayload).optional(),
    attachments_fields: z.array(z.unknown()).optional(),
  }),
});
export type Message = z.infer<typeof Message>;
export const ConversationField = z.object({ messages: z.array(Message).max(10_000), ...strategies });
export type ConversationField = z.infer<typeof ConversationField>;

export const KeyValueField = z.object({ data: z.record(z.string(), z.string()) });
export type KeyValueField = z.infer<typeof KeyValueField>;

/** Paragraph-level annotations a user can attach through fieldmetadata. */
export const UserFieldMetadata = z.object({
  field: z.object({ field_type: z.string(), field: z.string() }),
  paragraphs: z.array(z.object({ key: z.string(), classifications: z.array(Classification) })).optional(),
  question_answers: z.array(z.unknown()).optional(),
  token: z.array(z.unknown()).optional(),
  selections: z.array(z.unknown()).optional(),
});
