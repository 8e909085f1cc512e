import type { Readable } from "node:stream";
import { NUA_TEXT_FORMATS, type PushPayload } from "../../src/api/nua-processing.js";
import type { CreateResource } from "../../src/api/resources.js";
import { KboxError } from "../errors.js";

type Format = (typeof NUA_TEXT_FORMATS)[number];
const format = (f: number | Format | undefined): Format => (typeof f === "number" ? NUA_TEXT_FORMATS[f] : (f ?? "PLAIN"));

/** An uploaded file a push names by token: its name, type and bytes. */
export interface UploadedFile {
  filename: string | null;
  contentType: string;
  open: () => Readable;
}

/**
 * A push payload as a resource of the client's internal box: text and generic fields (generic ones as
 * `generic-<id>` text fields), layout blocks joined into a text field, links, files by upload token,
 * conversations (generated ones as `generated-<id>`). Throws 422 for a push with no field.
 */
export function resourceOf(
  p: PushPayload,
  file: (token: string, loc: (string | number)[]) => UploadedFile,
): { input: CreateResource; sources: Record<string, () => Readable> } {
  const texts: NonNullable<CreateResource["texts"]> = {};
  for (const [id, t] of Object.entries(p.textfield)) texts[id] = { body: t.body, format: format(t.format) };
  for (const [id, t] of Object.entries(p.genericfield)) texts[`generic-${id}`] = { body: t.body, format: format(t.format) };
  for (const [id, l] of Object.entries(p.layoutfield)) {
    const body = Object.values(l.blocks)
      .map((b) => b.payload ?? "")
      .filter(Boolean)
      .join("\n\n");
    texts[`layout-${id}`] = { body, format: "PLAIN" };
  }
  const links: NonNullable<CreateResource["links"]> = {};
  for (const [id, l] of Object.entries(p.linkfield))
    links[id] = { uri: l.link, ...(l.headers ? { headers: l.headers } : {}), ...(l.cookies ? { cookies: l.cookies } : {}) };
  const conversations: NonNullable<CreateResource["conversations"]> = {};
  const conv = (c: PushPayload["conversationfield"][string]) => ({
    messages: c.messages.map((m) => ({
      ident: m.ident,
      ...(m.timestamp ? { timestamp: m.timestamp } : {}),
      ...(m.who ? { who: m.who } : {}),
      ...(m.to ? { to: m.to } : {}),
      content: { text: m.content.text ?? "", format: format(m.content.format) },
    })),
  });
  for (const [id, c] of Object.entries(p.conversationfield)) conversations[id] = conv(c);
  for (const [id, c] of Object.entries(p.generated_conversationfield)) conversations[`generated-${id}`] = conv(c);
  const files: NonNullable<CreateResource["files"]> = {};
  const sources: Record<string, () => Readable> = {};
  for (const [id, token] of Object.entries(p.filefield)) {
    const f = file(token, ["body", "filefield", id]);
    files[id] = { file: { filename: f.filename, content_type: f.contentType } };
    sources[id] = f.open;
  }
  const count = [texts, links, conversations, files].reduce((n, o) => n + Object.keys(o).length, 0);
  if (!count)
    throw new KboxError(422, [
      {
        type: "missing",
        loc: ["body"],
        msg: "Send at least one field to process (textfield, filefield, linkfield...)",
        input: null,
      },
    ]);
  const input: CreateResource = {
    title: p.title ?? null,
    ...(p.slug ? { slug: p.slug } : {}),
    ...(p.labels.length ? { usermetadata: { classifications: p.labels.map((l) => labelOf(l)) } } : {}),
    ...(Object.keys(texts).length ? { texts } : {}),
    ...(Object.keys(links).length ? { links } : {}),
    ...(Object.keys(conversations).length ? { conversations } : {}),
    ...(Object.keys(files).length ? { files } : {}),
  };
  return { input, sources };
}

/** `labelset/label` (or a bare label, in labelset `nua`) as a classification. */
function labelOf(l: string): { labelset: string; label: string } {
  const i = l.lastIndexOf("/");
  return i > 0 ? { labelset: l.slice(0, i).replace(/^\/?l\//, ""), label: l.slice(i + 1) } : { labelset: "nua", label: l };
}
