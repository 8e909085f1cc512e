import type { Context } from "../../cli/context.js";
import { progress } from "../../cli/progress.js";
import type { KboxClient } from "../../client/client.js";
import * as sync from "../../client/routes/sync.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
  _ctx: Context,
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
    await sleep(300);
  }
}

export function formatLog(ctx: Context, e: sync.LogEntry): string {
  return ctx.io.stdout.isTTY
    ? `${e.timestamp.slice(11, 19)} ${e.level.padEnd(7)} ${e.message}`
    : `${e.timestamp}\t${e.level}\t${e.message}`;
}
