import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { KbService } from "../kbs/service.js";
import type { KbDoc } from "../store/index.js";

const UPLOADS = "nua-uploads";

/** A file sent to process, found by its token. */
export interface UploadedFile {
  filename: string | null;
  contentType: string;
  size: number;
  open: () => Readable;
}

/** Store a file to process as a blob of the client's internal box; answers its token (`<box>.<id>`). */
export async function storeUpload(
  kbs: KbService,
  kb: KbDoc,
  meta: { filename?: string; contentType: string },
  body: Readable,
): Promise<string> {
  const { store } = await kbs.open(kb.uuid);
  const id = randomUUID().replace(/-/g, "");
  await store.blobs.write(`${UPLOADS}/${id}`, body);
  await store.blobs.write(`${UPLOADS}/${id}.json`, Buffer.from(JSON.stringify({ filename: meta.filename ?? null, ...meta })));
  return `${kb.uuid.replace(/-/g, "")}.${id}`;
}

/** The upload a token names, when it is in the box named `slug` (a client's own); undefined otherwise. */
export async function findUpload(kbs: KbService, slug: string, token: string): Promise<UploadedFile | undefined> {
  const [box, id] = token.split(".");
  const kb = kbs.list().find((k) => k.uuid.replace(/-/g, "") === box);
  if (!kb || kb.slug !== slug || !id || !/^[0-9a-f]{32}$/.test(id)) return undefined;
  const { store } = await kbs.open(kb.uuid);
  const size = await store.blobs.size(`${UPLOADS}/${id}`);
  if (size === undefined) return undefined;
  let text = "";
  try {
    for await (const c of store.blobs.read(`${UPLOADS}/${id}.json`)) text += c;
  } catch {}
  const meta = (() => {
    try {
      return JSON.parse(text) as { filename?: string | null; contentType?: string };
    } catch {
      return {};
    }
  })();
  return {
    filename: meta.filename ?? null,
    contentType: meta.contentType ?? "application/octet-stream",
    size,
    open: () => store.blobs.read(`${UPLOADS}/${id}`),
  };
}

/** The bytes of an upload as a download. */
export function downloadResponse(f: UploadedFile): Response {
  const headers: Record<string, string> = { "content-type": f.contentType, "content-length": String(f.size) };
  if (f.filename) headers["content-disposition"] = `attachment; filename*=UTF-8''${encodeURIComponent(f.filename)}`;
  return new Response(Readable.toWeb(f.open()) as ReadableStream, { headers });
}
