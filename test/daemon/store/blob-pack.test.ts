import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { BlobPack, PACK_MAX_BLOB } from "../../../daemon/store/blob-pack.js";
import { BlobStore } from "../../../daemon/store/blobs.js";

const root = mkdtempSync(join(tmpdir(), "kbox-pack-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const text = async (r: Readable) => {
  let s = "";
  for await (const c of r) s += c;
  return s;
};

describe("BlobPack (small blobs packed, one fsync per batch)", () => {
  it("writes blobs that arrive together as one pack file, and reads them back after a reopen", async () => {
    const dir = join(root, "a");
    const p = await BlobPack.open(dir);
    await Promise.all(Array.from({ length: 100 }, (_, i) => p.put(`r/x${i}/f/file/n`, Buffer.from(`blob ${i}`))));
    expect(readdirSync(dir).filter((n) => n.endsWith(".pack")).length).toBeLessThanOrEqual(2);
    expect((await p.get("r/x7/f/file/n"))?.toString()).toBe("blob 7");
    const again = await BlobPack.open(dir);
    expect((await again.get("r/x99/f/file/n"))?.toString()).toBe("blob 99");
    expect(again.size("r/x3/f/file/n")).toBe(6);
    expect(again.keysUnder("r/x1")).toEqual(["r/x1/f/file/n"]);
  });

  it("keeps deletions across a reopen, and compaction drops deleted records without losing live ones", async () => {
    const dir = join(root, "b");
    const p = await BlobPack.open(dir);
    // One pack per put (each awaited alone): compaction merges them once there are more than eight.
    // Bytes that do not deflate, so that the disk figure below counts the records themselves.
    const records = Array.from({ length: 30 }, () => randomBytes(1000));
    const record = (i: number) => records[i];
    for (let i = 0; i < 30; i++) await p.put(`k/${i}`, record(i));
    for (let i = 0; i < 30; i += 2) await p.delete([`k/${i}`]);
    const files = readdirSync(dir);
    expect(files.filter((n) => n.endsWith(".pack")).length).toBeLessThanOrEqual(9);
    expect(files.filter((n) => n.endsWith(".dead")).length).toBeLessThanOrEqual(9);
    const again = await BlobPack.open(dir);
    for (let i = 0; i < 30; i++) {
      const b = await again.get(`k/${i}`);
      if (i % 2) expect(b?.equals(record(i))).toBe(true);
      else expect(b).toBeUndefined();
    }
    // Deleted records' bytes leave the disk at compaction: 15 live records of 1000 bytes, at most the
    // records of the eight deletions since the last compaction, and the indexes.
    const bytes = readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    expect(bytes).toBeLessThan((15 + 8) * 1000 + 4000);
  });

  it("ignores what a kill left half written (a temp file) and removes it", async () => {
    const dir = join(root, "c");
    const p = await BlobPack.open(dir);
    await p.put("done", Buffer.from("acknowledged"));
    writeFileSync(join(dir, "000000000009.pack.tmp-abcdef"), Buffer.from("torn"));
    const again = await BlobPack.open(dir);
    expect((await again.get("done"))?.toString()).toBe("acknowledged");
    expect(readdirSync(dir).some((n) => n.includes(".tmp-"))).toBe(false);
  });
  it("stores text deflated and compressed bytes as they are; reads, sizes and compaction see the blob's own bytes", async () => {
    const dir = join(root, "z");
    const p = await BlobPack.open(dir);
    const note = Buffer.from(Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of a note about lighthouses.\n`).join(""));
    const noise = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 2654435761) >>> 24));
    const gz = Buffer.concat([Buffer.from([0x1f, 0x8b]), note]);
    await Promise.all([p.put("r/t/f/file/note", note), p.put("r/t/f/file/noise", noise), p.put("r/t/x/out", gz)]);
    const packs = () => readdirSync(dir).filter((n) => n.endsWith(".pack"));
    const onDisk = packs().reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    // The note deflates to a fraction; noise and gzip output are stored as they are.
    expect(onDisk).toBeLessThan(note.length / 2 + noise.length + gz.length + 400);
    for (const q of [p, await BlobPack.open(dir)]) {
      expect((await q.get("r/t/f/file/note"))?.equals(note)).toBe(true);
      expect((await q.get("r/t/f/file/noise"))?.equals(noise)).toBe(true);
      expect((await q.get("r/t/x/out"))?.equals(gz)).toBe(true);
      expect(q.size("r/t/f/file/note")).toBe(note.length);
      expect(q.size("r/t/f/file/noise")).toBe(noise.length);
    }
    // Compaction (more than eight small packs) carries deflated records over as they are.
    const again = await BlobPack.open(dir);
    for (let i = 0; i < 12; i++) await again.put(`k/${i}`, Buffer.from(`${"text ".repeat(100)}${i}`));
    expect(packs().length).toBeLessThanOrEqual(9);
    const last = await BlobPack.open(dir);
    expect((await last.get("r/t/f/file/note"))?.equals(note)).toBe(true);
    expect((await last.get("k/11"))?.toString()).toBe(`${"text ".repeat(100)}11`);
    expect(last.size("k/11")).toBe(502);
  });

  it("deflates records of every size up to the largest packed with zlib's default window's results, each read back", async () => {
    const dir = join(root, "sizes");
    const p = await BlobPack.open(dir);
    // Words in no order, then repeated from 20,000 bytes back: only a window that reaches them finds the repeats.
    const words = Array.from(
      { length: 6000 },
      (_, i) => ["tide", "gull", "reef", "kelp", "dune", "cove"][(i * 7919) % 6] + ((i * 104729) % 97),
    );
    const source = Buffer.from(words.join(" ")).subarray(0, 20_000);
    const sizes = [257, 511, 512, 1500, 4096, 4097, 20_000, 32_768, 32_769, 50_000, PACK_MAX_BLOB];
    const blobs = sizes.map((n) =>
      Buffer.concat(Array.from({ length: Math.ceil(n / source.length) }, () => source)).subarray(0, n),
    );
    await Promise.all(blobs.map((b, i) => p.put(`r/s/f/file/${i}`, b)));
    const [pack] = readdirSync(dir).filter((n) => n.endsWith(".pack"));
    const bytes = readFileSync(join(dir, pack));
    const records = bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8);
    const zlibs = blobs.reduce((n, b) => n + deflateRawSync(b, { level: 1 }).length, 0);
    expect(records).toBeLessThanOrEqual(zlibs * 1.01);
    for (const q of [p, await BlobPack.open(dir)])
      for (const [i, b] of blobs.entries()) expect((await q.get(`r/s/f/file/${i}`))?.equals(b)).toBe(true);
  });

  it("reads through descriptors it keeps open: many packs, reads racing a compaction, none left open after close", async () => {
    const dir = join(root, "fds");
    const fds = () => readdirSync("/proc/self/fd").length;
    const before = fds();
    const p = await BlobPack.open(dir);
    const blob = (i: number) => Buffer.from(Array.from({ length: 300 }, (_, k) => (i * 7919 + k * 31) % 251));
    // Forty packs of one blob each, read back while more are written (compaction merges and removes packs).
    for (let i = 0; i < 40; i++) await p.put(`k/${i}`, blob(i));
    const fresh = await BlobPack.open(dir); // nothing in its memory: every read goes to a pack file
    const reads = Array.from({ length: 40 }, (_, i) => fresh.get(`k/${i}`));
    for (let i = 40; i < 60; i++) await fresh.put(`k/${i}`, blob(i));
    const got = await Promise.all([...reads, ...Array.from({ length: 60 }, (_, i) => fresh.get(`k/${i}`))]);
    for (const [n, b] of got.entries()) expect(b?.equals(blob(n < 40 ? n : n - 40))).toBe(true);
    expect(fds()).toBeLessThanOrEqual(before + 32 + 2);
    p.close();
    fresh.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(fds()).toBeLessThanOrEqual(before + 1);
  });

  it("merges packs by size tier: a merged pack is not rewritten by the compactions of smaller ones", async () => {
    const dir = join(root, "tiers");
    const p = await BlobPack.open(dir);
    const blobs = Array.from({ length: 90 }, () => randomBytes(8 * 1024));
    const packs = () => readdirSync(dir).filter((n) => n.endsWith(".pack"));
    // 81 packs of one 8 KiB blob: nine merges of small packs, then one of the nine packs they made.
    for (let i = 0; i < 81; i++) await p.put(`t/${i}`, blobs[i]);
    const big = packs().filter((n) => statSync(join(dir, n)).size > 500 * 1024);
    expect(big).toHaveLength(1);
    // Nine more small packs: they merge among themselves; the big pack stays as it was written.
    for (let i = 81; i < 90; i++) await p.put(`t/${i}`, blobs[i]);
    expect(packs()).toContain(big[0]);
    expect(packs().length).toBeLessThanOrEqual(3);
    const again = await BlobPack.open(dir);
    for (let i = 0; i < 90; i++) expect((await again.get(`t/${i}`))?.equals(blobs[i])).toBe(true);
  });

  it("keeps the latest blobs written in memory up to its bound, evicting the oldest first", async () => {
    const p = await BlobPack.open(join(root, "recent"));
    const seen = p as unknown as { recent: Map<string, Buffer>; recentBytes: number };
    const blob = (i: number) => randomBytes(256 * 1024).fill(i % 251, 0, 8);
    // 96 blobs of 256 KiB (24 MiB) in batches, with deletions among them: the cache holds 16 MiB at most.
    for (let b = 0; b < 12; b++) {
      await Promise.all(Array.from({ length: 8 }, (_, j) => p.put(`r/m${b * 8 + j}/f/file/x`, blob(b * 8 + j))));
      if (b % 3 === 1) await p.delete([`r/m${b * 8}/f/file/x`]);
    }
    expect(seen.recentBytes).toBeLessThanOrEqual(16 * 2 ** 20);
    expect(seen.recentBytes).toBe([...seen.recent.values()].reduce((n, x) => n + x.length, 0));
    // The newest are the ones kept; the oldest went first.
    expect(seen.recent.has("r/m95/f/file/x")).toBe(true);
    expect(seen.recent.has("r/m0/f/file/x")).toBe(false);
    // Evicted or not, every live blob reads back whole; deleted ones are gone.
    for (let i = 1; i < 96; i++) {
      const got = await p.get(`r/m${i}/f/file/x`);
      if (i % 24 === 8) expect(got).toBeUndefined();
      else expect(got?.subarray(0, 8)).toEqual(Buffer.alloc(8, i % 251));
    }
  });

  it("lists a resource's keys through deletions, for a few keys and for many", async () => {
    const p = await BlobPack.open(join(root, "groups"));
    const keys = (g: string, n: number) => Array.from({ length: n }, (_, i) => `r/${g}/f/file/${String(i).padStart(2, "0")}`);
    await Promise.all([...keys("few", 3), ...keys("many", 40)].map((k) => p.put(k, Buffer.from(k))));
    await p.delete([keys("few", 3)[1], ...keys("many", 40).filter((_, i) => i % 3 === 0)]);
    expect(p.keysUnder("r/few")).toEqual([keys("few", 3)[0], keys("few", 3)[2]]);
    expect(p.keysUnder("r/many")).toEqual(keys("many", 40).filter((_, i) => i % 3 !== 0));
    await p.delete([...keys("few", 3), ...keys("many", 40)]);
    expect([...p.keysUnder("r/few"), ...p.keysUnder("r/many")]).toEqual([]);
    const again = await BlobPack.open(join(root, "groups"));
    expect(again.keysUnder("r/many")).toEqual([]);
  });

  it("reads packs written before records were deflated (KBP1)", async () => {
    const dir = join(root, "v1");
    mkdirSync(dir, { recursive: true });
    const body = Buffer.from("a blob of an older kbox");
    const index = Buffer.from(JSON.stringify([["r/o/f/file/1", 0, body.length]]));
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(index.length, 0);
    trailer.writeUInt32LE(0x3150424b, 4);
    writeFileSync(join(dir, "000000000001.pack"), Buffer.concat([body, index, trailer]));
    const p = await BlobPack.open(dir);
    expect((await p.get("r/o/f/file/1"))?.equals(body)).toBe(true);
    expect(p.size("r/o/f/file/1")).toBe(body.length);
  });
});

describe("BlobStore with packs", () => {
  it("packs small blobs (bytes or streams), keeps large ones as files, reads both, and removes by prefix", async () => {
    const blobs = new BlobStore(join(root, "store"));
    const small = await blobs.write("r/aa/f/file/1", Readable.from([Buffer.from("hello "), Buffer.from("world")]));
    expect(small.size).toBe(11);
    const big = Buffer.alloc(PACK_MAX_BLOB + 10, 7);
    await blobs.write("r/aa/f/big/2", Readable.from([big.subarray(0, 5000), big.subarray(5000)]));
    expect(statSync(blobs.path("r/aa/f/big/2")).size).toBe(big.length);
    expect(() => statSync(blobs.path("r/aa/f/file/1"))).toThrow(); // packed: no file of its own
    expect(await blobs.size("r/aa/f/file/1")).toBe(11);
    expect(await text(blobs.read("r/aa/f/file/1"))).toBe("hello world");
    expect(await text(blobs.read("r/aa/f/file/1", { start: 6, end: 10 }))).toBe("world");
    expect((await blobs.readBuffer("r/aa/f/big/2"))?.equals(big)).toBe(true);
    // A worker reads a path: the packed blob gets a cache file.
    expect(statSync(await blobs.ensureLocal("r/aa/f/file/1")).size).toBe(11);
    expect(await blobs.keysUnder("r/aa")).toEqual(["r/aa/f/big/2", "r/aa/f/file/1"]);
    await blobs.remove("r/aa");
    expect(await blobs.keysUnder("r/aa")).toEqual([]);
    expect(await blobs.readBuffer("r/aa/f/file/1")).toBeUndefined();
    expect(await new BlobStore(join(root, "store")).readBuffer("r/aa/f/file/1")).toBeUndefined();
  });

  it("brings no folder back once closed: a large write and a cache copy under way when the box is deleted", async () => {
    const blobs = new BlobStore(join(root, "closing"));
    await blobs.write("r/cc/f/file/1", Buffer.from("small, packed"));
    // A large blob whose bytes are still arriving when the store closes (its box deleted).
    const big = new Readable({ read() {} });
    big.push(Buffer.alloc(PACK_MAX_BLOB + 10, 1));
    const writing = blobs.write("r/cc/f/big/2", big);
    // A packed blob's cache copy for a worker, asked at the same moment.
    const copying = blobs.ensureLocal("r/cc/f/file/1");
    blobs.close("the knowledge box was deleted");
    rmSync(join(root, "closing"), { recursive: true, force: true }); // dropKb moves the folder away
    big.push(null);
    await expect(writing).rejects.toThrow("the knowledge box was deleted");
    await expect(copying).rejects.toThrow("the knowledge box was deleted");
    expect(existsSync(join(root, "closing"))).toBe(false);
  });

  it("still reads blobs stored as files before packs existed", async () => {
    const blobs = new BlobStore(join(root, "old"));
    const p = blobs.path("r/bb/f/file/old");
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, "from an older kbox");
    expect((await blobs.readBuffer("r/bb/f/file/old"))?.toString()).toBe("from an older kbox");
    expect(await blobs.size("r/bb/f/file/old")).toBe(18);
    await blobs.remove("r/bb");
    expect(await blobs.readBuffer("r/bb/f/file/old")).toBeUndefined();
  });
});
