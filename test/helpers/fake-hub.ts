/**
 * A local stand-in for the Hugging Face hub: `GET /api/models/{id}` (siblings with sizes, git blob
 * ids and LFS sha256) and `GET /{id}/resolve/{revision}/{file}` with Range, ETag and X-Linked-Etag,
 * plus faults a test can switch on (a dropped connection midway, bytes that do not match); and a
 * stand-in for remote embedding endpoints.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HubRequest {
  method: string;
  path: string;
  range?: string;
}

export interface FakeHub {
  url: string;
  /** Every request, in order. */
  requests: HubRequest[];
  /** Add or replace a repo's files. */
  add(id: string, files: Map<string, Buffer>): void;
  /** Cut the connection after `bytes` bytes of this file, for the next `times` downloads of it. */
  dropAfter(path: string, bytes: number, times?: number): void;
  /** Serve these bytes for a file instead of the ones the listing describes. */
  tamper(path: string, bytes: Buffer): void;
  /** Bytes/second cap for file bodies (0 = unlimited). */
  throttle(bytesPerSecond: number): void;
  stop(): Promise<void>;
}

const LFS_MIN = 1024 * 64;
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const gitSha1 = (b: Buffer) => createHash("sha1").update(`blob ${b.length}\0`).update(b).digest("hex");

function sibling(path: string, b: Buffer) {
  const lfs = path.endsWith(".onnx") || b.length >= LFS_MIN;
  return lfs
    ? {
        rfilename: path,
        size: b.length,
        blobId: gitSha1(Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha256(b)}\n`)),
        lfs: { sha256: sha256(b), size: b.length, pointerSize: 130 },
      }
    : { rfilename: path, size: b.length, blobId: gitSha1(b) };
}

/** Start the fake hub on 127.0.0.1 with an ephemeral port. */
export async function startFakeHub(): Promise<FakeHub> {
  const repos = new Map<string, Map<string, Buffer>>();
  const drops = new Map<string, { bytes: number; times: number }>();
  const tampered = new Map<string, Buffer>();
  const requests: HubRequest[] = [];
  let rate = 0;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://hub");
    const path = decodeURIComponent(url.pathname);
    requests.push({ method: req.method ?? "GET", path, range: req.headers.range });
    const api = /^\/api\/models\/([^/]+\/[^/]+)(?:\/revision\/([^/]+))?$/.exec(path);
    if (api) {
      const files = repos.get(api[1]);
      if (!files || (api[2] && api[2] !== "main"))
        return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Repository not found"}');
      const body = {
        id: api[1],
        modelId: api[1],
        sha: "0123456789abcdef0123456789abcdef01234567",
        siblings: [...files].map(([p, b]) => sibling(p, b)),
      };
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    }
    const file = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    const bytes = file && file[2] === "main" ? repos.get(file[1])?.get(file[3]) : undefined;
    if (!file || !bytes)
      return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Entry not found"}');
    serveFile(req, res, file[3], bytes);
  });

  function serveFile(
    req: import("node:http").IncomingMessage,
    res: import("node:http").ServerResponse,
    name: string,
    announced: Buffer,
  ): void {
    const bytes = tampered.get(name) ?? announced;
    const lfs = sibling(name, announced).lfs;
    const etag = lfs ? lfs.sha256 : gitSha1(announced);
    const headers: Record<string, string> = {
      etag: `"${etag}"`,
      "accept-ranges": "bytes",
      "content-type": "application/octet-stream",
    };
    if (lfs) headers["x-linked-etag"] = `"${etag}"`;
    let start = 0;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    if (m) {
      start = Number(m[1]);
      if (start >= bytes.length) return void res.writeHead(416, { "content-range": `bytes */${bytes.length}` }).end();
      headers["content-range"] = `bytes ${start}-${bytes.length - 1}/${bytes.length}`;
    }
    headers["content-length"] = String(bytes.length - start);
    res.writeHead(m ? 206 : 200, headers);
    if (req.method === "HEAD") return void res.end();
    const drop = drops.get(name);
    let body = bytes.subarray(start);
    if (drop && drop.times > 0) {
      drop.times--;
      body = body.subarray(0, Math.max(0, drop.bytes - start));
      // FIN rather than RST, so that the client gets every byte sent before the cut
      return void res.write(body, () => res.socket?.end());
    }
    void send(res, body);
  }

  async function send(res: import("node:http").ServerResponse, body: Buffer): Promise<void> {
    const chunk = 16 * 1024;
    for (let i = 0; i < body.length; i += chunk) {
      if (res.destroyed) return;
      if (!res.write(body.subarray(i, i + chunk))) await new Promise((r) => res.once("drain", r));
      if (rate > 0) await new Promise((r) => setTimeout(r, (chunk / rate) * 1000));
    }
    res.end();
  }

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    add: (id, files) => void repos.set(id, files),
    dropAfter: (path, bytes, times = 1) => void drops.set(path, { bytes, times }),
    tamper: (path, bytes) => void tampered.set(path, bytes),
    throttle: (bps) => {
      rate = bps;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A deterministic vector per text, not normalised (the embedder must normalise). */
export function fakeVector(text: string, dim: number): number[] {
  const h = createHash("sha256").update(text).digest();
  return Array.from({ length: dim }, (_, i) => (h[i % 32] - 128) * (1 + i));
}

interface Seen {
  path: string;
  auth?: string;
  zoneKey?: string;
  body: { input: string | string[]; model?: string };
}

/** A stand-in for embedding services: OpenAI-compatible `/v1/embeddings` (key `sk-test`) and a zone's Predict Sentences. */
export async function startEmbeddingServer(dim = 12): Promise<{ url: string; seen: Seen[]; stop: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = "";
    for await (const c of req) raw += c;
    const body = JSON.parse(raw || "{}");
    seen.push({
      path: req.url ?? "",
      auth: req.headers.authorization,
      zoneKey: req.headers["x-nuclia-serviceaccount"] as string,
      body,
    });
    const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
    if (req.url === "/v1/embeddings") {
      if (req.headers.authorization !== "Bearer sk-test")
        return void res.writeHead(401, { "content-type": "application/json" }).end('{"error":"bad key"}');
      const data = input.map((t, index) => ({ object: "embedding", index, embedding: fakeVector(t, dim) })).reverse();
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    }
    if (req.url === "/api/v1/predict/sentences") {
      const data = input.map((t, index) => ({ object: "embedding", index, embedding: fakeVector(`zone:${t}`, dim) }));
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data, model: body.model ?? "multilingual", usage: {} }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
