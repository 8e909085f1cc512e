/**
 * Id and key layouts of a knowledge box's records and blobs: the store owns them, callers build and
 * parse ids only through these helpers.
 */

import { randomFillSync } from "node:crypto";

/** A field's key within its resource: `{letter}/{field_id}` (`t/body`, `f/file`). */
export type FieldKey = string;

/** The fields table's record key of one field: `{rid}/{letter}/{field_id}`. */
export const fieldRecordKey = (rid: string, key: FieldKey): string => `${rid}/${key}`;

/** `{rid}/{letter}/{field_id}[/{split}]/{start}-{end}`, the wire's paragraph id. */
export function paragraphId(rid: string, key: FieldKey, split: string, start: number, end: number): string {
  return `${rid}/${key}${split ? `/${split}` : ""}/${start}-${end}`;
}

const RID = /^[0-9a-f]{32}$/;

/** The resource of a paragraph id (or of any `{rid}/…` key); undefined when it does not start with one. */
export function ridOf(id: string): string | undefined {
  const rid = id.slice(0, 32);
  return RID.test(rid) && (id.length === 32 || id[32] === "/") ? rid : undefined;
}

/** Blob key prefix of everything stored for one resource (its files, its extracted text). */
export const resourceBlobPrefix = (rid: string): string => `r/${rid}`;

const NONCES = Buffer.alloc(4096);
let nonceAt = NONCES.length;

/**
 * Eight random hex digits for a new blob key, from a pool refilled 4 KiB at a time: a `randomBytes(4)`
 * per file field cost about 14 µs of the daemon's thread (adding 10,000 notes: 0.14 s).
 */
function blobNonce(): string {
  if (nonceAt + 4 > NONCES.length) {
    randomFillSync(NONCES);
    nonceAt = 0;
  }
  nonceAt += 4;
  return NONCES.toString("hex", nonceAt - 4, nonceAt);
}

/** Where a file field's bytes live: a new key for every upload (its last part random). */
export function fileBlobKey(rid: string, fieldId: string): string {
  return `${resourceBlobPrefix(rid)}/f/${encodeURIComponent(fieldId).replace(/%/g, "_")}/${blobNonce()}`;
}

/** Where a field's extraction output lives. */
export const extractedBlobKey = (rid: string, name: string): string => `${resourceBlobPrefix(rid)}/extracted/${name}`;
