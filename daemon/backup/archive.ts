import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { readFile, rename, rm, stat, statfs } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import * as tar from "tar";
import { KboxError } from "../errors.js";
import { listFiles } from "../store/snapshot.js";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest } from "./types.js";

/** Size and SHA-256 of a file, read as a stream. */
export async function hashFile(path: string): Promise<{ size: number; sha256: string }> {
  const h = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    h.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: h.digest("hex") };
}

/** Checksums of every file under `dir` except the manifest itself. */
export async function checksums(dir: string): Promise<BackupManifest["files"]> {
  const files: BackupManifest["files"] = {};
  for (const rel of (await listFiles(dir)).sort()) {
    if (rel !== "manifest.json") files[rel] = await hashFile(join(dir, rel));
  }
  return files;
}

/**
 * Write `dir` (manifest first) as a gzipped tar to `out`, via a `.partial` file renamed at the end
 * so that a crash never leaves a truncated archive under the final name. Returns its size.
 * `onBytes` hears the uncompressed size of each file once it is packed.
 */
export async function writeArchive(dir: string, out: string, onBytes?: (n: number) => void): Promise<number> {
  const partial = `${out}.partial`;
  const pack = tar.c(
    {
      cwd: dir,
      portable: true,
      // Small reads keep each chunk of work short, so the daemon's event loop never stalls.
      maxReadSize: 1 << 20,
      onWriteEntry: (e) => {
        if (onBytes) e.on("end", () => onBytes(e.stat?.isFile() ? e.stat.size : 0));
      },
    },
    ["manifest.json", "kb.json", "lance", "blobs"],
  );
  const file = createWriteStream(partial, { mode: 0o600, flush: true });
  try {
    // node:zlib compresses on the thread pool; tar's own gzip would run on the event loop.
    // Level 1: vectors and Lance's columnar pages hardly compress; speed matters more.
    await pipeline(pack as unknown as Readable, createGzip({ level: 1 }), file);
    await rename(partial, out);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  return (await stat(out)).size;
}

const SEGMENT = /^[A-Za-z0-9_.=-]+$/;

/** Only the archive's own layout passes: no links, devices, absolute or climbing paths. */
function allowedPath(p: string): boolean {
  const path = p.replace(/\/+$/, "");
  const parts = path.split("/");
  if (parts.some((s) => !SEGMENT.test(s) || s === "." || s === "..")) return false;
  if (parts.length === 1) return ["manifest.json", "kb.json", "lance", "blobs"].includes(path);
  return parts[0] === "lance" || parts[0] === "blobs";
}

const corrupt = (why: string) => new KboxError(400, `Backup archive is corrupt or incomplete: ${why}`);

type Sums = BackupManifest["files"];

/**
 * Unpack an archive into the empty folder `dir`, hashing every file as it is written, then check
 * it: the format must be one this kbox reads, and every file must be listed in the manifest with a
 * matching size and SHA-256, nothing missing and nothing extra. Throws a 400 KboxError otherwise;
 * by then every write has stopped, so the caller can remove `dir`.
 */
export async function extractArchive(input: Readable, dir: string): Promise<BackupManifest> {
  const sums: Sums = {};
  try {
    await unpack(input, dir, sums);
  } catch (e) {
    if (e instanceof KboxError) throw e;
    throw corrupt((e as Error).message);
  }
  const manifest = await readManifest(dir);
  verify(sums, manifest);
  return manifest;
}

/** The largest manifest read into memory (a million files listed is about 150 MB; real ones are far smaller). */
const MAX_MANIFEST = 64 * 1024 ** 2;
/** Bytes of files an archive may hold before its manifest (kbox writes it first; a hand re-pack may not). */
const BEFORE_MANIFEST = 16 * 1024 ** 2;

/**
 * What an entry may be, given the manifest read so far (`early`: bytes already unpacked before it).
 * kbox writes the manifest first, and every other file must be one it lists, with the size it lists:
 * a forged or bombed archive is refused before a byte of an unlisted or oversized file is written, not
 * after it is all unpacked. Files before the manifest are allowed up to BEFORE_MANIFEST bytes in all.
 */
function entryProblem(rel: string, size: number, manifest: BackupManifest | undefined, early: number): string | undefined {
  if (!manifest) {
    if (rel === "manifest.json") return size > MAX_MANIFEST ? `manifest.json of ${size} bytes` : undefined;
    return early + size > BEFORE_MANIFEST
      ? `more than ${BEFORE_MANIFEST} bytes before manifest.json (kbox archives hold it first; re-pack with manifest.json first)`
      : undefined;
  }
  return fileProblem(rel, size, manifest);
}

function fileProblem(rel: string, size: number, manifest: BackupManifest): string | undefined {
  const want = manifest.files[rel];
  if (!want) return `file not in the manifest: ${rel} (refused before writing it)`;
  if (want.size !== size) return `${rel} is ${size} bytes where the manifest says ${want.size} (refused before writing it)`;
  return undefined;
}

/** Refuse an archive whose listed files need more room than the disk has (507), before unpacking them. */
async function checkRoom(dir: string, m: BackupManifest): Promise<void> {
  const need = Object.values(m.files).reduce((n, f) => n + (Number.isFinite(f?.size) ? f.size : 0), 0);
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (need > free) {
    throw new KboxError(507, `The backup archive unpacks to ${need} bytes and the data folder's disk has ${free} free`);
  }
}

/** Parse the tar stream ourselves (rather than tar.x) so that we own, hash and can stop every write. */
function unpack(input: Readable, dir: string, sums: Sums): Promise<void> {
  const writes: Promise<void>[] = [];
  let manifest: BackupManifest | undefined;
  let early = 0;
  const open = new Set<import("node:fs").WriteStream>();
  let failed: Error | undefined;
  return new Promise<void>((resolve, reject) => {
    const gunzip = createGunzip();
    const fail = (e: Error) => {
      if (failed) return;
      failed = e;
      input.unpipe();
      input.destroy();
      gunzip.unpipe();
      gunzip.destroy();
      for (const ws of open) ws.destroy();
      void Promise.allSettled(writes).then(() => reject(e));
    };
    const parser = new tar.Parser({
      strict: true,
      onReadEntry: (entry) => {
        const rel = entry.path.replace(/\/+$/, "");
        const type = entry.type;
        if (failed || !allowedPath(rel) || !["File", "OldFile", "Directory"].includes(type)) {
          entry.resume();
          if (!failed) fail(corrupt(`unexpected entry ${JSON.stringify(entry.path)} (${type})`));
          return;
        }
        const target = join(dir, rel);
        if (type === "Directory") {
          mkdirSync(target, { recursive: true, mode: 0o700 });
          entry.resume();
          return;
        }
        const problem = entryProblem(rel, entry.size, manifest, early);
        if (!manifest && rel !== "manifest.json") early += entry.size;
        if (problem) {
          entry.resume();
          fail(corrupt(problem));
          return;
        }
        mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
        const ws = createWriteStream(target, { flags: "wx", mode: 0o600 });
        const h = createHash("sha256");
        const isManifest = !manifest && rel === "manifest.json";
        const kept: Buffer[] = [];
        let size = 0;
        open.add(ws);
        // One consumer that hashes and writes, with backpressure: a pipe plus a 'data' listener race.
        entry.on("data", (c: Buffer) => {
          h.update(c);
          size += c.length;
          if (isManifest) kept.push(c);
          if (!ws.write(c)) {
            entry.pause();
            ws.once("drain", () => entry.resume());
          }
        });
        entry.on("end", () => {
          sums[rel] = { size, sha256: h.digest("hex") };
          ws.end();
          if (!isManifest) return;
          // The entries after it are checked against it as they come (entryProblem), so it is read now.
          try {
            manifest = JSON.parse(Buffer.concat(kept).toString("utf8")) as BackupManifest;
            checkFormat(manifest);
          } catch (e) {
            return fail(e instanceof KboxError ? e : corrupt("no readable manifest.json"));
          }
          // What came before it is held to it now.
          for (const [f, got] of Object.entries(sums)) {
            const why = f === "manifest.json" ? undefined : fileProblem(f, got.size, manifest);
            if (why) return fail(corrupt(why));
          }
          // Writing goes on meanwhile; a refusal stops every write (fail), a few chunks in at most.
          checkRoom(dir, manifest).catch((e: Error) => fail(e));
        });
        writes.push(
          finished(ws).then(
            () => void open.delete(ws),
            (e: Error) => {
              open.delete(ws);
              fail(e);
            },
          ),
        );
      },
    });
    parser.on("error", (e: Error) => fail(e));
    parser.on("end", () => {
      void Promise.all(writes).then(() => (failed ? undefined : resolve()));
    });
    input.on("error", (e) => fail(e));
    gunzip.on("error", (e) => fail(e));
    input.pipe(gunzip).pipe(parser as unknown as NodeJS.WritableStream);
  });
}

async function readManifest(dir: string): Promise<BackupManifest> {
  let m: BackupManifest;
  try {
    m = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as BackupManifest;
  } catch {
    throw corrupt("no readable manifest.json");
  }
  checkFormat(m);
  return m;
}

/** Refuse archives of another format, or of a newer format version, with a message saying so. */
export function checkFormat(m: Partial<BackupManifest>): void {
  if (m.format !== BACKUP_FORMAT) throw new KboxError(400, `Not a kbox backup (format ${JSON.stringify(m.format ?? null)})`);
  if (m.format_version !== BACKUP_FORMAT_VERSION) {
    throw new KboxError(
      400,
      `Incompatible backup format version ${m.format_version} (made by kbox ${m.kbox_version ?? "?"}); this kbox reads version ${BACKUP_FORMAT_VERSION}`,
    );
  }
  if (!m.files || typeof m.files !== "object" || !m.kb || !m.tables) throw corrupt("manifest lacks files, kb or tables");
}

/** After unpacking: every listed file arrived with its checksum (unlisted or resized ones were refused while unpacking). */
function verify(sums: Sums, m: BackupManifest): void {
  for (const [rel, want] of Object.entries(m.files)) {
    const got = sums[rel];
    if (!got) throw corrupt(`missing file ${rel}`);
    if (got.sha256 !== want.sha256) throw corrupt(`checksum mismatch for ${rel}`);
  }
  if (!m.files["kb.json"]) throw corrupt("no kb.json");
}
