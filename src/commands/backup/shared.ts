import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { progress } from "../../cli/progress.js";
import type { CallInput, KboxClient, RawCallInput, RouteDef, RouteRef } from "../../client/client.js";
import * as bk from "../../client/routes/backups.js";
import { jsonOf } from "../../client/transport.js";

export const ACCOUNT = { account_id: "local" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Status = { status: bk.Backup["status"] | bk.TransferStatus; error?: string; progress?: { done: number; total: number } };

/** Poll until a backup or export is written, showing its progress on stderr. */
export async function waitArchive<T extends Status>(
  ctx: Context,
  opts: GlobalOptions,
  poll: () => Promise<T>,
  what: string,
): Promise<T> {
  const bar = progress(ctx, { label: `${what} bytes`, bytes: true, quiet: opts.quiet });
  for (;;) {
    const s = await poll();
    if (s.progress) bar.update(s.progress.done, s.progress.total || undefined);
    if (s.status === "finished") {
      bar.done();
      return s;
    }
    if (s.status === "failed" || s.status === "errored") {
      bar.done();
      throw new CliError(`${what} failed: ${s.error ?? "unknown error"}`, EXIT.failure);
    }
    await sleep(200);
  }
}

/** Stream a download route's answer to `file` (via a .partial file), with a progress bar on a TTY. */
export async function downloadTo<T extends RouteDef>(
  ctx: Context,
  opts: GlobalOptions,
  client: KboxClient,
  route: RouteRef<T>,
  input: CallInput<T>,
  file: string,
): Promise<number> {
  const res = await client.exchange(route, { params: input.params, query: input.query });
  if (res.status >= 400) await jsonOf(res);
  const total = Number(res.headers["content-length"] ?? 0) || undefined;
  const bar = progress(ctx, { label: "download bytes", bytes: true, total, quiet: opts.quiet });
  let done = 0;
  res.body.on("data", (c: Buffer) => {
    done += c.length;
    bar.update(done);
  });
  const target = resolve(file);
  const partial = `${target}.partial`;
  try {
    await pipeline(res.body, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, target);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  } finally {
    bar.done();
  }
  return done;
}

/** Upload an archive file to a raw import route and parse the JSON answer. */
export async function uploadArchive<T extends RouteDef>(
  client: KboxClient,
  route: RouteRef<T>,
  input: Omit<RawCallInput<T>, "body" | "headers">,
  file: string,
) {
  if (!existsSync(file)) throw new CliError(`no such file: ${file}`, EXIT.usage);
  const size = (await stat(file)).size;
  return client.callRaw(route, {
    ...input,
    headers: { "content-type": "application/gzip", "content-length": String(size) },
    body: createReadStream(file),
  });
}

/** Export a knowledge box and download the archive to `file`. */
export async function exportTo(
  ctx: Context,
  opts: GlobalOptions,
  kbid: string,
  file: string,
): Promise<{ export_id: string; path: string; size: number }> {
  const client = await ctx.client(opts);
  const { export_id } = await client.call(bk.startExport, { params: { kbid } });
  await waitArchive(ctx, opts, () => client.call(bk.exportStatus, { params: { kbid, export_id } }), "export");
  const size = await downloadTo(ctx, opts, client, bk.downloadExport, { params: { kbid, export_id } }, file);
  return { export_id, path: resolve(file), size };
}

/** `24h`, `30m`, `7d`, `1w`, `90s` or plain seconds → seconds. */
export function parseInterval(s: string): number {
  const m = /^(\d+)\s*([smhdw]?)$/i.exec(s.trim());
  if (!m) throw new CliError(`invalid interval ${JSON.stringify(s)}`, EXIT.usage, "use e.g. 30m, 24h, 7d");
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2].toLowerCase() as "" | "s"];
  const n = Number(m[1]) * unit;
  if (n < 1) throw new CliError("the interval must be at least 1 second", EXIT.usage);
  return n;
}

/** Seconds as the largest whole unit: 86400 → 1d. */
export function formatInterval(sec: number): string {
  for (const [u, n] of [
    ["w", 604800],
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
  ] as const)
    if (sec % n === 0) return `${sec / n}${u}`;
  return `${sec}s`;
}
