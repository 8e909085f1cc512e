/** Upload size limits (KBOX_MAX_UPLOAD_MB): refused with 413 before the bytes past the limit are written. */
import { Transform } from "node:stream";
import { KboxError } from "../errors.js";

export const tooLarge = (max: number) =>
  new KboxError(413, `The upload is larger than the daemon's ${Math.round(max / 1024 ** 2)} MB limit (KBOX_MAX_UPLOAD_MB)`);

/** Passes at most `room` bytes; one more fails the stream (after `onOverflow`) before it is written. */
export function bounded(room: number, onOverflow: () => void, error: Error = new Error("too many bytes")): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > room) {
        onOverflow();
        return done(error);
      }
      done(null, chunk);
    },
  });
}
