import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import S3rver from "s3rver";

/** A local S3-compatible server (s3rver) on 127.0.0.1 with its buckets, for tests and benchmarks. */
export interface LocalS3 {
  endpoint: string;
  /** The AWS_* variables a daemon (or LanceDB) needs to reach it. */
  env: Record<string, string>;
  /** The same as S3Access (daemon/store/bucket.ts). */
  access: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  /** Conditional puts refused with 412 so far (Lance commits that lost a race and retried). */
  conflicts(): number;
  close(): Promise<void>;
}

/** What the middleware uses of koa's context. */
type Context = { method: string; path: string; status: number; type: string; body: unknown; get(h: string): string };
type Next = () => Promise<unknown>;
type Listing = { objects: unknown[]; commonPrefixes: string[]; isTruncated: boolean };
type ListOptions = { delimiter?: string; prefix?: string; startAfter?: string; maxKeys?: number };
type Put = { bucket: string; key: string; content: Buffer | Readable; metadata: Record<string, string> };
type S3Store = {
  listObjects(bucket: string, o: ListOptions): Promise<Listing & { objects: { key: string }[] }>;
  existsObject(bucket: string, key: string): Promise<boolean>;
  putObject(o: Put): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
};

/**
 * Start s3rver with two fixes that make it behave as S3 does where kbox depends on it:
 * - `If-None-Match: *` on PUT (S3 since 2024, MinIO, R2, GCS): s3rver ignores it, so two Lance
 *   writers racing for the same manifest would both "win" and one commit would be silently lost.
 *   Lance commits on s3:// with exactly this conditional put, so the stand-in must honour it: the
 *   check and the write run under one lock per key, and a loser gets 412 PreconditionFailed.
 * - ListObjects with a delimiter: s3rver does not descend into folders below a common prefix, so a
 *   "folder" holding only sub-folders (a Lance table: `x.lance/_versions/...`) is never listed.
 * - PUT and DELETE as S3 has them: s3rver writes an object in place (a reader can see half of it),
 *   answers a PUT of a buffer before the bytes are written, leaves the write stream's errors
 *   unheard, and a DELETE removes the folders it empties. A PUT racing a DELETE in the same folder
 *   (Lance writing a transaction file while it cleans up old ones) then failed to open its file
 *   and threw out of the server. Here a PUT writes a file beside the object and renames it over
 *   (readers see the old or the new object), and a DELETE leaves folders, which S3 does not have.
 */
export async function startLocalS3(buckets: string[] = ["kbox"]): Promise<LocalS3> {
  const dir = mkdtempSync(join(tmpdir(), "kbox-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    directory: dir,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const store = (server as unknown as { store: S3Store }).store;
  const list = store.listObjects.bind(store);
  store.listObjects = async (bucket, o) => {
    if (!o.delimiter) return list(bucket, o);
    const all = await list(bucket, { ...o, delimiter: "", maxKeys: Number.POSITIVE_INFINITY });
    const prefix = o.prefix ?? "";
    const prefixes = new Set<string>();
    const objects = all.objects.filter((obj) => {
      const i = obj.key.slice(prefix.length).indexOf(o.delimiter as string);
      if (i === -1) return true;
      prefixes.add(obj.key.slice(0, prefix.length + i + 1));
      return false;
    });
    const max = o.maxKeys ?? Number.POSITIVE_INFINITY;
    return { objects: objects.slice(0, max), commonPrefixes: [...prefixes].sort(), isTruncated: objects.length > max };
  };
  store.putObject = async (o) => {
    const path = store.getResourcePath(o.bucket, o.key, "object");
    const body = Buffer.isBuffer(o.content) ? o.content : await collect(o.content);
    const md5 = createHash("md5").update(body).digest("hex");
    const temp = `${path}.${randomBytes(6).toString("hex")}.put`;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temp, body);
    await rename(temp, path);
    await store.putMetadata(o.bucket, o.key, o.metadata, md5);
    return { size: body.length, md5 };
  };
  store.deleteObject = async (bucket, key) => {
    for (const resource of ["object", "object.md5", "metadata.json"]) {
      await unlink(store.getResourcePath(bucket, key, resource)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "ENOENT") throw e;
      });
    }
  };
  const locks = new Map<string, Promise<void>>();
  let refused = 0;
  const conditional = async (ctx: Context, next: Next) => {
    if (ctx.method !== "PUT" || ctx.get("if-none-match") !== "*") return next();
    const [bucket, ...rest] = decodeURIComponent(ctx.path).replace(/^\//, "").split("/");
    const key = rest.join("/");
    const id = `${bucket}/${key}`;
    const before = locks.get(id) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const chain = before.then(() => mine);
    locks.set(id, chain);
    await before;
    try {
      if (await store.existsObject(bucket, key)) {
        refused++;
        ctx.status = 412;
        ctx.type = "application/xml";
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-None-Match</Condition></Error>`;
        return;
      }
      await next();
    } finally {
      release();
      if (locks.get(id) === chain) locks.delete(id);
    }
  };
  (server as unknown as { middleware: unknown[] }).middleware.unshift(conditional);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const access = { endpoint, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  return {
    endpoint,
    access,
    env: {
      AWS_ENDPOINT: endpoint,
      AWS_ALLOW_HTTP: "1",
      AWS_ACCESS_KEY_ID: access.accessKeyId,
      AWS_SECRET_ACCESS_KEY: access.secretAccessKey,
      AWS_REGION: access.region,
    },
    conflicts: () => refused,
    close: async () => {
      // Clients keep connections alive (LanceDB's pool): end them, or close() waits for them to idle out.
      const http = (server as unknown as { httpServer?: import("node:http").Server }).httpServer;
      const closing = server.close();
      http?.closeAllConnections();
      await closing;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
