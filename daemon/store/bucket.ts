import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";

/** How to reach an S3-compatible service. */
export interface S3Access {
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/** One object of a listing. */
export interface ObjectInfo {
  key: string;
  size: number;
  /** The ETag without quotes: changes whenever the object's bytes do. */
  etag: string;
  modified: Date;
}

/** A client of an S3-compatible service (one per access; the SDK keeps its connections). */
export function s3Client(a: S3Access): S3Client {
  return new S3Client({
    endpoint: a.endpoint,
    region: a.region || "us-east-1",
    // A custom endpoint (MinIO, a local server) addresses buckets by path.
    forcePathStyle: Boolean(a.endpoint),
    credentials: a.accessKeyId
      ? { accessKeyId: a.accessKeyId, secretAccessKey: a.secretAccessKey ?? "", sessionToken: a.sessionToken }
      : undefined,
    maxAttempts: 4,
    // Checksums only where S3 requires them: the default (aws-chunked bodies with a CRC trailer) is
    // not understood by every S3-compatible server, which would store the framing as the object.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

const unquote = (etag: string | undefined) => (etag ?? "").replace(/^"|"$/g, "");

function missing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata?.httpStatusCode === 404;
}

/** The objects of one bucket: the few calls the store and the object-store sync make. */
export class Bucket {
  constructor(
    readonly client: S3Client,
    readonly name: string,
  ) {}

  async put(key: string, body: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.name, Key: key, Body: body }));
  }

  /** Upload a local file of `size` bytes (streamed). */
  async putFile(key: string, path: string, size: number): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.name, Key: key, Body: createReadStream(path), ContentLength: size }),
    );
  }

  /** The object's bytes; undefined when it does not exist. */
  async get(key: string): Promise<Buffer | undefined> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.name, Key: key }));
      return Buffer.from(await (r.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    } catch (e) {
      if (missing(e)) return undefined;
      throw e;
    }
  }

  /** Download an object to `path` (temp file + rename); false when it does not exist. */
  async download(key: string, path: string): Promise<boolean> {
    let r: GetObjectCommandOutput;
    try {
      r = await this.client.send(new GetObjectCommand({ Bucket: this.name, Key: key }));
    } catch (e) {
      if (missing(e)) return false;
      throw e;
    }
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      await pipeline(r.Body as Readable, createWriteStream(tmp, { mode: 0o600 }));
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    return true;
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.name, Key: key }));
      return { key, size: Number(r.ContentLength ?? 0), etag: unquote(r.ETag), modified: r.LastModified ?? new Date(0) };
    } catch (e) {
      if (missing(e)) return undefined;
      throw e;
    }
  }

  /** Every object under `prefix` (all pages). */
  async *list(prefix: string): AsyncGenerator<ObjectInfo> {
    let token: string | undefined;
    do {
      const r = await this.client.send(new ListObjectsV2Command({ Bucket: this.name, Prefix: prefix, ContinuationToken: token }));
      for (const o of r.Contents ?? [])
        if (o.Key)
          yield { key: o.Key, size: Number(o.Size ?? 0), etag: unquote(o.ETag), modified: o.LastModified ?? new Date(0) };
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
  }

  /** The "folders" right under `prefix` (common prefixes with `/`), and the objects there. */
  async children(
    prefix: string,
    limit = 1000,
    token?: string,
  ): Promise<{ prefixes: string[]; objects: ObjectInfo[]; next?: string }> {
    const r = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.name, Prefix: prefix, Delimiter: "/", MaxKeys: limit, ContinuationToken: token }),
    );
    return {
      next: r.IsTruncated ? r.NextContinuationToken : undefined,
      prefixes: (r.CommonPrefixes ?? []).flatMap((p) => (p.Prefix ? [p.Prefix] : [])),
      objects: (r.Contents ?? []).flatMap((o) =>
        o.Key ? [{ key: o.Key, size: Number(o.Size ?? 0), etag: unquote(o.ETag), modified: o.LastModified ?? new Date(0) }] : [],
      ),
    };
  }

  /** Delete every object under `prefix` (a key alone is its own prefix). */
  async deletePrefix(prefix: string): Promise<number> {
    let n = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.name, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      n += batch.length;
      batch = [];
    };
    for await (const o of this.list(prefix)) {
      if (o.key !== prefix && !o.key.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`)) continue;
      batch.push(o.key);
      if (batch.length === 1000) await flush();
    }
    await flush();
    return n;
  }

  /** Streams the object (a byte range when asked). */
  async stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const r = await this.client.send(
      new GetObjectCommand({ Bucket: this.name, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    return r.Body as Readable;
  }
}

/** The buckets an access sees (Browse of an object-store connection). */
export async function listBuckets(client: S3Client): Promise<string[]> {
  const r = await client.send(new ListBucketsCommand({}));
  return (r.Buckets ?? []).flatMap((b) => (b.Name ? [b.Name] : []));
}
