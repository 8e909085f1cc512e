import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { readStdin } from "../../cli/prompt.js";
import { ApiError } from "../../client/errors.js";
import { readAll } from "../../client/transport.js";

type Opts = { field?: string[]; rawField?: string[]; header?: string[]; input?: string; paginate?: boolean; json?: boolean };
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
const collect = (v: string, prev: string[] = []) => [...prev, v];
/** Pages a `--paginate` run fetches at most (a runaway zone must not loop forever). */
const MAX_PAGES = 1000;

function pairs(list: string[] | undefined, typed: boolean): [string, unknown][] {
  return (list ?? []).map((f) => {
    const i = f.indexOf("=");
    if (i < 1) throw usageError(`expected key=value, got ${JSON.stringify(f)}`);
    const raw = f.slice(i + 1);
    if (!typed) return [f.slice(0, i), raw];
    try {
      return [f.slice(0, i), JSON.parse(raw)];
    } catch {
      return [f.slice(0, i), raw];
    }
  });
}

/** `/kbs`, `kb/{kb}/find`, `/api/authorizer/info`: a path on the zone, with {account} and {kb} filled in. */
async function resolvePath(ctx: Context, path: string, opts: Opts): Promise<string> {
  let p = path.startsWith("/") ? path : `/${path}`;
  if (!p.startsWith("/api/")) p = `/api/v1${p}`;
  if (p.includes("{account}")) p = p.replaceAll("{account}", encodeURIComponent(await ctx.account(opts)));
  if (p.includes("{kb}")) p = p.replaceAll("{kb}", encodeURIComponent(await ctx.kbid(opts)));
  return p;
}

/** The next page of a paginated answer (`pagination.last` false), as the query to send, or undefined. */
function nextPage(body: unknown, query: URLSearchParams): URLSearchParams | undefined {
  const pg = (body as { pagination?: { last?: boolean; page?: number } } | undefined)?.pagination;
  if (!pg || pg.last !== false) return undefined;
  const key = query.has("page") ? "page" : "page_number";
  const next = new URLSearchParams(query);
  next.set(key, String(Number(query.get(key) ?? pg.page ?? 0) + 1));
  return next;
}

export async function runApi(ctx: Context, method: string, path: string, opts: Opts): Promise<void> {
  const m = method.toUpperCase();
  if (!METHODS.includes(m)) throw usageError(`unknown method ${method}`, METHODS.join(", "));
  const full = await resolvePath(ctx, path, opts);
  const [base, search = ""] = full.split("?");
  let query = new URLSearchParams(search);
  const fields = [...pairs(opts.field, true), ...pairs(opts.rawField, false)];
  const headers: Record<string, string> = {};
  for (const [k, v] of pairs(
    opts.header?.map((h) => h.replace(":", "=")),
    false,
  ))
    headers[k.toLowerCase()] = String(v).trim();
  let body: string | undefined;
  if (opts.input !== undefined) body = opts.input === "-" ? await readStdin(ctx) : readFileSync(opts.input, "utf8");
  else if (fields.length && (m === "GET" || m === "DELETE" || m === "HEAD"))
    for (const [k, v] of fields) query.append(k, typeof v === "string" ? v : JSON.stringify(v));
  else if (fields.length) body = JSON.stringify(Object.fromEntries(fields));
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const client = await ctx.client();
  for (let page = 0; page < MAX_PAGES; page++) {
    const q = query.toString();
    const res = await client.raw({ method: m, path: q ? `${base}?${q}` : base, headers, body });
    const text = (await readAll(res.body)).toString("utf8");
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {}
    if (data !== undefined) {
      if (typeof data === "string") ctx.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
      else printJson(ctx.io, data);
    }
    if (res.status >= 400) throw new ApiError(res.status, (data as { detail?: unknown } | undefined)?.detail ?? data);
    const next = opts.paginate && m === "GET" ? nextPage(data, query) : undefined;
    if (!next) return;
    query = next;
  }
}

export function apiCommand(ctx: Context): Command {
  return new Command("api")
    .description("Call any operation of a zone with the profile's credentials (as gh api)")
    .argument("<method>", "GET, POST, PUT, PATCH, DELETE or HEAD")
    .argument("<path>", "path under /api/v1 (or from /api/); {account} and {kb} are filled in")
    .option(
      "-F, --field <key=value>",
      "a JSON-typed field: query parameter for GET/DELETE, body member otherwise (repeatable)",
      collect,
    )
    .option("-f, --raw-field <key=value>", "a string field (repeatable)", collect)
    .option("-H, --header <name:value>", "an extra request header (repeatable)", collect)
    .option("--input <file>", "the request body from a file (- for stdin)")
    .option("--paginate", "follow `pagination` to the last page, printing each")
    .option("--json", "JSON output (the default for JSON answers)")
    .addHelpText(
      "after",
      [
        "",
        "Exit codes are kbox's: 0 ok, 1 an error status, 3 unreachable, 4 refused (401/403).",
        "",
        "Examples:",
        "  kbox api GET /account/{account}/kbs",
        "  kbox api POST /account/{account}/kbs -f slug=docs -f title=Docs",
        "  kbox api GET /kb/{kb}/catalog --paginate -F page_size=50",
        "  kbox api GET /api/authorizer/info",
      ].join("\n"),
    )
    .action(async (method: string, path: string, _o, c: Command) => runApi(ctx, method, path, ctx.opts(c)));
}
