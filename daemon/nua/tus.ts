import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { KboxError, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { NuaClientDoc } from "../store/index.js";
import type { NuaProcessing } from "./processing.js";

interface Upload {
  client_id: string;
  box: string;
  length: number;
  offset: number;
  meta: { filename?: string; contentType: string };
  chunks: string[];
}

const PREFIX = "nua-tus";

/**
 * Resumable (TUS 1.0.0) uploads of files to process: each chunk is a blob of the client's internal box;
 * the last one joins them into an upload like a direct one and answers its token. An upload in
 * progress is durable: its state (length, offset, chunk keys) is the blob `nua-tus/<id>/state` of
 * that box, written after each chunk, so a restart resumes it at the last chunk that was recorded
 * (a chunk cut off by the restart is not counted: the client sends it again from the offset HEAD answers).
 */
export class NuaTus {
  private readonly uploads = new Map<string, Upload>();

  constructor(
    private readonly kbs: KbService,
    private readonly processing: NuaProcessing,
  ) {}

  async create(client: NuaClientDoc, length: number | null, meta: Upload["meta"]): Promise<string> {
    if (length === null) throw new KboxError(400, "Upload-Length is required (deferred lengths are not served here)");
    const kb = await this.processing.box(client);
    const id = randomUUID().replace(/-/g, "");
    const u: Upload = { client_id: client.client_id, box: kb.uuid, length, offset: 0, meta, chunks: [] };
    await this.save(id, u);
    this.uploads.set(id, u);
    return id;
  }

  /** An upload of the client's: in memory, else its state in the client's box (after a restart). */
  async state(client: NuaClientDoc, id: string): Promise<Upload> {
    if (!/^[0-9a-f]{32}$/.test(id)) throw notFound("Unknown upload id");
    let u = this.uploads.get(id);
    if (!u) {
      const kb = await this.processing.box(client);
      const { store } = await this.kbs.open(kb.uuid);
      const raw = await store.blobs.readBuffer(`${PREFIX}/${id}/state`).catch(() => undefined);
      if (raw) {
        u = JSON.parse(raw.toString("utf8")) as Upload;
        this.uploads.set(id, u);
      }
    }
    if (!u || u.client_id !== client.client_id) throw notFound("Unknown upload id");
    return u;
  }

  private async save(id: string, u: Upload): Promise<void> {
    const { store } = await this.kbs.open(u.box);
    await store.blobs.write(`${PREFIX}/${id}/state`, Buffer.from(JSON.stringify(u)));
  }

  /** Append a chunk at `offset` (409 at another offset); answers the token once the upload is complete. */
  async patch(
    client: NuaClientDoc,
    id: string,
    offset: number,
    body: Readable,
  ): Promise<{ offset: number; length: number; token?: string }> {
    const u = await this.state(client, id);
    if (offset !== u.offset) throw new KboxError(409, `Upload-Offset ${offset} does not match the upload's offset ${u.offset}`);
    const { store } = await this.kbs.open(u.box);
    const key = `${PREFIX}/${id}/${u.chunks.length}`;
    const { size } = await store.blobs.write(key, body);
    if (u.offset + size > u.length) {
      await store.blobs.remove(key).catch(() => undefined);
      throw new KboxError(413, `The chunk goes past the upload's length (${u.length} bytes)`);
    }
    u.chunks.push(key);
    u.offset += size;
    if (u.offset < u.length) {
      await this.save(id, u);
      return { offset: u.offset, length: u.length };
    }
    const keys = [...u.chunks];
    const joined = Readable.from(
      (async function* () {
        for (const k of keys) for await (const c of store.blobs.read(k)) yield c as Buffer;
      })(),
    );
    const token = await this.processing.upload(client, u.meta, joined);
    this.uploads.delete(id);
    await store.blobs.remove(`${PREFIX}/${id}`).catch(() => undefined);
    return { offset: u.offset, length: u.length, token };
  }
}
