import type { Context } from "../../cli/context.js";
import { progress } from "../../cli/progress.js";
import type { KboxClient } from "../../client/client.js";
import * as sync from "../../client/routes/sync.js";

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), r()), { once: true });
  });
const finished = (j: sync.SyncJob) => j.status === "completed" || j.status === "failed" || j.status === "cancelled";

/** Poll a job to its end with a progress indicator; returns the final job. */
export async function waitForJob(
  ctx: Context,
  client: KboxClient,
  kbid: string,
  jobId: string,
  quiet?: boolean,
): Promise<sync.SyncJob> {
  const bar = progress(ctx, { label: "files", quiet });
  for (;;) {
    const j = await client.call(sync.getJob, { params: { kbid, job_id: jobId } });
    bar.update(j.stats.scanned);
    if (finished(j)) {
      bar.done();
      return j;
    }
    await sleep(200);
  }
}

/** Print a job's log entries as they come, until the job ends (or `signal` aborts). */
export async function followLogs(
  client: KboxClient,
  kbid: string,
  jobId: string,
  opts: { level?: sync.LogLevel; print: (e: sync.LogEntry) => void; signal?: AbortSignal },
): Promise<sync.SyncJob> {
  let cursor: number | undefined;
  for (;;) {
    // The status is read before the entries: a job seen finished has written all of them.
    const j = await client.call(sync.getJob, { params: { kbid, job_id: jobId } });
    for (;;) {
      const page = await client.call(sync.jobLogs, {
        params: { kbid, job_id: jobId },
        query: {
          order: "asc",
          limit: 500,
          ...(cursor !== undefined ? { cursor } : {}),
          ...(opts.level ? { level: opts.level } : {}),
        },
      });
      for (const e of page.items) {
        opts.print(e);
        cursor = e.id;
      }
      if (page.next_cursor === null) break;
    }
    if (finished(j) || opts.signal?.aborted) return j;
    await sleep(300, opts.signal);
  }
}

/**
 * Follow a configuration live: the log of its latest job (from `fromJob` when given), then of every
 * job that starts afterwards (scheduled runs, `sync run`, the watcher's batches of live changes), in
 * the order they were created, until `signal` aborts.
 */
export async function followConfig(
  client: KboxClient,
  kbid: string,
  configId: string,
  opts: { level?: sync.LogLevel; print: (e: sync.LogEntry, job: sync.SyncJob) => void; signal?: AbortSignal; poll?: number },
): Promise<void> {
  const seen = new Set<string>();
  const list = async () =>
    (await client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 100 } })).items;
  const first = await list();
  // Jobs that ended before we started are history; the latest one (running or not) is shown whole.
  for (const j of first.slice(1)) seen.add(j.id);
  while (!opts.signal?.aborted) {
    const fresh = (await list()).filter((j) => !seen.has(j.id)).reverse();
    for (const j of fresh) {
      seen.add(j.id);
      const job = j;
      await followLogs(client, kbid, j.id, { level: opts.level, print: (e) => opts.print(e, job), signal: opts.signal });
      if (opts.signal?.aborted) return;
    }
    await sleep(opts.poll ?? 300, opts.signal);
  }
}

export function formatLog(ctx: Context, e: sync.LogEntry): string {
  return ctx.io.stdout.isTTY
    ? `${e.timestamp.slice(11, 19)} ${e.level.padEnd(7)} ${e.message}`
    : `${e.timestamp}\t${e.level}\t${e.message}`;
}
