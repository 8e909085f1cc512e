/**
 * Issue 15, fault 11: an import archive is checked against its manifest while it is unpacked — the
 * manifest first, then each file listed with its size — so a forged or bombed archive is refused
 * before its unlisted or oversized file is written (a 300 KB archive once wrote 252 MB before its 400).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { extractArchive } from "../../../daemon/backup/archive.js";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from "../../../daemon/backup/types.js";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const temp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  roots.push(d);
  return d;
};
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** A gzipped tar of `files` in the given order; `listed` is what the manifest says (default: the files themselves). */
function archive(files: [string, Buffer][], listed?: Record<string, { size: number; sha256: string }>): Readable {
  const src = temp("kbox-arch-src-");
  const kbJson = Buffer.from(JSON.stringify({ uuid: "x", slug: "x" }));
  const all: [string, Buffer][] = [["kb.json", kbJson], ...files];
  const manifest = {
    format: BACKUP_FORMAT,
    format_version: BACKUP_FORMAT_VERSION,
    kbox_version: "test",
    created: new Date().toISOString(),
    kb: { id: "x", slug: "x", title: "x", created: new Date().toISOString() },
    tables: {},
    embedder: { learning_configuration: {}, vectorsets: {} },
    counts: { resources: 0, paragraphs: 0 },
    files: listed ?? Object.fromEntries(all.map(([p, b]) => [p, { size: b.length, sha256: sha(b) }])),
  };
  writeFileSync(join(src, "manifest.json"), JSON.stringify(manifest));
  for (const [p, b] of all) {
    mkdirSync(join(src, p, ".."), { recursive: true });
    writeFileSync(join(src, p), b);
  }
  const order = ["manifest.json", ...all.map(([p]) => p)];
  const raw = tar.c({ cwd: src, portable: true, sync: true }, order) as unknown as { read(): Buffer | null };
  const chunks: Buffer[] = [];
  for (let c = raw.read(); c; c = raw.read()) chunks.push(c);
  return Readable.from([gzipSync(Buffer.concat(chunks))]);
}

describe("import archives are checked against their manifest while unpacking", () => {
  it("unpacks an archive whose files are those its manifest lists", async () => {
    const dir = temp("kbox-arch-ok-");
    const m = await extractArchive(archive([["blobs/a", Buffer.from("hello")]]), dir);
    expect(Object.keys(m.files).sort()).toEqual(["blobs/a", "kb.json"]);
  });

  it("refuses an unlisted file before writing a byte of it", async () => {
    const dir = temp("kbox-arch-bomb-");
    const bomb = Buffer.alloc(20 * 1024 ** 2); // 20 MB of zeros: about 20 KB compressed
    const kb = Buffer.from(JSON.stringify({ uuid: "x", slug: "x" }));
    const p = extractArchive(archive([["blobs/bomb", bomb]], { "kb.json": { size: kb.length, sha256: sha(kb) } }), dir);
    await expect(p).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("file not in the manifest: blobs/bomb"),
    });
    expect(existsSync(join(dir, "blobs", "bomb"))).toBe(false);
  });

  it("refuses a file larger than its manifest says before writing it", async () => {
    const dir = temp("kbox-arch-size-");
    const big = Buffer.alloc(5 * 1024 ** 2);
    const kb = Buffer.from(JSON.stringify({ uuid: "x", slug: "x" }));
    const listed = { "kb.json": { size: kb.length, sha256: sha(kb) }, "blobs/big": { size: 10, sha256: sha(big) } };
    const p = extractArchive(archive([["blobs/big", big]], listed), dir);
    await expect(p).rejects.toMatchObject({ status: 400, message: expect.stringContaining("where the manifest says 10") });
    expect(existsSync(join(dir, "blobs", "big"))).toBe(false);
  });

  it("refuses more than 16 MB before the manifest, and an archive that needs more room than the disk has", async () => {
    const dir = temp("kbox-arch-order-");
    const src = temp("kbox-arch-src2-");
    mkdirSync(join(src, "blobs"));
    writeFileSync(join(src, "blobs", "early"), Buffer.alloc(17 * 1024 ** 2));
    writeFileSync(join(src, "manifest.json"), "{}");
    const raw = tar.c({ cwd: src, portable: true, sync: true }, ["blobs/early", "manifest.json"]) as unknown as {
      read(): Buffer | null;
    };
    const chunks: Buffer[] = [];
    for (let c = raw.read(); c; c = raw.read()) chunks.push(c);
    await expect(extractArchive(Readable.from([gzipSync(Buffer.concat(chunks))]), dir)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("before manifest.json"),
    });
    expect(existsSync(join(dir, "blobs", "early"))).toBe(false);

    const huge = temp("kbox-arch-huge-");
    const kb = Buffer.from(JSON.stringify({ uuid: "x", slug: "x" }));
    const listed = { "kb.json": { size: kb.length, sha256: sha(kb) }, "blobs/h": { size: 2 ** 52, sha256: "0" } };
    await expect(extractArchive(archive([], listed), huge)).rejects.toMatchObject({ status: 507 });
  });
});
