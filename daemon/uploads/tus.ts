import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { CreateResource } from "../../src/api/resources.js";
import type { UploadResponse } from "../../src/api/uploads.js";
import { exhausted, KboxError, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { bounded, tooLarge } from "./limits.js";
import { refuseDuplicate, type UploadMeta } from "./meta.js";
import type { UploadService, UploadTarget } from "./service.js";

/** A TUS upload in progress, as saved beside its partial bytes (so uploads survive restarts). */
export interface TusState {
  id: string;
  kbid: string;
  target: UploadTarget;
  /** null while the length is deferred (`upload-defer-length: 1`). */
  length: number | null;
  offset: number;
  meta: UploadMeta;
  create?: CreateResource;
  created: string;
  /** Set once the bytes became a file field; a repeated last PATCH answers the same. */
  finished?: UploadResponse;
}

/** TUS 1.0.0 (creation, creation-defer-length): chunks are appended to a file under the KB's folder. */
export class TusService {
  private readonly busy = new Set<string>();

  constructor(
    private readonly kbs: KbService,
    private readonly uploads: UploadService,
    /** The largest upload (KBOX_MAX_UPLOAD_MB), in bytes. */
    private readonly maxBytes: number,
  ) {}

  private async dir(kbid: string): Promise<string> {
    const { store } = await this.kbs.open(kbid);
    const dir = join(store.dir, "tus");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  private async save(dir: string, s: TusState): Promise<void> {
    const tmp = join(dir, `${s.id}.json.tmp`);
    await writeFile(tmp, JSON.stringify(s), { mode: 0o600 });
    await rename(tmp, join(dir, `${s.id}.json`));
  }

  /** The saved state of an upload of this knowledge box, or 404. */
  async state(kbid: string, id: string): Promise<TusState> {
    const dir = await this.dir(kbid);
    try {
      return JSON.parse(await readFile(join(dir, `${id}.json`), "utf8")) as TusState;
    } catch {
      throw notFound("Upload not found");
    }
  }

  /** Start an upload; returns its id. The duplicate (md5) and target checks happen now, not after the bytes. */
  async create(
    kbid: string,
    target: UploadTarget,
    length: number | null,
    meta: UploadMeta,
    create?: CreateResource,
  ): Promise<string> {
    if (length !== null && length > this.maxBytes) throw tooLarge(this.maxBytes);
    await this.uploads.check(kbid, target, meta);
    const dir = await this.dir(kbid);
    const id = randomBytes(16).toString("hex");
    await writeFile(join(dir, `${id}.part`), "", { mode: 0o600 });
    await this.save(dir, { id, kbid, target, length, offset: 0, meta, create, created: new Date().toISOString() });
    return id;
  }

  /**
   * Append a chunk at `offset` (412 on a mismatch). Bytes received before a broken connection are
   * kept, so the client resumes from the offset HEAD reports. The last byte turns the upload into a file field.
   */
  async patch(
    kbid: string,
    id: string,
    offset: number,
    length: number | undefined,
    body: Readable,
    type = "application/offset+octet-stream",
  ): Promise<TusState> {
    if (this.busy.has(id)) throw new KboxError(409, "Another request is writing to this upload");
    this.busy.add(id);
    try {
      const dir = await this.dir(kbid);
      const s = await this.state(kbid, id);
      if (s.finished) return s;
      // TUS's own type, raw bytes, or the file's declared type (what the hosted clients send); never a form or JSON.
      const declared = s.meta.contentType.split(";")[0].trim().toLowerCase();
      if (type !== "application/offset+octet-stream" && type !== "application/octet-stream" && type !== declared)
        throw new KboxError(415, "A TUS PATCH's Content-Type must be application/offset+octet-stream");
      if (offset !== s.offset) throw new KboxError(412, `Upload-Offset ${offset} does not match the upload's offset ${s.offset}`);
      if (length !== undefined) {
        if (s.length !== null && s.length !== length) throw new KboxError(400, "Upload-Length cannot change");
        if (length < s.offset) throw new KboxError(400, "Upload-Length is below the bytes already received");
        if (length > this.maxBytes) throw tooLarge(this.maxBytes);
        s.length = length;
      }
      // A chunk past the length (or past the limit, for a deferred length) is refused whole: the upload
      // stays at its offset, so the client can send the right chunk.
      await this.append(dir, s, body, (s.length ?? this.maxBytes) - s.offset);
      if (s.length !== null && s.offset === s.length) await this.finish(dir, s);
      return s;
    } finally {
      this.busy.delete(id);
    }
  }

  private async append(dir: string, s: TusState, body: Readable, room: number): Promise<void> {
    const part = join(dir, `${s.id}.part`);
    // Writing at the recorded offset drops whatever a crashed earlier request left past it.
    const out = createWriteStream(part, { flags: "r+", start: s.offset, flush: true });
    let overflow = false;
    try {
      await pipeline(
        body,
        bounded(room, () => (overflow = true)),
        out,
      );
    } catch (e) {
      if (overflow) {
        await truncate(part, s.offset).catch(() => undefined);
        throw s.length === null
          ? tooLarge(this.maxBytes)
          : new KboxError(413, `The chunk goes past the upload's Upload-Length (${s.length}); the upload stays at ${s.offset}`);
      }
      if (e instanceof KboxError) throw e;
      throw exhausted(e) ?? new KboxError(400, `Upload interrupted: ${(e as Error).message}`);
    } finally {
      if (!overflow) s.offset += out.bytesWritten;
      await truncate(part, s.offset).catch(() => undefined);
      await this.save(dir, s);
    }
  }

  private async finish(dir: string, s: TusState): Promise<void> {
    const part = join(dir, `${s.id}.part`);
    const size = (await stat(part)).size;
    if (size !== s.length) throw new KboxError(409, `Upload has ${size} bytes on disk, expected ${s.length}`);
    const { store } = await this.kbs.open(s.kbid);
    refuseDuplicate(store, s.meta.md5);
    s.finished = await this.uploads.store(s.kbid, s.target, s.meta, () => createReadStream(part), s.create);
    await this.save(dir, s);
    await rm(part, { force: true });
  }
}
