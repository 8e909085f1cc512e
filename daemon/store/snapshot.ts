import { link, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { openDb, type Session } from "./db.js";
import { countRecords } from "./doc-table.js";
import { connectionOf } from "./health.js";
import type { BoxObjects, KbStore, Store } from "./index.js";

/** A point-in-time copy of a knowledge box's files: every table pinned at one version. */
export interface KbSnapshot {
  /** Table name → the pinned version. */
  tables: Record<string, number>;
  /** Table name → its row count at the pinned version. */
  rows: Record<string, number>;
  /** Vector columns of the paragraph table and their dimensions. */
  vectorsets: Record<string, number>;
  /** Remove the tags that kept the pinned versions from compaction. */
  release(): Promise<void>;
}

const U64_MAX = 18446744073709551615n;

/**
 * The manifest file name of one dataset version. Lance's V2 naming writes `u64::MAX - version` so
 * that the newest sorts first; V1 wrote the plain number.
 */
function manifestVersion(file: string): number | undefined {
  const m = /^(\d+)\.manifest$/.exec(file);
  if (!m) return undefined;
  const n = BigInt(m[1]);
  return Number(n > U64_MAX / 2n ? U64_MAX - n : n);
}

async function walk(dir: string, rel = ""): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(join(dir, rel), { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: string[] = [];
  for (const e of entries) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(dir, p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Hard-link `rel` from `src` to `dst`; a file removed meanwhile is skipped, an existing link kept. */
async function linkFile(src: string, dst: string, rel: string): Promise<void> {
  await mkdir(dirname(join(dst, rel)), { recursive: true, mode: 0o700 });
  try {
    await link(join(src, rel), join(dst, rel));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "EEXIST") throw e;
  }
}

/** Files to copy into a snapshot: a local folder (hard links) or a prefix of a bucket (downloads). */
interface Tree {
  name: string;
  list(): Promise<string[]>;
  copy(rel: string, dst: string): Promise<void>;
}

function localTree(root: string): Tree {
  return { name: root, list: () => walk(root), copy: (rel, dst) => linkFile(root, dst, rel) };
}

/** The objects under `prefix/` of a box on object storage; an object deleted meanwhile is skipped. */
function objectTree(o: BoxObjects, sub: string): Tree {
  const prefix = `${o.prefix}/${sub}/`;
  return {
    name: `${o.bucket.name}/${prefix}`,
    list: async () => {
      const out: string[] = [];
      for await (const obj of o.bucket.list(prefix)) out.push(obj.key.slice(prefix.length));
      return out;
    },
    copy: async (rel, dst) => {
      await o.bucket.download(`${prefix}${rel}`, join(dst, rel));
    },
  };
}

const blobTree = (kb: KbStore): Tree => (kb.objects ? objectTree(kb.objects, "blobs") : localTree(kb.blobs.root));
const tableTree = (kb: KbStore, name: string): Tree =>
  kb.objects ? objectTree(kb.objects, `lance/${name}.lance`) : localTree(tableDir(kb.dir, name));

/**
 * Link the files of one dataset version: data, deletion, index and transaction files (immutable
 * once written) and only the manifest of `version`. Newer manifests, the latest-version hint and
 * tags are left out, so the copy opens at exactly `version`. Unreferenced newer data files may
 * come along; Lance ignores them and compaction of the restored table drops them.
 */
async function linkDatasetVersion(src: Tree, dst: string, version: number): Promise<void> {
  let manifest = false;
  for (const rel of await src.list()) {
    if (rel.startsWith("_refs/")) continue;
    if (rel.startsWith("_versions/")) {
      if (manifestVersion(rel.slice("_versions/".length)) !== version) continue;
      manifest = true;
    }
    await src.copy(rel, dst);
  }
  if (!manifest) throw new Error(`manifest of version ${version} not found in ${src.name}`);
}

/** The folder of one LanceDB table of a knowledge box. */
export function tableDir(kbDir: string, table: string): string {
  return join(kbDir, "lance", `${table}.lance`);
}

/** Remove a tag from every table of a knowledge box (a snapshot a kill left behind); absent tags are fine. */
export async function dropTag(kb: KbStore, tag: string): Promise<void> {
  const db = connectionOf(kb);
  for (const name of await db.tableNames()) {
    const table = await db.openTable(name);
    try {
      await (await table.tags()).delete(tag).catch(() => undefined);
    } finally {
      table.close();
    }
  }
}

/**
 * Snapshot a knowledge box into `dest` (same filesystem) without stopping writers: pin the current
 * version of every table (tagged `tag` so that compaction keeps it), then hard-link that version's
 * files and the blob folder. Links are instant and survive later deletes in the live folders.
 * Blobs are linked before and after the pin: a blob is written before the record that references
 * it and deleted after the record goes, so the union holds every blob a pinned record names.
 */
export async function snapshotKb(kb: KbStore, dest: string, tag: string): Promise<KbSnapshot> {
  // On object storage the files are downloaded instead of linked (the archive is built locally).
  const blobSrc = blobTree(kb);
  const blobDst = join(dest, "blobs");
  await mkdir(blobDst, { recursive: true, mode: 0o700 });
  for (const rel of await blobSrc.list()) if (!rel.includes(".tmp-")) await blobSrc.copy(rel, blobDst);

  // Children first: a resource created between two pins then has no paragraphs yet (like one still
  // processing) rather than paragraphs without a resource.
  const names = (await connectionOf(kb).tableNames()).sort((a, b) => pinOrder(a) - pinOrder(b));
  const pinned: { name: string; version: number; rows: number; table: import("./db.js").Table }[] = [];
  const release = async () => {
    for (const p of pinned) {
      await (await p.table.tags()).delete(tag).catch(() => undefined);
      p.table.close();
    }
  };
  try {
    for (const name of names) {
      const table = await connectionOf(kb).openTable(name);
      // The paragraph table's latest version may be between the two commits of a replace: pin the
      // version its readers see, which never is.
      const version = name === "paragraphs" ? await kb.paragraphs.readVersion() : await table.version();
      await (await table.tags()).create(tag, version);
      pinned.push({ name, version, rows: 0, table });
      await table.checkout(version);
    }
    const seen = new Set(await walk(blobDst));
    for (const rel of await blobSrc.list()) if (!rel.includes(".tmp-") && !seen.has(rel)) await blobSrc.copy(rel, blobDst);
    for (const p of pinned) await linkDatasetVersion(tableTree(kb, p.name), tableDir(dest, p.name), p.version);
    for (const p of pinned) p.rows = await countRecords(p.table);
  } catch (e) {
    await release();
    throw e;
  }
  const vectorsets = Object.fromEntries(kb.paragraphs.vectorColumns());
  return {
    tables: Object.fromEntries(pinned.map((p) => [p.name, p.version])),
    rows: Object.fromEntries(pinned.map((p) => [p.name, p.rows])),
    vectorsets,
    release,
  };
}

function pinOrder(name: string): number {
  return name === "paragraphs" ? 0 : name === "fields" ? 1 : name === "resources" ? 2 : 3;
}

/**
 * Shrink a snapshot made by snapshotKb: merge small fragments and drop every file its tables'
 * pinned versions do not reference (older versions, newer uncommitted or unreferenced data). Safe
 * because nothing else writes to the copy, and a hard link removed here leaves the live file alone.
 */
export async function trimSnapshot(dest: string, session?: Session): Promise<void> {
  const db = await openDb(join(dest, "lance"), session);
  try {
    for (const name of await db.tableNames()) {
      const t = await db.openTable(name);
      try {
        await t.optimize({ cleanupOlderThan: new Date(Date.now() + 1000), deleteUnverified: true });
      } finally {
        t.close();
      }
    }
  } finally {
    db.close();
  }
}

/** Every file under a folder, as `/`-separated relative paths. */
export function listFiles(dir: string): Promise<string[]> {
  return walk(dir);
}

/**
 * Make `from` (a folder holding `lance/` and `blobs/`) the data of knowledge box `kbid`: any open
 * store of that box is closed and its old files removed first. The rename is atomic.
 */
export async function installKbDir(store: Store, kbid: string, from: string): Promise<void> {
  await store.dropKb(kbid);
  const remote = store.remoteKb(kbid);
  if (remote) {
    // Upload the tables and blobs; the folder stays as this machine's cache (blobs, the restore marker).
    for (const sub of ["lance", "blobs"]) {
      for (const rel of await walk(join(from, sub))) {
        const path = join(from, sub, rel);
        await remote.bucket.putFile(`${remote.prefix}/${sub}/${rel}`, path, (await stat(path)).size);
      }
    }
    await rm(join(from, "lance"), { recursive: true, force: true });
  }
  await mkdir(dirname(store.kbDir(kbid)), { recursive: true, mode: 0o700 });
  await rename(from, store.kbDir(kbid));
}
