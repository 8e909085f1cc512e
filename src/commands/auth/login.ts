import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { saveSecret } from "../../cli/credentials.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { readStdin } from "../../cli/prompt.js";
import type { KboxClient } from "../../client/client.js";
import { ApiError, UnreachableError } from "../../client/errors.js";
import * as kbs from "../../client/routes/kbs.js";
import { checkProfileName, normaliseUrl } from "../profile/shared.js";

export interface AuthLoginOptions {
  zone?: string;
  kb?: string;
  apiKey?: string;
  profile?: string;
  verify?: boolean;
  use?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Default profile name for a zone: its host (and port), e.g. europe-1.nuclia.cloud or 127.0.0.1-8080. */
export const profileNameFor = (url: string) => {
  const u = new URL(url);
  return u.port ? `${u.hostname}-${u.port}` : u.hostname;
};

async function readKey(ctx: Context, raw: string | undefined): Promise<string> {
  const fromEnv = ctx.env.apiKey;
  if (raw === undefined && !fromEnv)
    throw usageError("no API key given", "pass --api-key - and the key on stdin (or set KBOX_API_KEY)");
  // "-" reads stdin so the key never appears in the shell history or the process list.
  const key = (raw === "-" ? await readStdin(ctx) : (raw ?? fromEnv ?? "")).trim();
  if (!key) throw usageError("the API key is empty");
  if (/\s/.test(key)) throw usageError("the API key contains whitespace", "pass exactly one key");
  return key;
}

/** Check the key against the zone: the knowledge box must answer with it. */
async function verify(ctx: Context, url: string, kb: string, key: string): Promise<string> {
  const client = await ctx.connect({ kind: "http", baseUrl: url, apiKey: key });
  try {
    const got = /^[0-9a-f-]{36}$/i.test(kb)
      ? await client.call(kbs.getKb, { params: { kbid: kb } })
      : await client.call(kbs.getKbBySlug, { params: { slug: kb } });
    return got.slug;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      throw new CliError(
        `the zone refused the API key (${e.status})`,
        EXIT.auth,
        "check the key and its expiry; nothing was stored",
      );
    }
    if (e instanceof ApiError && e.status === 404) throw new CliError(`knowledge box ${kb} not found on ${url}`, EXIT.failure);
    if (e instanceof UnreachableError)
      throw new CliError(e.message, EXIT.unreachable, "check the --zone URL, or pass --no-verify");
    throw e;
  }
}

/** Create or update a remote profile and store its API key (OS keyring, else the 0600 credentials file). */
export async function runAuthLogin(ctx: Context, opts: AuthLoginOptions): Promise<void> {
  const name = checkProfileName(opts.profile ?? (opts.zone ? profileNameFor(normaliseUrl(opts.zone)) : ""));
  const existing = ctx.config.profiles[name];
  if (name === "local" || existing?.kind === "local")
    throw usageError(`profile ${name} is a local profile`, "choose another --profile for the remote zone");
  const zone = opts.zone ? normaliseUrl(opts.zone) : existing?.url;
  if (!zone) throw usageError("no zone given", "pass --zone <base_url>");
  const kb = opts.kb ?? existing?.kb;
  if (!kb) throw usageError("no knowledge box given", "pass --kb <kbid> (the key is scoped to one knowledge box)");
  const key = await readKey(ctx, opts.apiKey);
  const slug = opts.verify === false ? undefined : await verify(ctx, zone, kb, key);
  const stored = await saveSecret(ctx, name, key);
  ctx.config.profiles[name] = { kind: "remote", url: zone, kb, secret: stored.backend };
  if (opts.use !== false) ctx.config.current_profile = name;
  ctx.saveConfig();
  if (opts.json)
    return printJson(ctx.io, {
      profile: name,
      url: zone,
      kb,
      verified: slug !== undefined,
      secret: stored.backend,
      location: stored.location,
    });
  ctx.status(
    `logged in to ${zone} (knowledge box ${slug ?? kb}) as profile ${name}${opts.use !== false ? ", now active" : ""}`,
    opts,
  );
  ctx.status(`key stored in ${stored.location}${stored.why ? ` (${stored.why})` : ""}`, opts);
}

export function authLoginCommand(ctx: Context): Command {
  return new Command("login")
    .description("Store a knowledge box API key for a remote zone (creates or updates a remote profile)")
    .option("--zone <url>", "zone or kbox daemon base URL, with or without /api/v1")
    .option("--kb <kb>", "knowledge box id (or slug) the key belongs to")
    .option("--api-key <key>", "the key, or - to read it from stdin (default: KBOX_API_KEY)")
    .option("--no-verify", "store the key without checking it against the zone")
    .option("--no-use", "do not make the profile active")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      [
        "",
        "The profile is named by --profile, else after the zone's host. The key goes to the OS keyring",
        "when one answers, else to credentials.json (mode 0600) in the config dir; see `kbox auth status`.",
        "",
        "Examples:",
        "  kbox auth login --zone https://europe-1.nuclia.cloud --kb 7c0e… --api-key - < key.txt",
        "  pass show nuclia/key | kbox auth login --profile work --zone https://europe-1.nuclia.cloud --kb 7c0e… --api-key -",
      ].join("\n"),
    )
    .action(async (_o, cmd: Command) => runAuthLogin(ctx, ctx.opts(cmd)));
}
