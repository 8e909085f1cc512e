import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { progress } from "../../cli/progress.js";
import type { KboxClient } from "../../client/client.js";
import * as kbs from "../../client/routes/kbs.js";
import * as resources from "../../client/routes/resources.js";
import * as uploads from "../../client/routes/uploads.js";
import { readAll } from "../../client/transport.js";

/** One side of a transfer: a client and a knowledge box on it. */
export interface Side {
  client: KboxClient;
  kbid: string;
  /** How the report names it (profile and slug). */
  name: string;
}

/** What a push or pull did. */
export interface TransferReport {
  from: string;
  to: string;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  /** What could not be carried, and why. */
  skipped: { resource: string; reason: string }[];
}

/** The slug → content hash of what the last transfer sent, kept by the CLI so that the next sends only changes. */
type State = Record<string, string>;

const STATE_VERSION = 1;

function statePath(ctx: Context, key: string): string {
  return join(dirname(ctx.paths.config), "transfers", `${createHash("sha1").update(key).digest("hex").slice(0, 20)}.json`);
}

function loadState(path: string): State {
  try {
    const s = JSON.parse(readFileSync(path, "utf8")) as { version: number; sent: State };
    return s.version === STATE_VERSION ? s.sent : {};
  } catch {
    return {};
  }
}

function saveState(path: string, sent: State): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(`${path}.tmp`, JSON.stringify({ version: STATE_VERSION, sent }), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** Every resource id of a box (all pages). */
async function listIds(side: Side): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page++) {
    const r = await side.client.call(resources.listResources, { params: { kbid: side.kbid }, query: { page, size: 100 } });
    ids.push(...r.resources.map((x) => x.id));
    if (r.pagination.last) return ids;
  }
}

type Fields = Record<string, Record<string, { value?: Record<string, unknown> }> | undefined>;

/**
 * The create body that carries a resource to the other side, its files' bytes inline. The target
 * processes it again (extracted text and vectors are its own: a zone computes them with its model).
 */
async function bodyOf(src: Side, rid: string): Promise<{ slug: string; body: Record<string, unknown>; skipped: string[] }> {
  const r = (await src.client.call(resources.getResource.byId, {
    params: { kbid: src.kbid, rid },
    query: { show: ["basic", "origin", "extra", "values", "security"] },
  })) as Record<string, unknown> & { slug?: string; data?: Fields };
  const skipped: string[] = [];
  const body: Record<string, unknown> = { slug: r.slug ?? rid };
  for (const k of [
    "title",
    "summary",
    "icon",
    "thumbnail",
    "usermetadata",
    "fieldmetadata",
    "origin",
    "extra",
    "hidden",
    "security",
  ])
    if (r[k] !== undefined && r[k] !== null) body[k] = r[k];
  const data = r.data ?? {};
  for (const kind of ["texts", "links", "conversations", "key_values"]) {
    const fields = data[kind];
    if (!fields) continue;
    body[kind] = Object.fromEntries(Object.entries(fields).flatMap(([id, f]) => (f.value ? [[id, f.value]] : [])));
  }
  const files = data.files ?? {};
  const out: Record<string, unknown> = {};
  for (const [id, f] of Object.entries(files)) {
    const file = (f.value?.file ?? {}) as Record<string, unknown>;
    const res = await src.client.exchange(uploads.downloadField.byId, {
      params: { kbid: src.kbid, rid, field_id: id },
      query: {},
    });
    const bytes = await readAll(res.body);
    if (res.status !== 200) {
      skipped.push(`file ${id}: the source answered ${res.status}`);
      continue;
    }
    const { uri: _u, size: _s, md5: _m, ...meta } = file;
    out[id] = { ...f.value, file: { ...meta, payload: bytes.toString("base64") } };
  }
  if (Object.keys(out).length) body.files = out;
  return { slug: String(body.slug), body, skipped };
}

/** The content hash of what is sent: the next transfer sends the resource again only when it changes. */
const hashOf = (body: Record<string, unknown>) => createHash("sha256").update(JSON.stringify(body)).digest("hex");

/** Copy `src`'s resources into `dst`: new ones created, changed ones replaced, ones deleted since the last transfer deleted. */
export async function transfer(
  ctx: Context,
  opts: GlobalOptions & { quiet?: boolean; json?: boolean },
  src: Side,
  dst: Side,
): Promise<TransferReport> {
  const path = statePath(ctx, `${src.name}|${src.kbid}|${dst.name}|${dst.kbid}`);
  const sent = loadState(path);
  const report: TransferReport = { from: src.name, to: dst.name, created: 0, updated: 0, deleted: 0, unchanged: 0, skipped: [] };
  const ids = await listIds(src);
  const p = progress(ctx, { label: "resources", total: ids.length, quiet: opts.quiet || opts.json });
  const present = new Set<string>();
  for (const rid of ids) {
    const { slug, body, skipped } = await bodyOf(src, rid);
    present.add(slug);
    for (const s of skipped) report.skipped.push({ resource: slug, reason: s });
    const hash = hashOf(body);
    if (sent[slug] === hash) {
      report.unchanged++;
      p.tick();
      continue;
    }
    try {
      const exists = await dst.client
        .call(resources.getResource.bySlug, { params: { kbid: dst.kbid, rslug: slug }, query: {} })
        .then(
          () => true,
          (e: { status?: number }) => (e.status === 404 ? false : Promise.reject(e)),
        );
      // A replaced resource is deleted and created again: its fields removed at the source must go too.
      if (exists) await dst.client.call(resources.deleteResource.bySlug, { params: { kbid: dst.kbid, rslug: slug } });
      await dst.client.call(resources.createResource, { params: { kbid: dst.kbid }, body: body as never });
      if (exists) report.updated++;
      else report.created++;
      sent[slug] = hash;
      saveState(path, sent); // after each resource: an interrupted transfer resumes where it stopped
    } catch (e) {
      report.skipped.push({ resource: slug, reason: (e as Error).message });
    }
    p.tick();
  }
  for (const slug of Object.keys(sent)) {
    if (present.has(slug)) continue;
    await dst.client
      .call(resources.deleteResource.bySlug, { params: { kbid: dst.kbid, rslug: slug } })
      .catch((e: { status?: number }) => (e.status === 404 ? undefined : Promise.reject(e)));
    delete sent[slug];
    report.deleted++;
    saveState(path, sent);
  }
  p.done(`${report.created} created, ${report.updated} updated, ${report.deleted} deleted, ${report.unchanged} unchanged`);
  return report;
}

/**
 * The knowledge box `ref` (slug or uuid) on a side; created with `title` when missing and `create` is
 * set (in `create.account` when given: a zone creates boxes in an account).
 */
export async function resolveKb(client: KboxClient, ref: string, create?: { title: string; account?: string }): Promise<string> {
  const uuid = /^[0-9a-f-]{36}$/i.test(ref);
  try {
    return uuid
      ? (await client.call(kbs.getKb, { params: { kbid: ref } })).uuid
      : (await client.call(kbs.getKbBySlug, { params: { slug: ref } })).uuid;
  } catch (e) {
    if ((e as { status?: number }).status !== 404 || !create || uuid) throw e;
    const body = { slug: ref, title: create.title };
    if (create.account) return (await client.call(kbs.accountCreateKb, { params: { account_id: create.account }, body })).id;
    return (await client.call(kbs.createKb, { body })).uuid;
  }
}

/** Print a transfer's report: counts on stderr, what could not be carried on stdout (or the JSON). */
export function printReport(ctx: Context, r: TransferReport, opts: { json?: boolean }): void {
  if (opts.json) {
    ctx.io.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  for (const s of r.skipped) ctx.io.stdout.write(`not carried\t${s.resource}\t${s.reason}\n`);
  ctx.status(
    `${r.from} -> ${r.to}: ${r.created} created, ${r.updated} updated, ${r.deleted} deleted, ${r.unchanged} unchanged`,
    opts,
  );
}
