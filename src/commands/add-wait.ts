import type { Context } from "../cli/context.js";
import type { KboxClient } from "../client/client.js";
import type { ResourceStatus } from "../client/routes/common.js";
import { processingStatus } from "../client/routes/processing.js";
import { progressBar } from "./upload.js";

/** What happened to one input: its resource and status (PENDING until --wait follows it). */
export interface AddResult {
  source: string;
  resource?: string;
  status: string;
  error?: string;
}

/** Statuses that end processing with a failure (the exit code counts them). */
export const FAILED = new Set(["FAILED", "ERROR", "EXPIRED", "BLOCKED"]);

interface Seen {
  status: string;
  error?: string;
  /** Some field failed transiently and waits for a retry. */
  retrying: boolean;
}

/** Resources of the knowledge box in the given statuses (every page), with their first field error. */
async function idsIn(client: KboxClient, kbid: string, status: ResourceStatus[]): Promise<Map<string, Seen>> {
  const out = new Map<string, Seen>();
  let cursor: string | undefined;
  do {
    const page = await client.call(processingStatus, { params: { kbid }, query: { status, limit: 1000, cursor } });
    for (const r of page.results) {
      out.set(r.resource_id, {
        status: r.status,
        error: r.fields.find((f) => f.error)?.error?.body,
        retrying: r.fields.some((f) => f.retry),
      });
    }
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return out;
}

/** PENDING resources of the whole box: one small page's totals. */
async function pendingTotal(client: KboxClient, kbid: string): Promise<number> {
  const head = await client.call(processingStatus, { params: { kbid }, query: { status: ["PENDING"], limit: 1 } });
  return head.totals.PENDING ?? 0;
}

/**
 * Listing every PENDING resource costs the daemon a page of 1,000 items each time (ten pages for
 * 10,000 files): between those exact counts, the box's PENDING total gives the progress.
 */
const EXACT_EVERY_MS = 2000;

/** Follow processing of the PENDING results until each has ended; their statuses (and errors) are filled in. */
export async function waitFor(
  ctx: Context,
  client: KboxClient,
  kbid: string,
  results: AddResult[],
  quiet?: boolean,
): Promise<void> {
  const mine = new Set(results.filter((r) => r.resource && r.status === "PENDING").map((r) => r.resource as string));
  const bar = progressBar(ctx, "resources");
  let last = -1;
  let left = mine.size;
  let retrying = 0;
  /** PENDING resources that are not ours, at the last exact count. */
  let others = 0;
  let exactAt = 0;
  for (;;) {
    const all = left ? await pendingTotal(client, kbid) : 0;
    if (!all) {
      left = 0;
      retrying = 0;
    } else if (Date.now() - exactAt >= EXACT_EVERY_MS || all - others <= 0) {
      const pending = await idsIn(client, kbid, ["PENDING"]);
      left = [...mine].filter((rid) => pending.has(rid)).length;
      retrying = [...mine].filter((rid) => pending.get(rid)?.retrying).length;
      others = pending.size - left;
      exactAt = Date.now();
    } else left = Math.min(left, all - others);
    const done = mine.size - left;
    // A transient failure (server down, 503, 429) keeps a resource PENDING while it is retried: say so.
    const state = done * 1000 + retrying;
    if (!quiet && state !== last) {
      if (ctx.io.stderr.isTTY) bar(done, mine.size);
      else
        ctx.io.stderr.write(
          `processed ${done}/${mine.size}${retrying ? ` (${retrying} retrying after a transient failure)` : ""}\n`,
        );
    }
    last = state;
    if (!left) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const ended = await idsIn(client, kbid, ["ERROR", "EXPIRED", "BLOCKED", "EMPTY"]);
  for (const r of results) {
    // A DUPLICATE of a file added in the same run names the same resource: it stays a DUPLICATE.
    if (!r.resource || r.status !== "PENDING" || !mine.has(r.resource)) continue;
    const e = ended.get(r.resource);
    Object.assign(r, e ? { status: e.status, ...(e.error ? { error: e.error } : {}) } : { status: "PROCESSED" });
  }
}
