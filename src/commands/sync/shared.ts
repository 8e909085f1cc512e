import { resolve } from "node:path";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { intFlag, parseLabels } from "../../cli/options.js";
import type { KboxClient } from "../../client/client.js";
import * as sync from "../../client/routes/sync.js";

/** A sync configuration named by id or by name. */
export async function resolveConfig(client: KboxClient, kbid: string, ref: string): Promise<sync.SyncConfig> {
  const all = await client.call(sync.listConfigs, { params: { kbid } });
  const hit = all.find((c) => c.id === ref) ?? all.find((c) => c.name === ref);
  if (!hit) throw new CliError(`no sync configuration ${JSON.stringify(ref)}`, EXIT.failure, "list them with `kbox sync list`");
  return hit;
}

export const isUrl = (s: string) => /^https?:\/\//i.test(s);

export interface AddOptions extends GlobalOptions {
  name?: string;
  label?: string[];
  include?: string[];
  exclude?: string[];
  interval?: string;
  cssSelector?: string;
  xpath?: string;
}

/** Create the connection and configuration for a folder or a sitemap URL. */
export async function addSync(
  ctx: Context,
  target: string,
  opts: AddOptions,
): Promise<{ config: sync.SyncConfig; kbid: string }> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const provider = isUrl(target) ? "sitemap" : "local_folder";
  const root = provider === "sitemap" ? target : resolve(ctx.io.cwd, target);
  const labels = parseLabels(opts.label) ?? [];
  const interval = intFlag("--interval", opts.interval, 0, 525_600);
  const conn = await client.call(sync.createConnection, { params: { kbid }, body: { provider } });
  if (!("id" in conn)) throw new Error("the daemon answered an authorize URL for a local provider");
  const config = await client.call(sync.addConfig, {
    params: { kbid },
    body: {
      name: opts.name ?? root,
      external_connection_id: conn.id,
      sync_root_path: root,
      labels,
      ...(opts.include?.length ? { file_filter: { mode: "include" as const, glob_patterns: opts.include } } : {}),
      ...(opts.exclude?.length ? { ignore: opts.exclude } : {}),
      ...(interval !== undefined ? { sync_interval_minutes: interval } : {}),
      ...(opts.cssSelector ? { css_selector: opts.cssSelector } : {}),
      ...(opts.xpath ? { xpath: opts.xpath } : {}),
    },
  });
  return { config, kbid };
}

/** Describe a config's source in one line. */
export const sourceOf = (c: sync.SyncConfig) =>
  `${c.external_connection.provider === "sitemap" ? "sitemap" : "folder"} ${c.sync_root_path ?? ""}`;

export { intFlag };

/** A log level name (any case), else a usage error. */
export function levelFlag(v: string | undefined): sync.LogLevel | undefined {
  if (v === undefined) return undefined;
  const up = v.toUpperCase();
  if (!(sync.LOG_LEVELS as readonly string[]).includes(up))
    throw new CliError(`--level takes one of ${sync.LOG_LEVELS.join(", ")}`, EXIT.usage);
  return up as sync.LogLevel;
}
