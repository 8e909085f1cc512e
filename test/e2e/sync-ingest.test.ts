import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../daemon/models/types.js";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as sync from "../../src/api/sync.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

/** A deterministic embedder that records every text it embeds (to prove what was, and was not, re-embedded). */
class CountingEmbedder implements Embedder {
  readonly id = "test:counting";
  readonly dim = 16;
  readonly seen: string[] = [];
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.seen.push(...texts);
    return texts.map((t) => {
      const h = createHash("sha256").update(t).digest();
      const v = Float32Array.from({ length: this.dim }, (_, i) => h[i] / 255 - 0.5);
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  }
}

let d: TestDaemon;
let kbid: string;
let root: string;
let configId: string;
const embedder = new CountingEmbedder();

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Texts of the keyword matches of a query. */
async function found(query: string): Promise<string[]> {
  const res = await d.client.call(find.find, { params: { kbid }, body: { query, features: ["keyword"], top_k: 20 } });
  return Object.values(res.resources).flatMap((r) =>
    Object.values(r.fields).flatMap((f) => Object.values(f.paragraphs).map((p) => p.text)),
  );
}

/** Resources whose paragraphs a keyword query finds under an origin path (read from the resource record). */
async function foundUnder(query: string, prefix: string): Promise<string[]> {
  const res = await d.client.call(find.find, {
    params: { kbid },
    body: { query, features: ["keyword"], top_k: 20, filter_expression: { field: { prop: "origin_path", prefix } } },
  });
  return Object.keys(res.resources);
}

/** The resource a synced path belongs to. */
function resourceAt(rel: string) {
  const store = d.daemon.services.store.kb(kbid);
  return store.then((s) =>
    [...s.resources.values()].find((r) => r.origin?.sync_metadata?.file_id === rel && r.origin?.source_id === configId),
  );
}

/** Paragraph rows of a resource's file field: id, hash, text. */
async function fileParagraphs(rid: string) {
  const store = await d.daemon.services.store.kb(kbid);
  const rows = (await store.paragraphs.resourceRows(rid)).filter((r) => r.field === "f/file");
  return rows.map((r) => ({ id: r.id, hash: r.hash, text: r.text })).sort((a, b) => a.id.localeCompare(b.id));
}

/** Wait until ingestion has nothing queued or running and no sync job is active. */
async function quiet(): Promise<void> {
  await waitFor("quiet", async () => {
    const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 5 } });
    if (jobs.items.some((j) => j.status === "pending" || j.status === "running")) return false;
    const c = d.daemon.services.processing.counts(kbid);
    return c.queued + c.running === 0;
  });
  await d.daemon.services.processing.idle();
}

beforeAll(async () => {
  d = await startTestDaemon();
  d.daemon.services.models.registerEmbedder("test:counting", embedder);
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "ingest" } })).uuid;
  root = mkdtempSync(join(tmpdir(), "kbox-sync-ing-"));
  writeFileSync(join(root, "walrus.md"), "# Walruses\n\nThe walrus basks on arctic ice floes all summer.\n");
  writeFileSync(join(root, "heron.txt"), "A grey heron waits motionless in the shallow marsh water.\n");
  const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
  configId = (
    await d.client.call(sync.addConfig, {
      params: { kbid },
      body: { name: "ing", external_connection_id: conn.id, sync_root_path: root },
    })
  ).id;
  // Each file's own paragraph (not only its title, which a batch may index first) is findable.
  await waitFor(
    "initial ingestion",
    async () =>
      (await found("walrus")).some((t) => t.includes("ice floes")) && (await found("heron")).some((t) => t.includes("marsh")),
  );
  await quiet();
});

afterAll(async () => {
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("folder sync with ingestion", () => {
  it("an edited file is findable by its new text, and no longer by the old", async () => {
    expect((await found("walrus")).join(" ")).toMatch(/arctic ice floes/);
    // Ingestion embedded the files with the registered embedder.
    expect(embedder.seen.some((t) => t.includes("heron waits"))).toBe(true);
    writeFileSync(join(root, "walrus.md"), "# Walruses\n\nThe walrus dives for clams in the bering sea.\n");
    await waitFor("the new text", async () => (await found("bering")).length > 0);
    expect((await found("arctic")).length).toBe(0);
    expect((await found("walrus")).join(" ")).not.toMatch(/ice floes/);
  });

  it("a rename keeps the resource and its paragraphs: nothing is re-embedded", async () => {
    await quiet();
    const before = await resourceAt("heron.txt");
    expect(before).toBeDefined();
    const paras = await fileParagraphs(before!.id);
    expect(paras.length).toBeGreaterThan(0);
    expect(await foundUnder("heron", "/heron.txt")).toEqual([before!.id]);
    const embedded = embedder.seen.length;
    renameSync(join(root, "heron.txt"), join(root, "birds-heron.txt"));
    await waitFor("the move", async () => (await resourceAt("birds-heron.txt"))?.id === before!.id);
    await quiet();
    await waitFor("the new path", async () => (await foundUnder("heron", "/birds-heron.txt")).includes(before!.id));
    expect(await foundUnder("heron", "/heron.txt")).toEqual([]);
    const after = await fileParagraphs(before!.id);
    expect(after.map(({ id, hash, text }) => ({ id, hash, text }))).toEqual(
      paras.map(({ id, hash, text }) => ({ id, hash, text })),
    );
    // Only the title (the new file name) may have been embedded; the file's text was not.
    const fresh = embedder.seen.slice(embedded);
    expect(fresh.filter((t) => t.includes("heron waits"))).toEqual([]);
    const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 3 } });
    expect(jobs.items.find((j) => j.stats.moved === 1)?.stats).toMatchObject({ added: 0, deleted: 0, updated: 0 });
    expect((await found("heron")).length).toBeGreaterThan(0);
  });

  it("a file written in two chunks with a pause is indexed whole, never half-written", async () => {
    await quiet();
    const first = "The pangolin curls into a scaly ball when threatened";
    const embeddedBefore = embedder.seen.length;
    writeFileSync(join(root, "pangolin.txt"), first);
    await new Promise((r) => setTimeout(r, 150));
    appendFileSync(join(root, "pangolin.txt"), " by hungry leopards at dusk.\n");
    await waitFor("the whole file", async () => (await found("leopards")).length > 0);
    await quiet();
    expect((await found("pangolin")).join(" ")).toContain("scaly ball when threatened by hungry leopards at dusk.");
    // The half-written text never reached the index (nor the embedder).
    expect(embedder.seen.slice(embeddedBefore).some((t) => t.includes("threatened") && !t.includes("leopards"))).toBe(false);
    const rid = (await resourceAt("pangolin.txt"))!.id;
    expect((await fileParagraphs(rid)).map((p) => p.text).join(" ")).toContain("hungry leopards");
    // One resource, created once, never updated with a partial version.
    const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 10 } });
    const logs = await Promise.all(
      jobs.items.map((j) => d.client.call(sync.jobLogs, { params: { kbid, job_id: j.id }, query: { limit: 500 } })),
    );
    const mentions = logs
      .flatMap((l) => l.items)
      .filter((e) => e.extra.path === "pangolin.txt")
      .map((e) => e.message);
    expect(mentions).toEqual(["added pangolin.txt"]);
  });

  it("renaming a folder moves the resources under it without re-ingestion", async () => {
    await quiet();
    mkdirSync(join(root, "zoo/cats"), { recursive: true });
    writeFileSync(join(root, "zoo/cats/lynx.txt"), "The lynx hunts snowshoe hares at night.\n");
    writeFileSync(join(root, "zoo/otter.txt"), "The otter floats on its back while cracking shells.\n");
    await waitFor("the zoo", async () => (await found("lynx")).length > 0 && (await found("otter")).length > 0);
    await quiet();
    const lynx = (await resourceAt("zoo/cats/lynx.txt"))!.id;
    const otter = (await resourceAt("zoo/otter.txt"))!.id;
    const embedded = embedder.seen.length;
    renameSync(join(root, "zoo"), join(root, "wildlife"));
    await waitFor(
      "the moves",
      async () =>
        (await resourceAt("wildlife/cats/lynx.txt"))?.id === lynx && (await resourceAt("wildlife/otter.txt"))?.id === otter,
    );
    await quiet();
    expect(await resourceAt("zoo/otter.txt")).toBeUndefined();
    expect(embedder.seen.slice(embedded).filter((t) => t.includes("snowshoe") || t.includes("cracking shells"))).toEqual([]);
    await waitFor("the new path", async () => (await foundUnder("lynx", "/wildlife/cats/lynx.txt")).includes(lynx));
  });

  it("a removed folder's files whose new names come in a later batch are moved, not deleted and added again", async () => {
    await quiet();
    mkdirSync(join(root, "pond/deep"), { recursive: true });
    writeFileSync(join(root, "pond/frog.txt"), "The frog sings from the lily pads after rain.\n");
    writeFileSync(join(root, "pond/deep/carp.txt"), "The carp noses through the silt for larvae.\n");
    mkdirSync(join(root, "marsh/deep"), { recursive: true });
    await waitFor("the pond", async () => (await found("frog")).length > 0 && (await found("carp")).length > 0);
    await quiet();
    const frog = (await resourceAt("pond/frog.txt"))!.id;
    const carp = (await resourceAt("pond/deep/carp.txt"))!.id;
    const jobsOf = async () =>
      (await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 20 } })).items;
    const earlier = new Set((await jobsOf()).map((j) => j.id));
    // The folder goes in one batch with only one of its files' new names (as the watcher walking a
    // renamed folder may report them); the other's comes half a second later, within the grace.
    const aside = join(mkdtempSync(join(tmpdir(), "kbox-aside-")), "carp.txt");
    renameSync(join(root, "pond/deep/carp.txt"), aside);
    renameSync(join(root, "pond/frog.txt"), join(root, "marsh/frog.txt"));
    rmSync(join(root, "pond"), { recursive: true });
    await new Promise((r) => setTimeout(r, 500));
    renameSync(aside, join(root, "marsh/deep/carp.txt"));
    await waitFor(
      "both moves",
      async () => (await resourceAt("marsh/frog.txt"))?.id === frog && (await resourceAt("marsh/deep/carp.txt"))?.id === carp,
    );
    await quiet();
    expect(await resourceAt("pond/deep/carp.txt")).toBeUndefined();
    const since = (await jobsOf()).filter((j) => !earlier.has(j.id));
    expect(since.reduce((n, j) => n + j.stats.moved, 0)).toBe(2);
    expect(since.reduce((n, j) => n + j.stats.added + j.stats.deleted, 0)).toBe(0);
  });

  it("a deleted file's paragraphs leave the index", async () => {
    await quiet();
    const rid = (await resourceAt("pangolin.txt"))!.id;
    rmSync(join(root, "pangolin.txt"));
    await waitFor("the deletion", async () => (await found("pangolin")).length === 0);
    await waitFor("the rows", async () => (await fileParagraphs(rid)).length === 0);
  });
});
