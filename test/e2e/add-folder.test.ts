import { execFileSync } from "node:child_process";
/**
 * `kbox add <folder>` through the local daemon's add-folder route (one request; the daemon reads the
 * files), and the route's rules over TCP: a key reads only folders of KBOX_SYNC_ROOTS, never the data
 * folder, never a file a symlink leads out of the folder.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { roleKey } from "../helpers/escapes.js";
import { rawCall } from "../helpers/raw.js";

let d: TestDaemon;
let kbid: string;
let allowed: string;
let outside: string;
let owner: KboxClient;
let writer: KboxClient;

const write = (rel: string, text: string) => {
  const p = join(allowed, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, text);
  return p;
};
/** What the tests read of a resource and of a 422. */
type Res = {
  title?: string;
  icon?: string;
  hidden?: boolean;
  origin?: { path?: string; filename?: string };
  usermetadata?: { classifications?: unknown[] };
  data?: { files?: { file?: { value?: { file?: unknown } } } };
};
type Invalid = { detail: { loc: unknown[] }[] };
type Row = { source: string; resource?: string; status: string; error?: string };
const bySource = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.source.slice(allowed.length), r]));
const lines = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

beforeAll(async () => {
  allowed = mkdtempSync(join(tmpdir(), "kbox-addf-"));
  outside = mkdtempSync(join(tmpdir(), "kbox-addf-out-"));
  writeFileSync(join(outside, "secret.txt"), "the outside secret");
  d = await startTestDaemon({ listen: "127.0.0.1:0", env: { ...OFFLINE, KBOX_SYNC_ROOTS: allowed } });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "af" } })).uuid;
  owner = await roleKey(d, "SOWNER");
  writer = await roleKey(d, "SCONTRIBUTOR");
}, 60_000);
afterAll(async () => {
  await d?.stop();
  rmSync(allowed, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("kbox add <folder> on the local daemon", () => {
  it("makes a resource per file as an upload would (title, origin path, labels), an identical file once", async () => {
    write("notes/a.md", "# Alpha\n\nAlpha document about cats.\n");
    write("notes/sub/b.txt", "Beta document about dogs.\n");
    write("notes/sub/same1.txt", "The same words twice.\n");
    write("notes/sub/same2.txt", "The same words twice.\n");
    write("notes/.hidden.txt", "a dotfile, not walked");
    const r = await d.cli(["add", join(allowed, "notes"), "--kb", "af", "--label", "topic/x", "--wait", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = bySource(JSON.parse(r.stdout).results);
    expect(Object.keys(rows).sort()).toEqual(["/notes/a.md", "/notes/sub/b.txt", "/notes/sub/same1.txt", "/notes/sub/same2.txt"]);
    expect([rows["/notes/a.md"].status, rows["/notes/sub/b.txt"].status]).toEqual(["PROCESSED", "PROCESSED"]);
    // Read together, the identical files are one resource: the first stored, the other its DUPLICATE.
    const same = [rows["/notes/sub/same1.txt"], rows["/notes/sub/same2.txt"]];
    expect(same.map((s) => s.status).sort()).toEqual(["DUPLICATE", "PROCESSED"]);
    expect(same[0].resource).toBe(same[1].resource);
    const b = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid: rows["/notes/sub/b.txt"].resource as string },
      query: { show: ["basic", "origin", "values"] },
    })) as Res;
    expect(b.origin).toMatchObject({ path: "/notes/sub/b.txt", filename: "b.txt" });
    expect(b.title).toBe("b.txt");
    expect(b.icon).toBe("text/plain");
    expect(b.usermetadata?.classifications).toEqual([{ labelset: "topic", label: "x" }]);
    expect(b.data?.files?.file?.value?.file).toMatchObject({ filename: "b.txt", content_type: "text/plain" });
    const a = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid: rows["/notes/a.md"].resource as string },
    })) as Res;
    expect(a.title).toBe("Alpha"); // the Markdown heading replaces the file name, as for an upload
  });

  it("adding again reports DUPLICATEs and gives their resources the new labels; --hidden hides new ones", async () => {
    write("notes/c.md", "# Gamma\n\nGamma document.\n");
    const r = await d.cli(["add", join(allowed, "notes"), "--kb", "af", "--label", "topic/y", "--hidden", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = bySource(JSON.parse(r.stdout).results);
    expect(rows["/notes/c.md"].status).toBe("PENDING");
    for (const s of ["/notes/a.md", "/notes/sub/b.txt"]) {
      expect(rows[s].status).toBe("DUPLICATE");
      expect(rows[s].error).toMatch(/^already in the knowledge box as [0-9a-f]{32}; labels topic\/y applied$/);
    }
    const same = [rows["/notes/sub/same1.txt"], rows["/notes/sub/same2.txt"]].map((s) => s.error?.split("; ")[1]).sort();
    expect(same).toEqual(["labels topic/y already set", "labels topic/y applied"]);
    const b = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid: rows["/notes/sub/b.txt"].resource as string },
    })) as Res;
    expect(b.usermetadata?.classifications).toEqual([
      { labelset: "topic", label: "x" },
      { labelset: "topic", label: "y" },
    ]);
    const c = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid: rows["/notes/c.md"].resource as string },
    })) as Res;
    expect(c.hidden).toBe(true);
  });

  it("the socket's owner may not add the daemon's data folder", async () => {
    const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/add-folder`, { root: d.daemon.paths.data, files: ["x"] });
    expect(r.status).toBe(403);
    expect(r.text).toContain("data folder");
  });
});

describe("the add-folder route over TCP", () => {
  const call = (c: KboxClient, body: unknown) => rawCall(c, "POST", `/api/v1/kb/${kbid}/add-folder`, body);

  it("reads only folders of KBOX_SYNC_ROOTS, and needs the role a sync configuration needs", async () => {
    write("tcp/one.txt", "One file added over TCP.\n");
    const out = await call(owner, { root: outside, files: ["secret.txt"] });
    expect(out.status).toBe(403);
    expect(out.text).toContain("KBOX_SYNC_ROOTS");
    expect(out.text).not.toContain("the outside secret");
    expect((await call(writer, { root: join(allowed, "tcp"), files: ["one.txt"] })).status).toBe(403);
    const ok = await call(owner, { root: join(allowed, "tcp"), files: ["one.txt"] });
    expect(ok.status).toBe(200);
    expect(lines(ok.text)).toEqual([{ path: "one.txt", resource: expect.stringMatching(/^[0-9a-f]{32}$/), status: "PENDING" }]);
  });

  it("fails a file a symlink leads out of the folder, a missing file, a folder and a pipe, each with why", async () => {
    write("links/real.txt", "A real file.\n");
    symlinkSync(outside, join(allowed, "links", "escape"));
    symlinkSync(join(outside, "secret.txt"), join(allowed, "links", "secret.txt"));
    mkdirSync(join(allowed, "links", "dir"));
    // A named pipe nobody writes to: opened without blocking and refused, never waited on.
    execFileSync("mkfifo", [join(allowed, "links", "pipe")]);
    const r = await call(owner, {
      root: join(allowed, "links"),
      files: ["escape/secret.txt", "secret.txt", "missing.txt", "dir", "pipe", "real.txt"],
    });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("the outside secret");
    const items = Object.fromEntries(lines(r.text).map((i: Row & { path: string }) => [i.path, i]));
    expect(items["escape/secret.txt"]).toMatchObject({ status: "FAILED", error: expect.stringContaining("outside the folder") });
    expect(items["secret.txt"]).toMatchObject({ status: "FAILED", error: expect.stringContaining("outside the folder") });
    expect(items["missing.txt"]).toEqual({ path: "missing.txt", status: "FAILED", error: "no such file" });
    expect(items.dir).toEqual({ path: "dir", status: "FAILED", error: "not a regular file" });
    expect(items.pipe).toEqual({ path: "pipe", status: "FAILED", error: "not a regular file" });
    expect(items["real.txt"].status).toBe("PENDING");
  });

  it("answers 422, located, for a relative folder, a path leaving it and an unknown strategy", async () => {
    const root = join(allowed, "tcp");
    const rel = await call(owner, { root: "tcp", files: ["one.txt"] });
    expect(rel.status).toBe(422);
    expect((rel.json as Invalid).detail[0].loc).toEqual(["body", "root"]);
    const up = await call(owner, { root, files: ["one.txt", "../links/real.txt"] });
    expect(up.status).toBe(422);
    expect((up.json as Invalid).detail[0].loc).toEqual(["body", "files", 1]);
    const strat = await call(owner, { root, files: ["one.txt"], extract_strategy: "nope" });
    expect(strat.status).toBe(422);
    expect((strat.json as Invalid).detail[0].loc).toEqual(["body", "extract_strategy"]);
  });
});
