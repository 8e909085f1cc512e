import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { kboxPaths } from "../../src/api/paths.js";
import * as resources from "../../src/api/resources.js";
import * as search from "../../src/api/search.js";
import * as sync from "../../src/api/sync.js";
import type { KboxClient } from "../../src/client/client.js";

/** Resolves once the child process has exited (at once when it already has). */
export const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode ? r() : c.once("exit", () => r())));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The origin path of every resource of the box, by resource id (the catalog, 200 a page). */
export async function originPaths(client: KboxClient, kbid: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let page = 0; ; page++) {
    const r = await client.call(search.catalog, {
      params: { kbid },
      body: { page_number: page, page_size: 200, show: ["basic", "origin"] },
    });
    for (const [rid, res] of Object.entries(r.resources ?? {}))
      out.set(rid, (res as { origin?: { path?: string } }).origin?.path ?? "");
    if (!r.fulltext?.next_page) return out;
  }
}

/** The word that finds note `i` of a token folder, and nothing else. */
export const noteToken = (i: number) => `zq${i}marker`;

/**
 * A folder of `n` small notes, `perDir` to a subfolder, each findable by its own token; returns the
 * folder and the relative path of note `i`. The folder is removed after the test file.
 */
export function tokenFolder(n: number, perDir: number, prefix: string): { root: string; rel: (i: number) => string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const rel = (i: number) => `d${Math.floor(i / perDir)}/note-${i}.md`;
  for (let i = 0; i < n; i++) {
    if (i % perDir === 0) mkdirSync(join(root, rel(i), ".."), { recursive: true });
    writeFileSync(
      join(root, rel(i)),
      `# Note ${i}\n\nThe harbor lantern ${noteToken(i)} glows.\n\nA second paragraph of note ${i}.\n`,
    );
  }
  return { root, rel };
}

/** A new knowledge box "killed" that syncs `root` (a local folder connection and its configuration); its id. */
export async function syncedBox(client: KboxClient, root: string): Promise<string> {
  const kbid = (await client.call(kbs.createKb, { body: { slug: "killed" } })).uuid;
  const conn = await client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
  await client.call(sync.addConfig, {
    params: { kbid },
    body: { name: "notes", external_connection_id: conn.id, sync_root_path: root },
  });
  return kbid;
}

/**
 * What to show when resources did not end PROCESSED after a restart: the daemons' warnings and errors
 * (their log under `home`) and the field statuses and errors of a few of those resources. A failure
 * seen once under load then says why.
 */
export async function whyNotProcessed(client: KboxClient, home: string, kbid: string, rids: string[]): Promise<string> {
  const log = join(kboxPaths({ KBOX_HOME: home }).logs, "kboxd.log");
  const lines = existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => /"level":"(warn|error)"/.test(l))
    : [];
  const fields = await Promise.all(
    rids.slice(0, 3).map((rid) =>
      client.call(resources.getResource.byId, { params: { kbid, rid }, query: { show: ["basic", "errors"] } }).then(
        (r) => JSON.stringify(r).slice(0, 2000),
        (e: Error) => `${rid}: ${e.message}`,
      ),
    ),
  );
  return [`daemon warnings and errors (${lines.length}):`, ...lines.slice(0, 20), "resources:", ...fields].join("\n");
}
