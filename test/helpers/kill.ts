import type { ChildProcess } from "node:child_process";
import * as search from "../../src/api/search.js";
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
