import { Command } from "commander";
import { type Context, ENV_PROFILE } from "../../cli/context.js";
import { credentialsFile, describeSecret, keyringStatus, loadSecret } from "../../cli/credentials.js";
import { EXIT } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import { ApiError } from "../../client/errors.js";
import * as kbs from "../../client/routes/kbs.js";

interface Row {
  profile: string;
  active: boolean;
  kind: string;
  url: string | null;
  kb: string | null;
  /** keyring | file | env | none (local profiles need no key). */
  secret: string;
  location: string | null;
  check?: string;
}

async function rows(ctx: Context, opts: { profile?: string }): Promise<Row[]> {
  const active = ctx.profileName(opts);
  const names = opts.profile
    ? [opts.profile]
    : [...new Set([...Object.keys(ctx.config.profiles), ...(active === ENV_PROFILE ? [active] : [])])];
  const envKey = Boolean(ctx.env.apiKey);
  return names.map((name) => {
    const p = name === active ? ctx.profile(opts) : ctx.config.profiles[name];
    const base = { profile: name, active: name === active, kind: p.kind, url: p.url ?? null, kb: p.kb ?? null };
    if (p.kind === "local") return { ...base, secret: "none", location: "trusted Unix socket" };
    if (envKey && name === active) return { ...base, secret: "env", location: "KBOX_API_KEY" };
    if (!p.secret) return { ...base, secret: "none", location: null };
    return { ...base, secret: p.secret, location: describeSecret(ctx, name, p.secret) };
  });
}

/** Ask the zone whether a remote profile's key is accepted. */
async function check(ctx: Context, r: Row): Promise<string> {
  if (r.kind === "local") return "ok";
  try {
    const key =
      r.secret === "env" ? ctx.env.apiKey : await loadSecret(ctx, r.profile, r.secret === "keyring" ? "keyring" : "file");
    if (!key) return "no key";
    const client = await ctx.connect({ kind: "http", baseUrl: r.url ?? "", apiKey: key });
    if (r.kb && /^[0-9a-f-]{36}$/i.test(r.kb)) await client.call(kbs.getKb, { params: { kbid: r.kb } });
    else if (r.kb) await client.call(kbs.getKbBySlug, { params: { slug: r.kb } });
    return "ok";
  } catch (e) {
    if (e instanceof ApiError) return e.status === 401 || e.status === 403 ? `refused (${e.status})` : `error ${e.status}`;
    return (e as Error).message;
  }
}

/** Where each profile's secret lives; with --check, whether the zone accepts it. */
export async function runAuthStatus(
  ctx: Context,
  opts: { json?: boolean; check?: boolean; profile?: string; quiet?: boolean },
): Promise<void> {
  const list = await rows(ctx, opts);
  if (opts.check) for (const r of list) r.check = await check(ctx, r);
  const keyring = await keyringStatus(ctx);
  if (opts.check && list.some((r) => r.check !== "ok")) ctx.exitCode = EXIT.auth;
  if (opts.json) return printJson(ctx.io, { keyring, credentials_file: credentialsFile(ctx.paths.config), profiles: list });
  const cols = [
    { header: "", get: (r: Row) => (r.active ? "*" : "") },
    { header: "profile", get: (r: Row) => r.profile },
    { header: "url", get: (r: Row) => r.url ?? "(local daemon)" },
    { header: "secret", get: (r: Row) => r.secret },
    { header: "location", get: (r: Row) => r.location },
  ];
  if (opts.check) cols.push({ header: "check", get: (r: Row) => r.check ?? "" });
  printTable(ctx.io, cols, list);
  ctx.status(
    keyring.available
      ? `keyring: ${keyring.detail}`
      : `keyring: unavailable (${keyring.detail}); keys go to ${credentialsFile(ctx.paths.config)}`,
    opts,
  );
}

export function authStatusCommand(ctx: Context): Command {
  return new Command("status")
    .description("Show where each profile's API key is stored (OS keyring, file or environment)")
    .option("--check", "also ask each remote zone whether it accepts the key (exit 4 if one is refused)")
    .option("--json", "print as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox auth status\n  kbox auth status --check --profile work\n  kbox auth status --json | jq '.keyring.available'",
    )
    .action(async (_o, cmd: Command) => runAuthStatus(ctx, ctx.opts(cmd)));
}
