import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type { z } from "zod";
import { FIELD_LETTER, type FieldType } from "../../src/api/common.js";
import { issue, toValidationIssues } from "../../src/api/errors.js";
import type { FileField } from "../../src/api/fields.js";
import { FIELD_BODIES, type WritableFieldType } from "../../src/api/resources.js";
import { invalid } from "../errors.js";
import type { BlobStore } from "../store/blobs.js";
import { fileBlobKey } from "../store/keys.js";

/** Bytes of a file field that arrive as a stream (uploads, sync) or were read already (a small synced file), instead of a base64 payload. */
export type FileSource = () => Readable | Buffer;

/** `{letter}/{field_id}`, the key of a field inside its resource. */
export const fieldKey = (type: FieldType, id: string) => `${FIELD_LETTER[type]}/${id}`;

export interface PreparedField {
  type: FieldType;
  id: string;
  value: unknown;
  hash: string;
  /** Blob key of a file field's bytes. */
  blob?: string;
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

function hashOf(v: unknown): string {
  return createHash("sha256").update(JSON.stringify(v)).digest("hex").slice(0, 32);
}

/**
 * Turn a validated field body into the stored value. Inline base64 file payloads are written to the
 * blob store and replaced by a reference; `loc` locates validation problems in the request.
 */
export async function prepareField(
  type: FieldType,
  id: string,
  body: unknown,
  ctx: { kbid: string; rid: string; blobs: BlobStore; loc: (string | number)[]; source?: FileSource },
): Promise<PreparedField> {
  if (type === "generic") return { type, id, value: body, hash: hashOf(body) };
  if (type !== "file") return { type, id, value: body, hash: hashOf(body) };
  const f = body as z.infer<typeof FileField>;
  const file = { ...f.file };
  let size: number | undefined;
  let md5 = file.md5 ?? undefined;
  let blob: string | undefined;
  if (ctx.source) {
    blob = fileBlobKey(ctx.rid, id);
    const written = await ctx.blobs.write(blob, ctx.source());
    size = written.size;
    md5 = written.md5;
  } else if (file.payload) {
    if (!BASE64.test(file.payload))
      throw invalid([issue("base64_decode", [...ctx.loc, "file", "payload"], "Invalid base64 payload", "<payload>")]);
    const bytes = Buffer.from(file.payload, "base64");
    blob = fileBlobKey(ctx.rid, id);
    const written = await ctx.blobs.write(blob, bytes);
    size = written.size;
    md5 = written.md5;
  }
  const { payload: _payload, ...rest } = file;
  const value = {
    ...f,
    file: {
      ...rest,
      ...(size !== undefined ? { size } : {}),
      ...(md5 ? { md5 } : {}),
      ...(blob ? { uri: `/kb/${ctx.kbid}/resource/${ctx.rid}/file/${id}/download/field` } : {}),
    },
    added: new Date().toISOString(),
  };
  return { type, id, value, hash: md5 ?? hashOf(value.file), ...(blob ? { blob } : {}) };
}

/** Validate a PUT body against its field kind's schema (422 located under `body`). */
export function parseFieldBody(type: WritableFieldType, body: unknown): unknown {
  const schema = FIELD_BODIES[type];
  const r = schema.safeParse(body);
  if (!r.success) throw invalid(toValidationIssues(r.error, "body", body));
  return r.data;
}
