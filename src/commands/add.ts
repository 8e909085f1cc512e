import { existsSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { Command } from "commander";
import type { Context } from "../cli/context.js";
import { EXIT, usageError } from "../cli/errors.js";
import { collect, parseLabels } from "../cli/options.js";
import { printJson, printTable, styles } from "../cli/output.js";
import type { KboxClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import type { Classification } from "../client/routes/common.js";
import * as resources from "../client/routes/resources.js";
import { DIRECT_MAX, directUpload, md5Of, tusUpload, type UploadJob } from "../client/upload.js";
import { addFolderFiles, type FolderExtras } from "./add-folder.js";
import { type AddResult, FAILED, waitFor } from "./add-wait.js";
import { originPath, walkFiles } from "./add-walk.js";
import { progressBar, tusState } from "./upload.js";

export { type AddResult, FAILED, waitFor };

export interface AddOptions {
  kb?: string;
  wait?: boolean;
  label?: string[];
  hidden?: boolean;
  slug?: string;
  json?: boolean;
  quiet?: boolean;
  splitStrategy?: string;
  extractStrategy?: string;
  include?: string[];
  exclude?: string[];
}

/** Strategy ids for every added field. */
type Strategies = { split_strategy?: string; extract_strategy?: string };

interface Item {
  source: string;
  url?: string;
  path?: string;
  /** origin.path for files found in a folder. */
  origin?: string;
  /** The folder given on the command line that this file was found in. */
  root?: string;
}

const URL_RE = /^https?:\/\//i;

function collectItems(
  ctx: Context,
  inputs: string[],
  failed: AddResult[],
  filter: { include?: string[]; exclude?: string[] } = {},
): Item[] {
  const items: Item[] = [];
  for (const input of inputs) {
    if (URL_RE.test(input)) {
      items.push({ source: input, url: input });
      continue;
    }
    const path = resolve(ctx.io.cwd, input);
    if (!existsSync(path)) {
      failed.push({ source: input, status: "FAILED", error: "no such file or directory" });
      continue;
    }
    if (statSync(path).isDirectory())
      for (const f of walkFiles(path, filter)) items.push({ source: f, path: f, origin: originPath(path, f), root: path });
    else items.push({ source: input, path });
  }
  return items;
}

/** Files found in folders, one group per folder input (a folder named twice is added twice, as a file would be). */
function folderGroups(items: Item[]): { root: string; paths: string[]; items: Item[] }[] {
  const out: { root: string; paths: string[]; items: Item[]; seen: Set<string> }[] = [];
  for (const item of items) {
    const path = item.path as string;
    const last = out[out.length - 1];
    if (last && last.root === item.root && !last.seen.has(path)) {
      last.paths.push(path);
      last.items.push(item);
      last.seen.add(path);
    } else out.push({ root: item.root as string, paths: [path], items: [item], seen: new Set([path]) });
  }
  return out;
}

async function addUrl(
  client: KboxClient,
  kbid: string,
  item: Item,
  extra: resources.CreateResource,
  strategies: Strategies,
): Promise<AddResult> {
  const uri = item.url as string;
  const body: resources.CreateResource = { title: uri, ...extra, links: { link: { uri, ...strategies } }, origin: { url: uri } };
  const r = await client.call(resources.createResource, { params: { kbid }, body });
  return { source: item.source, resource: r.uuid, status: "PENDING" };
}

async function addFile(
  ctx: Context,
  client: KboxClient,
  kbid: string,
  item: Item,
  extra: resources.CreateResource,
  strategies: Strategies,
): Promise<AddResult> {
  const path = item.path as string;
  const job: UploadJob = {
    kbid,
    path,
    md5: await md5Of(path),
    splitStrategy: strategies.split_strategy,
    extractStrategy: strategies.extract_strategy,
  };
  const withPayload = Object.keys(extra).length > 0 || item.origin !== undefined;
  if (withPayload) job.create = { ...extra, origin: { filename: basename(path), ...(item.origin ? { path: item.origin } : {}) } };
  // Small plain files take one request; big ones (or with labels, origin...) go by TUS, which carries a payload.
  const out =
    !withPayload && statSync(path).size <= DIRECT_MAX
      ? await directUpload(client, job)
      : await tusUpload(client, job, tusState(ctx));
  return { source: item.source, resource: out.uuid, status: "PENDING" };
}

/**
 * A file already in the knowledge box (same MD5): name the resource it is in, and give it the
 * labels asked for (added to the ones it has), so re-adding a file with new labels labels it.
 */
async function duplicate(
  client: KboxClient,
  kbid: string,
  item: Item,
  detail: string,
  labels: Classification[] | undefined,
): Promise<AddResult> {
  const rid = /already exists in resource (\w+)/.exec(detail)?.[1];
  const out: AddResult = { source: item.source, status: "DUPLICATE", error: "already in the knowledge box" };
  if (!rid) return out;
  out.resource = rid;
  if (!labels?.length) return { ...out, error: `already in the knowledge box as ${rid}` };
  const res = await client.call(resources.getResource.byId, { params: { kbid, rid } });
  const have = ((res.usermetadata as { classifications?: Classification[] } | undefined)?.classifications ?? []).map((c) => ({
    labelset: c.labelset,
    label: c.label,
  }));
  const key = (c: Classification) => `${c.labelset}/${c.label}`;
  const fresh = labels.filter((l) => !have.some((h) => key(h) === key(l)));
  if (fresh.length)
    await client.call(resources.updateResource.byId, {
      params: { kbid, rid },
      body: { usermetadata: { classifications: [...have, ...fresh] } },
    });
  return {
    ...out,
    error: `already in the knowledge box as ${rid}; labels ${labels.map(key).join(", ")} ${fresh.length ? "applied" : "already set"}`,
  };
}

/** Files sent at once: enough for the daemon to batch its commits (see daemon/store/write-queue.ts). */
const UPLOADS_IN_FLIGHT = 8;

/** Run `fn` over `items`, `width` at a time, in input order. */
async function pool<T, R>(items: T[], width: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

function report(ctx: Context, results: AddResult[], opts: AddOptions): void {
  if (opts.json) {
    printJson(ctx.io, { results });
    return;
  }
  const st = styles(ctx.io);
  const colour = (s: string) => (FAILED.has(s) ? st.red(s) : s === "PROCESSED" ? st.green(s) : s);
  printTable(
    ctx.io,
    [
      { header: "resource", get: (r: AddResult) => r.resource ?? "-" },
      { header: "status", get: (r) => colour(r.status) },
      { header: "source", get: (r) => r.source },
      ...(results.some((r) => r.error) ? [{ header: "error", get: (r: AddResult) => r.error ?? "" }] : []),
    ],
    results,
  );
}

export async function runAdd(ctx: Context, inputs: string[], opts: AddOptions): Promise<void> {
  if (!inputs.length) throw usageError("nothing to add: give files, folders or URLs");
  const failed: AddResult[] = [];
  const items = collectItems(ctx, inputs, failed, { include: opts.include, exclude: opts.exclude });
  if (opts.slug && items.length + failed.length !== 1) throw usageError("--slug names one resource: give one file or URL");
  const classifications: Classification[] | undefined = parseLabels(opts.label);
  const extra: resources.CreateResource = {
    ...(opts.slug ? { slug: opts.slug } : {}),
    ...(opts.hidden ? { hidden: true } : {}),
    ...(classifications ? { usermetadata: { classifications } } : {}),
  };
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const bar = opts.quiet ? () => undefined : progressBar(ctx, "files");
  let sent = 0;
  const strategies: Strategies = {
    ...(opts.splitStrategy ? { split_strategy: opts.splitStrategy } : {}),
    ...(opts.extractStrategy ? { extract_strategy: opts.extractStrategy } : {}),
  };
  const tick = () => bar(++sent, items.length);
  // The local daemon reads a folder's files itself, in one request; a remote one gets them uploaded.
  const local = client.target.kind === "unix" && !opts.slug;
  const uploaded = items.filter((i) => !(local && i.root));
  const done = new Map<Item, AddResult>();
  const added = await pool(uploaded, UPLOADS_IN_FLIGHT, async (item): Promise<AddResult> => {
    try {
      return item.url
        ? await addUrl(client, kbid, item, extra, strategies)
        : await addFile(ctx, client, kbid, item, extra, strategies);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) return duplicate(client, kbid, item, String(e.detail), classifications);
      return { source: item.source, status: "FAILED", error: e instanceof ApiError ? String(e.detail) : (e as Error).message };
    } finally {
      tick();
    }
  });
  for (const [k, item] of uploaded.entries()) done.set(item, added[k]);
  const folderExtras: FolderExtras = {
    ...(classifications ? { labels: classifications } : {}),
    ...(opts.hidden ? { hidden: true } : {}),
    ...strategies,
  };
  for (const group of folderGroups(items.filter((i) => local && i.root))) {
    const got = await addFolderFiles(client, kbid, group.root, group.paths, folderExtras, tick);
    for (const [k, item] of group.items.entries()) done.set(item, got[k]);
  }
  const results = [...items.map((i) => done.get(i) as AddResult), ...failed];
  if (opts.wait) await waitFor(ctx, client, kbid, results, opts.quiet);
  report(ctx, results, opts);
  const bad = results.filter((r) => FAILED.has(r.status)).length;
  if (bad && bad === results.length) ctx.exitCode = EXIT.failure;
  else if (bad) ctx.exitCode = EXIT.partial;
}

export function addCommand(ctx: Context): Command {
  return new Command("add")
    .description("Add files, folders (recursively) and URLs to a knowledge box")
    .argument("<inputs...>", "files, folders or http(s) URLs")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option(
      "--wait",
      "follow processing until every resource is done (exit 5 when some failed, ERROR/EXPIRED/BLOCKED, 1 when all did)",
    )
    .option("--label <labelset/label>", "classification for every added resource (repeatable)", collect)
    .option("--hidden", "add them hidden")
    .option("--slug <slug>", "slug of the resource (one input only)")
    .option("--split-strategy <id>", "split every added field with this split strategy (see kbox strategy)")
    .option("--extract-strategy <id>", "process every added field with this extract strategy")
    .option("--include <glob>", "in folders, add only the files matching this glob (repeatable; gitignore syntax)", collect)
    .option("--exclude <glob>", "in folders, skip the files matching this glob (repeatable)", collect)
    .option("--json", "print the results as JSON")
    .addHelpText(
      "after",
      "\nFolders are walked recursively; dotfiles, paths matched by .gitignore or .kboxignore and site assets\n" +
        "(stylesheets, scripts, fonts, source maps, search indexes) are skipped; --include takes them back.\n" +
        "Files already in the knowledge box (same MD5) are reported as DUPLICATE and not added again.\n" +
        "The local daemon reads a folder's files itself (one request); a remote profile gets each file uploaded.\n\n" +
        "Examples:\n  kbox add ./docs --wait\n  kbox add report.pdf https://example.com/page --label topic/q3\n  kbox add notes.md --slug notes --kb work",
    )
    .action(async (inputs: string[], _o, cmd: Command) => runAdd(ctx, inputs, ctx.opts<AddOptions>(cmd)));
}
