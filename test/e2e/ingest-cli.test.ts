import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { waitIdle } from "./ingest-helpers.js";

let d: TestDaemon;
let kbid: string;
let dir: string;
let web: Server;
let webUrl: string;

const write = (rel: string, text: string | Buffer) => {
  const p = join(dir, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, text);
  return p;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbox-add-"));
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "cli" } })).uuid;
  web = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      "<html><head><title>Local page</title></head><body><main><p>A page served for the add command about tulips.</p></main></body></html>",
    );
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/page.html`;
});
afterAll(async () => {
  await d.stop();
  await new Promise((r) => web.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const tsv = (out: string) =>
  out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t"));

describe("kbox add", () => {
  it("walks a folder with ignore rules, follows processing piped, prints TSV", async () => {
    write("docs/a.md", "# A\n\nAlpha document about cats.");
    write("docs/sub/b.txt", "Beta document about dogs.");
    write("docs/sub/skip.log", "ignored by .gitignore");
    write("docs/build/out.txt", "ignored directory");
    write("docs/.hidden.txt", "dotfile");
    write("docs/.git/config", "dot directory");
    write("docs/secret.txt", "ignored by .kboxignore");
    write("docs/keep.log", "re-included by a negation");
    write("docs/.gitignore", "*.log\nbuild/\n!keep.log\n");
    write("docs/sub/.kboxignore", "nothing-here\n");
    write("docs/.kboxignore", "/secret.txt\n");
    const r = await d.cli(["add", join(dir, "docs"), "--kb", "cli", "--wait"]);
    expect(r.stderr).toContain("processed 3/3");
    expect(r.code).toBe(0);
    const rows = tsv(r.stdout);
    expect(rows.map((x) => x[2].slice(dir.length)).sort()).toEqual(["/docs/a.md", "/docs/keep.log", "/docs/sub/b.txt"]);
    expect(rows.every((x) => /^[0-9a-f]{32}$/.test(x[0]) && x[1] === "PROCESSED")).toBe(true);
    const res = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid: rows.find((x) => x[2].endsWith("b.txt"))?.[0] as string },
      query: { show: ["origin"] },
    })) as any;
    expect(res.origin).toMatchObject({ path: "/docs/sub/b.txt", filename: "b.txt" });
  });

  it("reports duplicates without failing, and adds a URL as a link resource", async () => {
    const r = await d.cli(["add", join(dir, "docs/a.md"), webUrl, "--kb", "cli", "--wait"]);
    expect(r.code).toBe(0);
    const rows = tsv(r.stdout);
    expect(rows.find((x) => x[2].endsWith("a.md"))?.[1]).toBe("DUPLICATE");
    const link = rows.find((x) => x[2] === webUrl);
    expect(link?.[1]).toBe("PROCESSED");
    const res = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid: link?.[0] as string },
      query: { show: ["basic", "extracted"] },
    })) as any;
    expect(res.data.links.link.extracted.text.text).toContain("tulips");
  });

  it("applies --label, --hidden and --slug", async () => {
    const f = write("single.txt", "A single labelled file about owls.");
    const r = await d.cli(["add", f, "--kb", "cli", "--label", "topic/birds", "--hidden", "--slug", "owls", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { results: { resource: string; status: string }[] };
    expect(out.results[0].status).toBe("PENDING");
    await waitIdle(d.client, kbid);
    const res = (await d.client.call(api.getResource.bySlug, {
      params: { kbid, rslug: "owls" },
      query: { show: ["basic", "origin"] },
    })) as any;
    expect(res.id).toBe(out.results[0].resource);
    expect(res.hidden).toBe(true);
    expect(res.usermetadata.classifications).toEqual([{ labelset: "topic", label: "birds" }]);
    expect(res.metadata.status).toBe("PROCESSED");
    const bad = await d.cli(["add", f, join(dir, "other.txt"), "--kb", "cli", "--slug", "x"]);
    expect(bad.code).toBe(2);
  });

  it("exits 5 when some inputs failed and 1 when all did; a TTY gets a table and a bar", async () => {
    const good = write("mixed/good.txt", "A good file about foxes.");
    const broken = write("mixed/broken.pdf", Buffer.from("%PDF-1.7\n garbage that is no pdf"));
    const partial = await d.cli(["add", good, broken, "--kb", "cli", "--wait"], { tty: true });
    expect(partial.code).toBe(5);
    expect(partial.stdout).toMatch(/RESOURCE\s+STATUS\s+SOURCE\s+ERROR/);
    expect(partial.stdout).toMatch(/ERROR/);
    expect(partial.stderr).toContain("[#");
    const none = await d.cli(["add", join(dir, "missing.txt"), "--kb", "cli", "--wait"]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("no such file or directory");
  });
});

describe("kbox upload and kbox resource status", () => {
  it("uploads by TUS, shows progress on a TTY, and prints the resource", async () => {
    const big = write("big.txt", "Lines about rivers and seas.\n".repeat(220_000)); // ~6.4 MB: 2 chunks
    const r = await d.cli(["upload", big, "--kb", "cli"], { tty: true });
    expect(r.code).toBe(0);
    // The bar of every command: counts (bytes here), rate and ETA.
    expect(r.stderr).toMatch(/\[#{24}\] 100% 6\.1 MiB\/6\.1 MiB {2}[\d.]+ (KiB|MiB|GiB)\/s {2}eta 0s\n/);
    const rid = r.stdout.match(/[0-9a-f]{32}/)?.[0] as string;
    const res = (await d.client.call(api.getResource.byId, { params: { kbid, rid }, query: { show: ["values"] } })) as any;
    expect(res.data.files.file.value.file.size).toBe(29 * 220_000);
    const again = await d.cli(["upload", big, "--kb", "cli"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already in this knowledge box");
  }, 120_000);

  it("prints per-field status and errors", async () => {
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: {
        slug: "st",
        title: "Status",
        files: { bad: { file: { filename: "x.bin", payload: Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]).toString("base64") } } },
      },
    });
    await waitIdle(d.client, kbid, 120_000);
    const r = await d.cli(["resource", "status", "st", "--kb", "cli"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${uuid} ERROR`);
    const rows = tsv(r.stdout);
    expect(rows.find((x) => x[0] === "generics/title")?.[1]).toBe("PROCESSED");
    expect(rows.find((x) => x[0] === "files/bad")?.[1]).toBe("ERROR");
    expect(rows.find((x) => x[0] === "files/bad")?.[2]).toMatch(/^UNSUPPORTED_FORMAT: /);
    const json = await d.cli(["resource", "status", uuid, "--kb", "cli", "--json"]);
    expect(JSON.parse(json.stdout).metadata.status).toBe("ERROR");
  }, 120_000);
});
