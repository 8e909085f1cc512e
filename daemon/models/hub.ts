/**
 * The Hugging Face hub's HTTP surface that kbox uses: the repo listing (`/api/models/{id}`, with
 * file sizes and LFS sha256) and file downloads (`/{id}/resolve/{revision}/{file}`).
 */
import { KboxError } from "../errors.js";
import { type FetchPolicy, guardedFetch } from "../net/outbound.js";

/** A file of a repo, with what the hub tells about its content. */
export interface HubFile {
  path: string;
  size: number | null;
  /** From LFS metadata (large files). */
  sha256?: string;
  /** The git blob id (small files): sha1 of `blob <size>\0<bytes>`. */
  gitSha1?: string;
}

export interface HubListing {
  id: string;
  revision: string;
  /** The commit the revision points at, when the hub says. */
  commit?: string;
  files: HubFile[];
}

/** The hub base URL: explicit, else the daemon's (KBOX_HF_ENDPOINT), without a trailing slash. */
export function hubEndpoint(explicit: string | undefined, configured: string): string {
  return (explicit || configured).replace(/\/+$/, "");
}

const encodePath = (p: string) => p.split("/").map(encodeURIComponent).join("/");

/** `{base}/{id}/resolve/{revision}/{file}`. */
export function resolveUrl(base: string, id: string, revision: string, file: string): string {
  return `${base}/${id}/resolve/${encodeURIComponent(revision)}/${encodePath(file)}`;
}

/** A fetch failure as a handled error that names the hub, never a 500. */
export function hubError(base: string, e: unknown): KboxError {
  if (e instanceof KboxError) return e;
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === "AbortError" || err.name === "TimeoutError")
    return new KboxError(504, `the model hub at ${base} did not answer in time`);
  const why = err.cause?.code ?? err.cause?.message ?? err.message;
  return new KboxError(
    502,
    `cannot reach the model hub at ${base} (${why}); set KBOX_HF_ENDPOINT to a mirror, or import a local folder with --from`,
  );
}

interface Sibling {
  rfilename: string;
  size?: number;
  blobId?: string;
  lfs?: { sha256?: string; oid?: string; size?: number };
}

/** List a repo's files with sizes and checksums; 404 when the hub has no such repo or revision. */
export async function listRepo(
  base: string,
  id: string,
  revision: string,
  signal: AbortSignal | undefined,
  policy: FetchPolicy,
): Promise<HubListing> {
  const url = `${base}/api/models/${id}${revision === "main" ? "" : `/revision/${encodeURIComponent(revision)}`}?blobs=true`;
  let res: Response;
  try {
    res = await guardedFetch(url, { signal: anySignal(signal, 30_000), headers: { accept: "application/json" } }, policy);
  } catch (e) {
    throw hubError(base, e);
  }
  if (res.status === 404 || res.status === 401)
    throw new KboxError(404, `model ${id}@${revision} not found on the hub at ${base}`);
  if (!res.ok) throw new KboxError(502, `the model hub at ${base} answered ${res.status} for ${id}`);
  const body = (await res.json().catch(() => ({}))) as { sha?: string; siblings?: Sibling[] };
  if (!Array.isArray(body.siblings)) throw new KboxError(502, `the model hub at ${base} sent no file list for ${id}`);
  const files = body.siblings
    .filter((s) => typeof s.rfilename === "string")
    .map((s) => ({
      path: s.rfilename,
      size: s.lfs?.size ?? s.size ?? null,
      sha256: s.lfs?.sha256 ?? s.lfs?.oid?.replace(/^sha256:/, ""),
      gitSha1: s.lfs ? undefined : s.blobId,
    }));
  return { id, revision, commit: body.sha, files };
}

/** A checksum from download response headers (`X-Linked-Etag` / `ETag`): sha256 for LFS files, git sha1 otherwise. */
export function checksumFromHeaders(headers: Headers): Pick<HubFile, "sha256" | "gitSha1"> {
  const raw = headers.get("x-linked-etag") ?? headers.get("etag") ?? "";
  const tag = raw.replace(/^W\//, "").replace(/"/g, "").toLowerCase();
  if (/^[0-9a-f]{64}$/.test(tag)) return { sha256: tag };
  if (/^[0-9a-f]{40}$/.test(tag)) return { gitSha1: tag };
  return {};
}

/** The caller's signal combined with a timeout. */
export function anySignal(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const t = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, t]) : t;
}
