/**
 * `kbox models pull`: list a hub repo, download what an ONNX embedder or reranker needs into a
 * staging folder (resumable, verified), derive how to run it, and install it with one rename.
 */
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import type { PullEvent } from "../../src/api/models.js";
import { KboxError } from "../errors.js";
import type { FetchPolicy } from "../net/outbound.js";
import { downloadFile, verifyFile } from "./download.js";
import { type HubFile, type HubListing, listRepo, resolveUrl } from "./hub.js";
import { MANIFEST, type Manifest, modelDir } from "./manifest.js";
import { type KnownModel, knownModel, MODEL_ID, type OnnxSettings, pickOnnxFile, SUPPORT_FILES } from "./registry.js";

export interface PullRequest {
  id: string;
  revision?: string;
  endpoint: string;
  /** What the daemon may fetch (the hub, its redirects to a CDN); the service always passes the daemon's. */
  policy: FetchPolicy;
  /** A local folder with the repo's files, imported instead of downloaded. */
  from?: string;
  dtype?: "q8" | "fp32";
  kind?: OnnxSettings["kind"];
  pooling?: OnnxSettings["pooling"];
  query_prefix?: string;
  passage_prefix?: string;
}

const REQUIRED = ["config.json", "tokenizer.json"];

/** The canonical repo id for a request (`bge-small-en-v1.5` → `Xenova/bge-small-en-v1.5`), validated. */
export function canonicalId(ref: string): string {
  const id = knownModel(ref)?.id ?? ref.replace(/^onnx:/, "");
  if (!MODEL_ID.test(id) || id.includes("..")) {
    throw new KboxError(422, `not a model id: ${JSON.stringify(ref)} (expected owner/name, e.g. Xenova/bge-small-en-v1.5)`);
  }
  return id;
}

/** Which files of a repo to fetch: the tokenizer/config files it has and one ONNX file. */
export function planFiles(id: string, available: HubFile[], known: KnownModel | undefined, dtype?: "q8" | "fp32"): HubFile[] {
  const names = available.map((f) => f.path);
  const onnx = !dtype && known && names.includes(known.onnx_file) ? known.onnx_file : pickOnnxFile(names, dtype);
  if (!onnx)
    throw new KboxError(
      422,
      `${id} has no ONNX weights (onnx/model.onnx or onnx/model_quantized.onnx); kbox runs ONNX models — look for an onnx-community/ or Xenova/ conversion`,
    );
  for (const f of REQUIRED) if (!names.includes(f)) throw new KboxError(422, `${id} has no ${f}; it cannot be run by kbox`);
  const wanted = new Set([...SUPPORT_FILES, onnx]);
  return available.filter((f) => wanted.has(f.path));
}

/** Without a hub listing, a known model's fixed file list (sizes and checksums then come from headers). */
function knownListing(known: KnownModel, revision: string): HubListing {
  return { id: known.id, revision, files: [...known.files, known.onnx_file].map((path) => ({ path, size: null })) };
}

/** Download a model (or import a folder) and install it; emits progress events; returns its manifest. */
export async function pull(
  req: PullRequest,
  cacheDir: string,
  emit: (e: PullEvent) => void,
  signal?: AbortSignal,
): Promise<Manifest> {
  const id = canonicalId(req.id);
  const revision = req.revision ?? "main";
  const known = knownModel(id);
  const staging = join(cacheDir, ".staging", `${id.replace("/", "--")}--${revision.replace(/[^A-Za-z0-9_.-]/g, "_")}`);
  await mkdir(staging, { recursive: true });
  let listing: HubListing;
  let files: { path: string; sha256: string; size: number }[];
  if (req.from) {
    listing = { id, revision, files: await listFolder(req.from) };
    const plan = planFiles(id, listing.files, known, req.dtype);
    emit({ type: "start", id, revision, files: plan.map((f) => ({ path: f.path, size: f.size })), total_bytes: sum(plan) });
    files = await importFiles(req.from, staging, plan, emit);
  } else {
    listing = await listRepo(req.endpoint, id, revision, signal, req.policy).catch((e) => {
      // A known model can still be fetched by its fixed file list when only the listing API fails.
      if (known && e instanceof KboxError && e.status === 502) return knownListing(known, revision);
      throw e;
    });
    const plan = planFiles(id, listing.files, known, req.dtype);
    files = await downloadAll(req, id, revision, staging, plan, emit, signal);
  }
  const settings = await deriveSettings(staging, known, req, files.find((f) => f.path.endsWith(".onnx"))?.path ?? "");
  const manifest: Manifest = {
    id,
    revision,
    commit: listing.commit,
    ...settings,
    files,
    installed_at: new Date().toISOString(),
    source: req.from ? "folder" : "hub",
    origin: req.from ?? req.endpoint,
  };
  await writeFile(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  await install(cacheDir, id, staging);
  return manifest;
}

const sum = (files: HubFile[]) => files.reduce((a, f) => a + (f.size ?? 0), 0);

async function downloadAll(
  { endpoint, policy }: PullRequest,
  id: string,
  revision: string,
  staging: string,
  plan: HubFile[],
  emit: (e: PullEvent) => void,
  signal?: AbortSignal,
) {
  const total = sum(plan);
  emit({ type: "start", id, revision, files: plan.map((f) => ({ path: f.path, size: f.size })), total_bytes: total });
  const out: { path: string; sha256: string; size: number }[] = [];
  let done = 0;
  const started = Date.now();
  for (const file of plan) {
    const dest = join(staging, file.path);
    // A file finished by an earlier, interrupted pull was verified before it got its name.
    const have = await verifyFile(dest, file).catch(() => undefined);
    if (have) {
      emit({ type: "file", path: file.path, status: "cached", size: have.size });
      out.push({ path: file.path, ...have });
      done += have.size;
      continue;
    }
    let last = 0;
    const optional = !REQUIRED.includes(file.path) && !file.path.endsWith(".onnx") && file.size === null;
    const r = await downloadFile(resolveUrl(endpoint, id, revision, file.path), dest, file, {
      signal,
      policy,
      onStart: (offset, size) =>
        emit({ type: "file", path: file.path, status: offset > 0 ? "resuming" : "downloading", offset, size }),
      onProgress: (bytes, fileTotal) => {
        const now = Date.now();
        if (now - last < 100 && bytes !== fileTotal) return;
        last = now;
        const rate = (done + bytes) / Math.max(0.001, (now - started) / 1000);
        emit({
          type: "progress",
          path: file.path,
          file_bytes: bytes,
          file_total: fileTotal,
          bytes: done + bytes,
          total_bytes: Math.max(total, done + bytes),
          rate,
        });
      },
    }).catch((e) => {
      if (optional && e instanceof KboxError && e.status === 404) return undefined;
      throw e;
    });
    if (!r) continue;
    emit({ type: "file", path: file.path, status: "done", size: r.size });
    out.push({ path: file.path, sha256: r.sha256, size: r.size });
    done += r.size;
  }
  return out;
}

async function listFolder(dir: string): Promise<HubFile[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => {
    throw new KboxError(422, `cannot read the folder ${dir}`);
  });
  return entries
    .filter((e) => e.isFile())
    .map((e) => ({ path: relative(dir, join(e.parentPath, e.name)).split("\\").join("/"), size: null }));
}

async function importFiles(from: string, staging: string, plan: HubFile[], emit: (e: PullEvent) => void) {
  const out: { path: string; sha256: string; size: number }[] = [];
  for (const file of plan) {
    const dest = join(staging, file.path);
    await mkdir(dirname(dest), { recursive: true });
    await copyFile(join(from, file.path), dest);
    const v = await verifyFile(dest, file);
    emit({ type: "file", path: file.path, status: "done", size: v.size });
    out.push({ path: file.path, ...v });
  }
  return out;
}

async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  return readFile(path, "utf8").then(
    (t) => JSON.parse(t) as Record<string, unknown>,
    () => undefined,
  );
}

/** How to run the model: request options, then kbox's registry, then the repo's own files. */
async function deriveSettings(
  dir: string,
  known: KnownModel | undefined,
  req: PullRequest,
  onnxFile: string,
): Promise<OnnxSettings & { dim: number }> {
  const config = (await readJson(join(dir, "config.json"))) ?? {};
  const pooling = await readJson(join(dir, "1_Pooling/config.json"));
  const st = (await readJson(join(dir, "config_sentence_transformers.json")))?.prompts as Record<string, string> | undefined;
  const archs = Array.isArray(config.architectures) ? (config.architectures as string[]) : [];
  const kind = req.kind ?? known?.kind ?? (archs.some((a) => a.endsWith("ForSequenceClassification")) ? "reranker" : "embedder");
  const filePooling = pooling ? (pooling.pooling_mode_cls_token ? "cls" : "mean") : undefined;
  return {
    kind,
    pooling: req.pooling ?? known?.pooling ?? filePooling ?? "mean",
    normalize: known?.normalize ?? kind === "embedder",
    query_prefix: req.query_prefix ?? known?.query_prefix ?? st?.query ?? "",
    passage_prefix: req.passage_prefix ?? known?.passage_prefix ?? st?.passage ?? st?.document ?? "",
    onnx_file: onnxFile,
    dim: kind === "reranker" ? 0 : Number(config.hidden_size ?? known?.dim ?? 0),
  };
}

/** Swap the staged folder into the cache: readers see the old model or the new one, never a mix. */
async function install(cacheDir: string, id: string, staging: string): Promise<void> {
  const final = modelDir(cacheDir, id);
  await mkdir(dirname(final), { recursive: true });
  const trash = join(cacheDir, ".staging", `trash-${Date.now()}-${process.pid}`);
  const replaced = await rename(final, trash).then(
    () => true,
    () => false,
  );
  await rename(staging, final);
  if (replaced) await rm(trash, { recursive: true, force: true });
}
