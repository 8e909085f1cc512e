import { randomBytes } from "node:crypto";
import { close as closeFd, open as openFd, read as readFd } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { deflateRawSync, inflateRawSync, type ZlibOptions } from "node:zlib";
import { appended, without } from "./small-arrays.js";
import { WriteQueue } from "./write-queue.js";

/** Blobs up to this size are packed; larger ones keep a file of their own. */
export const PACK_MAX_BLOB = 64 * 1024;
/** A pack of at least this size is left alone by compaction until half of it is deleted. */
const BIG_PACK = 16 * 2 ** 20;
/** Compaction merges the small packs of a size tier once it holds more than this many. */
const MAX_SMALL_PACKS = 8;
/**
 * A pack's size tier: under 64 KiB, then each tier four times the one below. Merging one tier's packs
 * makes a pack of a higher tier, so a record is rewritten a few times in all (once per tier it climbs)
 * instead of at every compaction: merging every small pack into one that grew towards 16 MiB rewrote,
 * and re-indexed, tens of thousands of records each time (a third of the pack's work at 30,000 notes).
 */
function tierOf(size: number): number {
  return size < 2 ** 16 ? 0 : Math.floor(Math.log2(size / 2 ** 16) / 2) + 1;
}
/** Blobs just written stay in memory up to this many bytes: ingestion reads them right after. */
const RECENT_BYTES = 16 * 2 ** 20;
const MAGIC = 0x3150424b; // "KBP1"
/** A pack with compressed records (older versions refuse it as damaged instead of serving deflated bytes). */
const MAGIC_DEFLATE = 0x3250424b; // "KBP2"
const TRAILER = 8;
/** Records this small are stored as they are: deflate would gain a few bytes for its time. */
const DEFLATE_MIN = 256;
/**
 * Deflate's settings for a record of `n` bytes: the fastest level, with a window no larger than the
 * record and a hash table to match. zlib's defaults set up about 256 KB of state for each call, for a
 * 1.5 KB note; a window as large as the record finds the same matches (the same size within 0.1 % on
 * notes, SciFact abstracts and 12 to 64 KB of docs/). Any inflate reads it (its default window is the largest).
 */
function deflateOptions(n: number): ZlibOptions {
  const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(n + 1))));
  return { level: 1, windowBits, memLevel: Math.min(8, Math.max(4, windowBits - 6)) };
}

type Op = { kind: "put"; key: string; data: Buffer } | { kind: "delete"; key: string };
interface Loc {
  pack: number;
  offset: number;
  /** Bytes in the pack. */
  length: number;
  /** The blob's own size when its record is deflated (raw deflate); absent when stored as is. */
  raw?: number;
}
/** A record as a pack holds it: its bytes (deflated when `raw` is set) and the blob's size. */
type PackRecord = { key: string; data: Buffer; raw?: number };
interface PackInfo {
  size: number;
  /** Bytes of records deleted since (tombstoned). */
  dead: number;
}

/** A resource's blobs (`r/<rid>/...`) are one group: a resource's deletion finds them without a scan. */
function groupOf(key: string): string | undefined {
  const m = /^r\/[^/]+/.exec(key);
  return m?.[0];
}

const packName = (seq: number) => `${String(seq).padStart(12, "0")}.pack`;
const deadName = (seq: number) => `${String(seq).padStart(12, "0")}.dead`;

/** Write a file whole or not at all: temp file, fsync, rename (a kill leaves at most a temp file). */
async function writeAtomic(path: string, parts: Buffer[]): Promise<void> {
  const tmp = `${path}.tmp-${randomBytes(6).toString("hex")}`;
  const fh = await open(tmp, "wx", 0o600);
  try {
    await fh.writev(parts);
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Small blobs of a knowledge box packed into a few files: a folder sync of 10,000 notes wrote 20,000
 * files (each note's bytes and its extraction output), each with its own directory, temp file, fsync
 * and rename, and each taking a 4 KiB block or more for 1.5 KB. Here the small blobs that arrive
 * together (a sync chunk's files, a batch's extraction outputs) are one immutable pack file written
 * with one fsync (`writev` + `fsync` + `rename`), acknowledged only once it is renamed into place:
 * a kill loses nothing acknowledged and leaves nothing half written (a temp file, removed at open).
 *
 * Layout under `<blob root>/packs/`: `<seq>.pack` holds records then a JSON index `[[key, offset,
 * length, raw?], ...]`, its length (u32 LE) and a magic number. A record that deflates well (text,
 * Markdown, JSON: most of what is packed) is stored deflated, `raw` being the blob's own size; the
 * magic is then "KBP2". Records that are already compressed (gzip, images, PDF) are stored as they
 * are. `<seq>.dead` is a JSON array of deleted keys (keys are never rewritten: each upload gets a new
 * one). Packs and tombstones are never modified once written, so a backup's hard links stay a
 * consistent copy. Compaction merges packs (see `mergeable`) into one without their deleted records,
 * writes the tombstones still needed, and only
 * then removes the merged packs and the old tombstones: a kill in between leaves duplicates of
 * live records (the same bytes), never a deleted blob brought back.
 */
export class BlobPack {
  private readonly index = new Map<string, Loc>();
  /** Each group's keys: an array of the exact size while small (a Set per resource cost ~200 bytes). */
  private readonly groups = new Map<string, string[] | Set<string>>();
  /** The live keys of each pack (what a compaction of it copies). */
  private readonly keysOf = new Map<number, Set<string>>();
  /** Deleted keys whose records are still in a pack (their tombstone must stay until it is merged). */
  private readonly shadows = new Map<string, Loc>();
  private readonly packs = new Map<number, PackInfo>();
  private deads: number[] = [];
  private seq = 0;
  /** The latest blobs written; the oldest is evicted first. */
  private readonly recent = new Map<string, Buffer>();
  private recentBytes = 0;
  /**
   * The keys of `recent` in the order written, from `recentHead` on (a key forgotten or written again
   * meanwhile is skipped or evicted early). Evicting by iterating `recent` itself walked the holes its
   * deletes leave at the front of the map each time: 1 s of the daemon's thread over 40,000 notes.
   */
  private recentOrder: string[] = [];
  private recentHead = 0;
  private readonly queue: WriteQueue<Op>;
  private readonly files: PackFiles;

  private constructor(readonly dir: string) {
    this.queue = new WriteQueue((ops) => this.commit(ops), 4096);
    this.files = new PackFiles((seq) => join(dir, packName(seq)));
  }

  /** Open a pack folder (it need not exist): read every pack's index and apply the tombstones. */
  static async open(dir: string): Promise<BlobPack> {
    const p = new BlobPack(dir);
    let names: string[] = [];
    try {
      names = await readdir(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    const packs: number[] = [];
    for (const n of names) {
      const m = /^(\d+)\.(pack|dead)$/.exec(n);
      if (!m) {
        if (n.includes(".tmp-")) await rm(join(dir, n), { force: true }); // a write a kill interrupted: never acknowledged
        continue;
      }
      const seq = Number(m[1]);
      p.seq = Math.max(p.seq, seq);
      if (m[2] === "pack") packs.push(seq);
      else p.deads.push(seq);
    }
    for (const seq of packs.sort((a, b) => a - b)) await p.loadPack(seq);
    p.deads.sort((a, b) => a - b);
    for (const seq of p.deads) {
      const keys = JSON.parse(await readFile(join(dir, deadName(seq)), "utf8")) as string[];
      for (const k of keys) p.forget(k);
    }
    return p;
  }

  private async loadPack(seq: number): Promise<void> {
    const fh = await open(join(this.dir, packName(seq)), "r");
    try {
      const { size } = await fh.stat();
      const trailer = Buffer.alloc(TRAILER);
      await fh.read(trailer, 0, TRAILER, size - TRAILER);
      const magic = trailer.readUInt32LE(4);
      if (size < TRAILER || (magic !== MAGIC && magic !== MAGIC_DEFLATE))
        throw new Error(`blob pack ${packName(seq)} is damaged`);
      const len = trailer.readUInt32LE(0);
      const json = Buffer.alloc(len);
      await fh.read(json, 0, len, size - TRAILER - len);
      this.packs.set(seq, { size, dead: 0 });
      for (const [key, offset, length, raw] of JSON.parse(json.toString("utf8")) as [string, number, number, number?][])
        this.place(key, raw === undefined ? { pack: seq, offset, length } : { pack: seq, offset, length, raw });
    } finally {
      await fh.close();
    }
  }

  private place(key: string, loc: Loc): void {
    const before = this.index.get(key);
    if (before && before.pack !== loc.pack) this.keysOf.get(before.pack)?.delete(key);
    this.index.set(key, loc);
    const inPack = this.keysOf.get(loc.pack) ?? new Set<string>();
    this.keysOf.set(loc.pack, inPack);
    inPack.add(key);
    if (before) return; // moved by a compaction: its group has it already
    const g = groupOf(key);
    if (!g) return;
    const keys = this.groups.get(g);
    if (!keys) this.groups.set(g, [key]);
    else if (!Array.isArray(keys)) keys.add(key);
    else if (!keys.includes(key)) this.groups.set(g, keys.length < 16 ? appended(keys, key) : new Set(keys).add(key));
  }

  private remember(key: string, data: Buffer): void {
    // A small view of a larger buffer (gzipSync's output sits in a 16 KiB one) would keep all of it:
    // 16 MiB of such blobs held over 250 MiB. Keep a copy of its own bytes instead.
    if (data.byteLength * 2 < data.buffer.byteLength) data = Buffer.from(data);
    this.recentBytes += data.length - (this.recent.get(key)?.length ?? 0);
    this.recent.set(key, data);
    this.recentOrder.push(key);
    while (this.recentBytes > RECENT_BYTES && this.recentHead < this.recentOrder.length) {
      const k = this.recentOrder[this.recentHead++];
      const b = this.recent.get(k);
      if (!b) continue;
      this.recent.delete(k);
      this.recentBytes -= b.length;
    }
    // Bounded: the consumed head goes, and so do keys forgotten (deleted blobs are never evicted here).
    if (this.recentHead > 1024 && this.recentHead * 2 > this.recentOrder.length) {
      this.recentOrder = this.recentOrder.slice(this.recentHead);
      this.recentHead = 0;
    } else if (this.recentOrder.length > 4 * this.recent.size + 1024) {
      this.recentOrder = this.recentOrder.slice(this.recentHead).filter((k) => this.recent.has(k));
      this.recentHead = 0;
    }
  }

  private forget(key: string): void {
    const cached = this.recent.get(key);
    if (cached) {
      this.recent.delete(key);
      this.recentBytes -= cached.length;
    }
    const loc = this.index.get(key);
    if (!loc) return;
    this.index.delete(key);
    this.keysOf.get(loc.pack)?.delete(key);
    const g = groupOf(key);
    const keys = g ? this.groups.get(g) : undefined;
    if (g && keys) {
      let left: string[] | Set<string> = keys;
      const at = Array.isArray(keys) ? keys.indexOf(key) : -1;
      if (!Array.isArray(keys)) keys.delete(key);
      else if (at >= 0) left = without(keys, at);
      if (!(Array.isArray(left) ? left.length : left.size)) this.groups.delete(g);
      else if (left !== keys) this.groups.set(g, left);
    }
    this.shadows.set(key, loc);
    const info = this.packs.get(loc.pack);
    if (info) info.dead += loc.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  size(key: string): number | undefined {
    const loc = this.index.get(key);
    return loc?.raw ?? loc?.length;
  }

  /** Keys equal to `prefixOrKey` or under it (`prefix/...`). */
  keysUnder(prefixOrKey: string): string[] {
    const g = groupOf(prefixOrKey);
    const out: string[] = [];
    for (const k of g ? (this.groups.get(g) ?? []) : this.index.keys())
      if (k === prefixOrKey || k.startsWith(`${prefixOrKey}/`)) out.push(k);
    return out.sort();
  }

  /** The bytes of a packed blob; undefined when it is not in a pack. */
  async get(key: string): Promise<Buffer | undefined> {
    for (let attempt = 0; ; attempt++) {
      const loc = this.index.get(key);
      if (!loc) return undefined;
      const cached = this.recent.get(key);
      if (cached) return Buffer.from(cached);
      try {
        const buf = Buffer.alloc(loc.length);
        await this.files.read(loc.pack, buf, loc.offset);
        return loc.raw === undefined ? buf : inflateRawSync(buf);
      } catch (e) {
        // Merged into another pack meanwhile: the index names the new one.
        if ((e as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 2) throw e;
      }
    }
  }

  /** Resolves once the blob is in a pack on disk (with the others written meanwhile: one fsync). */
  put(key: string, data: Buffer): Promise<void> {
    return this.queue.push({ kind: "put", key, data });
  }

  /** Resolves once the deletion is on disk; a key not packed is nothing to do. */
  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.filter((k) => this.index.has(k)).map((key) => this.queue.push({ kind: "delete", key })));
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  close(reason?: string): void {
    this.queue.close(reason);
    this.files.closeAll();
  }

  /** Once closed: resolves when no pack write or merge is running. */
  stopped(): Promise<void> {
    return this.queue.stopped();
  }

  private made = false;

  private async commit(ops: Op[]): Promise<void> {
    if (!this.made) await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.made = true;
    const puts = ops.filter((o): o is Extract<Op, { kind: "put" }> => o.kind === "put");
    const deletes = ops.filter((o) => o.kind === "delete").map((o) => o.key);
    if (puts.length) {
      const seq = ++this.seq;
      const size = await this.writePack(seq, puts.map(packed));
      this.packs.set(seq, { size, dead: 0 });
      for (const p of puts) this.remember(p.key, p.data);
    }
    if (deletes.length) {
      const seq = ++this.seq;
      await writeAtomic(join(this.dir, deadName(seq)), [Buffer.from(JSON.stringify(deletes))]);
      this.deads.push(seq);
      for (const k of deletes) this.forget(k);
    }
    // A merge may fill the tier above; gathered tombstones are rewritten even with no pack to merge.
    for (let merge = this.mergeable(); merge.length || this.deads.length > MAX_SMALL_PACKS; merge = this.mergeable())
      await this.compact(new Set(merge));
  }

  /** Write records as one pack; the index is updated once it is on disk. Returns the file's size. */
  private async writePack(seq: number, records: PackRecord[]): Promise<number> {
    const locs: [string, Loc][] = [];
    let offset = 0;
    for (const r of records) {
      const loc: Loc = { pack: seq, offset, length: r.data.length };
      if (r.raw !== undefined) loc.raw = r.raw;
      locs.push([r.key, loc]);
      offset += r.data.length;
    }
    const entries = locs.map(([key, l]) => (l.raw === undefined ? [key, l.offset, l.length] : [key, l.offset, l.length, l.raw]));
    const json = Buffer.from(JSON.stringify(entries));
    const trailer = Buffer.alloc(TRAILER);
    trailer.writeUInt32LE(json.length, 0);
    trailer.writeUInt32LE(records.some((r) => r.raw !== undefined) ? MAGIC_DEFLATE : MAGIC, 4);
    await writeAtomic(join(this.dir, packName(seq)), [...records.map((r) => r.data), json, trailer]);
    for (const [key, loc] of locs) this.place(key, loc);
    return offset + json.length + TRAILER;
  }

  /**
   * The packs a compaction would merge: the small packs of each tier holding more than
   * MAX_SMALL_PACKS; and, once more than MAX_SMALL_PACKS tombstone files have gathered, every small
   * pack with deleted records and every big one mostly deleted (so deleted bytes leave the disk).
   */
  private mergeable(): number[] {
    const tiers = new Map<number, number[]>();
    const out: number[] = [];
    const sweep = this.deads.length > MAX_SMALL_PACKS;
    for (const [seq, i] of this.packs) {
      if (sweep && (i.dead * 2 > i.size || (i.dead > 0 && i.size < BIG_PACK))) out.push(seq);
      else if (i.size < BIG_PACK) {
        const tier = tiers.get(tierOf(i.size)) ?? [];
        tiers.set(tierOf(i.size), tier);
        tier.push(seq);
      }
    }
    for (const t of tiers.values()) if (t.length > MAX_SMALL_PACKS) out.push(...t);
    return out;
  }

  /** Merge packs without their deleted records (runs between commits: nothing else writes). */
  private async compact(merge: Set<number>): Promise<void> {
    const live: [string, Loc][] = [];
    for (const seq of merge) for (const key of this.keysOf.get(seq) ?? []) live.push([key, this.index.get(key) as Loc]);
    const bytes = new Map<number, Buffer>();
    for (const seq of merge) bytes.set(seq, await readFile(join(this.dir, packName(seq))));
    const records = live.map(
      ([key, loc]): PackRecord => ({
        key,
        data: (bytes.get(loc.pack) as Buffer).subarray(loc.offset, loc.offset + loc.length),
        raw: loc.raw,
      }),
    );
    if (records.length) {
      const seq = ++this.seq;
      this.packs.set(seq, { size: await this.writePack(seq, records), dead: 0 });
    }
    // Tombstones still needed: deleted records in packs that stay.
    for (const [k, loc] of this.shadows) if (merge.has(loc.pack)) this.shadows.delete(k);
    const oldDeads = this.deads;
    this.deads = [];
    if (this.shadows.size) {
      const seq = ++this.seq;
      await writeAtomic(join(this.dir, deadName(seq)), [Buffer.from(JSON.stringify([...this.shadows.keys()]))]);
      this.deads.push(seq);
    }
    for (const seq of merge) {
      await rm(join(this.dir, packName(seq)), { force: true });
      this.packs.delete(seq);
      this.keysOf.delete(seq);
      this.files.retire(seq);
    }
    for (const seq of oldDeads) await rm(join(this.dir, deadName(seq)), { force: true });
  }
}

/**
 * A blob as its pack stores it: deflated (level 1) when that saves an eighth of it or more, else as
 * it is. gzip output is not tried again. Synchronous on purpose: about 20 µs for
 * a note, where zlib's asynchronous calls each hold their own state (a quarter MB) until their turn on
 * libuv's threads, and a pack of a thousand notes held them all at once (+100 MB at the peak). A
 * worker thread deflating a pack's records in one message each way was tried too: no measurable gain
 * adding 10,000 notes, for about 40 MB more at the peak.
 */
function packed(put: { key: string; data: Buffer }): PackRecord {
  const { key, data } = put;
  if (data.length < DEFLATE_MIN || (data[0] === 0x1f && data[1] === 0x8b)) return { key, data };
  const z = deflateRawSync(data, deflateOptions(data.length));
  return z.length <= data.length - (data.length >> 3) ? { key, data: z, raw: data.length } : { key, data };
}

const openAsync = promisify(openFd);
const readAsync = promisify(readFd);
const closeAsync = promisify(closeFd);
/** Packs whose read descriptor stays open, the least recently read closed first. */
const OPEN_PACKS = 32;

interface OpenPack {
  fd: Promise<number>;
  /** Reads in flight: the descriptor is closed only once they are done (never a read on a reused number). */
  reads: number;
  retired: boolean;
}

/**
 * Read descriptors of packs, kept open: packs never change once written, so a read is one `pread`
 * instead of an open, a read and a close through a FileHandle (which, with ingestion reading notes
 * back from disk, cost more of the daemon's thread than the rest of the pack's work at 30,000 notes).
 */
class PackFiles {
  private readonly open = new Map<number, OpenPack>();
  constructor(private readonly path: (seq: number) => string) {}

  /** Fill `buf` from the pack `seq` at `offset` (ENOENT when the pack was merged away). */
  async read(seq: number, buf: Buffer, offset: number): Promise<void> {
    let f = this.open.get(seq);
    if (f)
      this.open.delete(seq); // most recently read last
    else {
      const opened: OpenPack = { fd: openAsync(this.path(seq), "r"), reads: 0, retired: false };
      opened.fd.catch(() => {
        if (this.open.get(seq) === opened) this.open.delete(seq);
      });
      f = opened;
    }
    this.open.set(seq, f);
    while (this.open.size > OPEN_PACKS) this.retire(this.open.keys().next().value as number);
    f.reads++;
    try {
      const fd = await f.fd;
      for (let done = 0; done < buf.length; ) {
        const { bytesRead } = await readAsync(fd, buf, done, buf.length - done, offset + done);
        if (!bytesRead) throw new Error(`blob pack ${this.path(seq)} is shorter than its index says`);
        done += bytesRead;
      }
    } finally {
      f.reads--;
      if (f.retired && f.reads === 0) shut(f);
    }
  }

  /** Close a pack's descriptor (least recently read, or removed by compaction) once its reads are done. */
  retire(seq: number): void {
    const f = this.open.get(seq);
    if (!f) return;
    this.open.delete(seq);
    f.retired = true;
    if (f.reads === 0) shut(f);
  }

  closeAll(): void {
    for (const seq of [...this.open.keys()]) this.retire(seq);
  }
}

function shut(f: OpenPack): void {
  f.fd.then((fd) => closeAsync(fd)).catch(() => undefined);
}
