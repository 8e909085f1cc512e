import { closeSync, constants, createReadStream, fstatSync, openSync, readFileSync } from "node:fs";
import type { Readable } from "node:stream";

/** Files up to this size are read into memory once (hash and blob); larger ones are streamed twice. */
export const READ_ONCE_BYTES = 64 * 1024;

/** A file's bytes as a stream; a file swapped for a symlink since it was checked is not followed. */
export function streamNoFollow(abs: string): Readable {
  // fs.createReadStream takes numeric flags; its options type only says string.
  return createReadStream(abs, { flags: (constants.O_RDONLY | constants.O_NOFOLLOW) as unknown as string });
}

/**
 * Open a file without following a link and take its size and, when it is at most READ_ONCE_BYTES,
 * its bytes, without leaving the thread: for a note in the page cache this costs a tenth of an open,
 * stat, read and close through the thread pool, each a promise (which were most of a folder pass's
 * work, and of `kbox add`'s). A larger file is left to be streamed. Refused (an Error saying why):
 * anything but a regular file (a link or a pipe swapped in), a size `check` refuses.
 */
export function readIfSmall(abs: string, check?: (size: number) => void): { size: number; bytes?: Buffer } {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error("not a regular file");
    check?.(st.size);
    if (st.size > READ_ONCE_BYTES) return { size: st.size };
    const bytes = readFileSync(fd);
    // Grown past the limit since its stat: streamed from the file like any larger one.
    return bytes.length <= READ_ONCE_BYTES ? { size: bytes.length, bytes } : { size: bytes.length };
  } finally {
    closeSync(fd);
  }
}
