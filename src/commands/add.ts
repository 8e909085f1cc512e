import { existsSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { Command } from "commander";
import type { Context } from "../cli/context.js";
import { EXIT, usageError } from "../cli/errors.js";
import { collect, parseLabels } from "../cli/options.js";
import { printJson, printTable, styles } from "../cli/output.js";
import type { KboxClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import type { Classification, ResourceStatus } from "../client/routes/common.js";
import { processingStatus } from "../client/routes/processing.js";
import * as resources from "../client/routes/resources.js";
import { DIRECT_MAX, directUpload, md5Of, tusUpload, type UploadJob } from "../client/upload.js";
import { originPath, walkFiles } from "./add-walk.js";
import { progressBar, tusState } from "./upload.js";

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
}

/** What happened to one input: its resource and status (PENDING until --wait follows it). */
export interface AddResult {
  source: string;
  resource?: string;
  status: string;
  error?: string;
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
      for (const f of walkFiles(path, filter)) items.push({ source: f, path: f, origin: originPath(path, f) });
    else items.push({ source: input, path });
  }
  return items;
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

/** Statuses that end processing with a failure (the exit code counts them). */
export const FAILED = new Set(["FAILED", "ERROR", "EXPIRED", "BLOCKED"]);

/** Follow processing until none of `results` is PENDING; a bar on a TTY, a line per change when piped. */
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
  for (;;) {
    const pending = await idsIn(client, kbid, ["PENDING"]);
    const left = [...mine].filter((rid) => pending.has(rid)).length;
    const retrying = [...mine].filter((rid) => pending.get(rid)?.retrying).length;
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
    if (!r.resource || !mine.has(r.resource)) continue;
    const e = ended.get(r.resource);
    Object.assign(r, e ? { status: e.status, ...(e.error ? { error: e.error } : {}) } : { status: "PROCESSED" });
  }
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
  const added = await pool(items, UPLOADS_IN_FLIGHT, async (item): Promise<AddResult> => {
    try {
      return item.url
        ? await addUrl(client, kbid, item, extra, strategies)
        : await addFile(ctx, client, kbid, item, extra, strategies);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) return duplicate(client, kbid, item, String(e.detail), classifications);
      return { source: item.source, status: "FAILED", error: e instanceof ApiError ? String(e.detail) : (e as Error).message };
    } finally {
      bar(++sent, items.length);
    }
  });
  const results = [...added, ...failed];
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
        "Files already in the knowledge box (same MD5) are reported as DUPLICATE and not added again.\n\n" +
        "Examples:\n  kbox add ./docs --wait\n  kbox add report.pdf https://example.com/page --label topic/q3\n  kbox add notes.md --slug notes --kb work",
    )
    .action(async (inputs: string[], _o, cmd: Command) => runAdd(ctx, inputs, ctx.opts<AddOptions>(cmd)));
}
