import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { readIfSmall, streamNoFollow } from "../sync/local-read.js";
import { within } from "../sync/roots.js";

/** A file of the folder, read (or hashed) once: its MD5 is the knowledge box's duplicate check. */
export interface FolderFile {
  rel: string;
  /** Its resolved path, inside the resolved folder. */
  real: string;
  size: number;
  md5: string;
  /** The bytes of a small file, kept from the read that hashed them: its blob is written from them. */
  bytes?: Buffer;
}

/**
 * Open `rel` under the resolved folder `root` and hash it. Refused (an Error saying why): a path that
 * resolves outside the folder (a symlink out of it, as folder sync refuses), anything but a regular
 * file, a file over `maxBytes` (the upload limit). A small file is read at once on this thread (see
 * readIfSmall), a larger one streamed.
 */
export async function readFolderFile(root: string, rel: string, maxBytes: number): Promise<FolderFile> {
  let real: string;
  try {
    real = realpathSync.native(join(root, ...rel.split("/")));
  } catch {
    throw new Error("no such file");
  }
  if (!within(real, root)) throw new Error(`a link to ${real}, outside the folder: not read (add that file itself)`);
  const { size, bytes } = readIfSmall(real, (n) => {
    if (n > maxBytes) throw new Error(`larger than the upload limit (${Math.round(maxBytes / 2 ** 20)} MiB, KBOX_MAX_UPLOAD_MB)`);
  });
  if (bytes) return { rel, real, size, md5: createHash("md5").update(bytes).digest("hex"), bytes };
  const md5 = createHash("md5");
  let n = 0;
  for await (const chunk of streamNoFollow(real)) {
    md5.update(chunk as Buffer);
    n += (chunk as Buffer).length;
  }
  return { rel, real, size: n, md5: md5.digest("hex") };
}

/** The bytes of a file for its blob: those read with its hash (once: not held after), else the file. */
export function sourceOf(f: FolderFile): () => Readable {
  return () => {
    const bytes = f.bytes;
    f.bytes = undefined;
    return bytes ? Readable.from([bytes]) : streamNoFollow(f.real);
  };
}
