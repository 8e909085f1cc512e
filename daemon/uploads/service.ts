import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FileField } from "../../src/api/fields.js";
import type { CreateResource } from "../../src/api/resources.js";
import type { UploadResponse } from "../../src/api/uploads.js";
import type { KbService } from "../kbs/service.js";
import { assertStrategies } from "../kbs/strategies.js";
import type { ResourceRef, ResourceService } from "../resources/service.js";
import { bounded, tooLarge } from "./limits.js";
import { refuseDuplicate, type UploadMeta } from "./meta.js";

/** Where an upload goes: a new resource (field `file`), or a file field of an existing resource. */
export type UploadTarget = { kind: "new"; slug?: string } | { kind: "field"; ref: ResourceRef; field: string };

/** Direct uploads: the request body streams into the blob store and becomes a file field. */
export class UploadService {
  constructor(
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    /** The largest upload (KBOX_MAX_UPLOAD_MB), in bytes: a longer body fails with 413. */
    private readonly maxBytes: number,
  ) {}

  /** Fail early (before reading any byte) on a duplicate md5 or a missing resource. */
  async check(kbid: string, target: UploadTarget, meta: UploadMeta): Promise<void> {
    const { store } = await this.kbs.open(kbid);
    if (target.kind === "field") await this.resources.resolve(kbid, target.ref);
    await assertStrategies(store, [
      { kind: "extract", id: meta.extractStrategy, loc: ["header", "x-extract-strategy"] },
      { kind: "split", id: meta.splitStrategy, loc: ["header", "x-split-strategy"] },
    ]);
    refuseDuplicate(store, meta.md5);
  }

  /** Store `source`'s bytes as a file field; `create` is the payload of a new resource (TUS may send one). */
  async store(
    kbid: string,
    target: UploadTarget,
    meta: UploadMeta,
    source: () => Readable,
    create: CreateResource = {},
  ): Promise<UploadResponse> {
    const max = this.maxBytes;
    const unbounded = source;
    source = () => {
      const limited = bounded(max, () => undefined, tooLarge(max));
      pipeline(unbounded(), limited).catch(() => undefined);
      return limited;
    };
    const value: FileField = {
      file: { filename: meta.filename ?? null, content_type: meta.contentType },
      ...(meta.language ? { language: meta.language } : {}),
      ...(meta.password ? { password: meta.password } : {}),
      ...(meta.extractStrategy ? { extract_strategy: meta.extractStrategy } : {}),
      ...(meta.splitStrategy ? { split_strategy: meta.splitStrategy } : {}),
    };
    if (target.kind === "field") {
      const { seqid } = await this.resources.update(
        kbid,
        target.ref,
        { files: { [target.field]: value } },
        { fileSources: { [target.field]: source } },
      );
      const { res } = await this.resources.resolve(kbid, target.ref);
      return { seqid, uuid: res.id, field_id: target.field };
    }
    const input: CreateResource = {
      ...create,
      slug: create.slug ?? target.slug,
      title: create.title ?? meta.filename,
      icon: create.icon ?? (meta.contentType === "application/octet-stream" ? undefined : meta.contentType.split(";")[0]),
      origin: { ...create.origin, filename: create.origin?.filename ?? meta.filename },
      files: { ...create.files, file: value },
    };
    const { uuid, seqid } = await this.resources.create(kbid, input, { fileSources: { file: source } });
    return { seqid, uuid, field_id: "file" };
  }
}
