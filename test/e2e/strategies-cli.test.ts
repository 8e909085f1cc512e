import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
let kbid: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbox-strat-cli-"));
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "scli" } })).uuid;
});
afterAll(async () => {
  await d.stop();
  rmSync(dir, { recursive: true, force: true });
});

const tsv = (out: string) =>
  out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t"));

async function paragraphTexts(rid: string, map: "files" | "texts", field: string): Promise<string[]> {
  const r = (await d.client.call(resources.getResource.byId, { params: { kbid, rid }, query: { show: ["extracted"] } })) as any;
  const ex = r.data[map][field].extracted;
  return ex.metadata.metadata.paragraphs.map((p: { start: number; end: number }) => ex.text.text.slice(p.start, p.end));
}

describe("kbox strategy", () => {
  let id: string;

  it("adds a MANUAL split strategy and prints only its id on stdout", async () => {
    const r = await d.cli(["strategy", "add", "--kb", "scli", "--name", "bars", "--splitter", "||", "--max-paragraph", "500"]);
    expect(r.code).toBe(0);
    id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.stderr).toContain("added split strategy bars");
  });

  it("lists strategies as TSV when piped, and as JSON", async () => {
    const ex = await d.cli(["strategy", "add", "--kb", "scli", "--extract", "--name", "small", "--max-paragraph", "64"]);
    expect(ex.code).toBe(0);
    const r = await d.cli(["strategy", "list", "--kb", "scli"]);
    expect(r.code).toBe(0);
    expect(tsv(r.stdout)).toEqual([
      [id, "split", "bars", "500", '"||"'],
      [ex.stdout.trim(), "extract", "small", "64", ""],
    ]);
    const j = JSON.parse((await d.cli(["strategy", "list", "--kb", "scli", "--json"])).stdout);
    expect(j.split_strategies[id]).toMatchObject({ custom_split: 1, manual_split: { splitter: "||" } });
    const show = JSON.parse((await d.cli(["strategy", "show", ex.stdout.trim(), "--kb", "scli"])).stdout);
    expect(show).toMatchObject({ name: "small", split: { max_paragraph: 64 } });
  });

  it("kbox add --split-strategy splits the file on the separator", async () => {
    const p = join(dir, "bars.txt");
    writeFileSync(p, "red || green || blue");
    const r = await d.cli(["add", p, "--kb", "scli", "--split-strategy", id, "--wait", "--json"]);
    expect(r.code).toBe(0);
    const [res] = JSON.parse(r.stdout).results;
    expect(res.status).toBe("PROCESSED");
    expect(await paragraphTexts(res.resource, "files", "file")).toEqual(["red", "green", "blue"]);
  });

  it("kbox upload --split-strategy (TUS) applies it too", async () => {
    const p = join(dir, "more.txt");
    writeFileSync(p, "one || two");
    const r = await d.cli(["upload", p, "--kb", "scli", "--split-strategy", id, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    for (let i = 0; i < 200; i++) {
      const res = (await d.client.call(resources.getResource.byId, { params: { kbid, rid: out.uuid }, query: {} })) as any;
      if (res.metadata.status !== "PENDING") break;
      await new Promise((ok) => setTimeout(ok, 50));
    }
    expect(await paragraphTexts(out.uuid, "files", "file")).toEqual(["one", "two"]);
  });

  it("remove refuses a strategy in use (exit 1), and an unknown id is a usage error (exit 2)", async () => {
    const inUse = await d.cli(["strategy", "remove", id, "--kb", "scli"]);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toContain("is used by field");
    const unknown = await d.cli(["strategy", "show", "0000", "--kb", "scli"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no strategy 0000");
    const bad = await d.cli(["strategy", "add", "--kb", "scli", "--max-paragraph", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
  });
});
