import { createHash } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { insideRoot } from "../sync/roots.js";

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

/** Files up to this size are read into memory once (hash and blob); larger ones are streamed twice. */
const READ_ONCE_BYTES = 64 * 1024;
/** A file swapped for a symlink since it was resolved is not followed. */
const NOFOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;

/**
 * Open `rel` under the resolved folder `root` and hash it. Refused (an Error saying why): a path that
 * resolves outside the folder (a symlink out of it, as folder sync refuses), anything but a regular
 * file, a file over `maxBytes` (the upload limit).
 */
export async function readFolderFile(root: string, rel: string, maxBytes: number): Promise<FolderFile> {
  const real = await realpath(join(root, ...rel.split("/"))).catch(() => undefined);
  if (!real) throw new Error("no such file");
  if (!insideRoot(real, root)) throw new Error(`a link to ${real}, outside the folder: not read (add that file itself)`);
  const h = await open(real, NOFOLLOW);
  try {
    const st = await h.stat();
    if (!st.isFile()) throw new Error("not a regular file");
    if (st.size > maxBytes)
      throw new Error(`larger than the upload limit (${Math.round(maxBytes / 2 ** 20)} MiB, KBOX_MAX_UPLOAD_MB)`);
    if (st.size <= READ_ONCE_BYTES) {
      const bytes = await h.readFile();
      return { rel, real, size: bytes.length, md5: createHash("md5").update(bytes).digest("hex"), bytes };
    }
    const md5 = createHash("md5");
    for await (const chunk of h.createReadStream({ autoClose: false, start: 0 })) md5.update(chunk as Buffer);
    return { rel, real, size: st.size, md5: md5.digest("hex") };
  } finally {
    await h.close();
  }
}

/** The bytes of a file for its blob: those read with its hash (once: not held after), else the file. */
export function sourceOf(f: FolderFile): () => Readable {
  return () => {
    const bytes = f.bytes;
    f.bytes = undefined;
    // fs.createReadStream takes numeric flags; its options type only says string.
    return bytes ? Readable.from([bytes]) : createReadStream(f.real, { flags: NOFOLLOW as unknown as string });
  };
}
