import { Command } from "commander";
import type { CredentialKind } from "../../cli/config.js";
import type { Context } from "../../cli/context.js";
import { saveSecret } from "../../cli/credentials.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { readStdin } from "../../cli/prompt.js";
import type { KboxClient } from "../../client/client.js";
import { ApiError, UnreachableError } from "../../client/errors.js";
import * as kbs from "../../client/routes/kbs.js";
import * as zoneApi from "../../client/routes/zone.js";
import { checkProfileName, normaliseUrl } from "../profile/shared.js";

export interface AuthLoginOptions {
  kind?: string;
  account?: string;
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

/** Check the credential against the zone: the knowledge box (a KB key) or the account must answer with it. */
async function verify(
  ctx: Context,
  url: string,
  kb: string | undefined,
  key: string,
  kind: CredentialKind,
  account?: string,
): Promise<string> {
  const client = await ctx.connect({ kind: "http", baseUrl: url, apiKey: key, credential: kind });
  try {
    return await check(client, kb, account, kind);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      throw new CliError(
        `the zone refused the API key (${e.status})`,
        EXIT.auth,
        "check the key and its expiry; nothing was stored",
      );
    }
    if (e instanceof ApiError && e.status === 404)
      throw new CliError(`${kb ? `knowledge box ${kb}` : `account ${account}`} not found on ${url}`, EXIT.failure);
    if (e instanceof UnreachableError)
      throw new CliError(e.message, EXIT.unreachable, "check the --zone URL, or pass --no-verify");
    throw e;
  }
}

/** What answers for a credential: the knowledge box's slug, or the account's. */
async function check(
  client: KboxClient,
  kb: string | undefined,
  account: string | undefined,
  kind?: CredentialKind,
): Promise<string> {
  if (kb) {
    const got = /^[0-9a-f-]{36}$/i.test(kb)
      ? await client.call(kbs.getKb, { params: { kbid: kb } })
      : await client.call(kbs.getKbBySlug, { params: { slug: kb } });
    return got.slug;
  }
  const info = account ? undefined : await client.call(zoneApi.authorizerInfo);
  // A NUA key serves the understanding API only: who it is (authorizer info) is all it can read.
  if (kind === "nua-key" && info?.user?.account_id) return info.user.account_slug ?? info.user.account_id;
  const ref = account ?? info?.user?.account_id;
  if (!ref) throw new CliError("the zone did not say which account this credential belongs to", EXIT.failure, "pass --account");
  return (await client.call(zoneApi.getAccount, { params: { account: ref } })).slug;
}

const KINDS: CredentialKind[] = ["kb-key", "account-key", "user-token", "nua-key"];

/** Create or update a remote profile and store its API key (OS keyring, else the 0600 credentials file). */
export async function runAuthLogin(ctx: Context, opts: AuthLoginOptions): Promise<void> {
  const name = checkProfileName(opts.profile ?? (opts.zone ? profileNameFor(normaliseUrl(opts.zone)) : ""));
  const existing = ctx.config.profiles[name];
  if (name === "local" || existing?.kind === "local")
    throw usageError(`profile ${name} is a local profile`, "choose another --profile for the remote zone");
  const zone = opts.zone ? normaliseUrl(opts.zone) : existing?.url;
  if (!zone) throw usageError("no zone given", "pass --zone <base_url>");
  const kind = (opts.kind ?? existing?.credential ?? "kb-key") as CredentialKind;
  if (!KINDS.includes(kind)) throw usageError(`unknown credential kind ${opts.kind}`, `kinds: ${KINDS.join(", ")}`);
  const kb = opts.kb ?? existing?.kb;
  if (!kb && kind === "kb-key")
    throw usageError("no knowledge box given", "pass --kb <kbid> (the key is scoped to one knowledge box), or another --kind");
  const account = opts.account ?? existing?.account;
  const key = await readKey(ctx, opts.apiKey);
  const slug =
    opts.verify === false ? undefined : await verify(ctx, zone, kind === "kb-key" ? kb : undefined, key, kind, account);
  const stored = await saveSecret(ctx, name, key);
  ctx.config.profiles[name] = {
    kind: "remote",
    url: zone,
    ...(kb ? { kb } : {}),
    ...(account ? { account } : {}),
    credential: kind,
    secret: stored.backend,
  };
  if (opts.use !== false) ctx.config.current_profile = name;
  ctx.saveConfig();
  if (opts.json)
    return printJson(ctx.io, {
      profile: name,
      url: zone,
      kb,
      credential: kind,
      account,
      verified: slug !== undefined,
      secret: stored.backend,
      location: stored.location,
    });
  ctx.status(
    `logged in to ${zone} (${kind === "kb-key" ? `knowledge box ${slug ?? kb}` : `${kind}, account ${slug ?? account ?? "of the credential"}`}) as profile ${name}${opts.use !== false ? ", now active" : ""}`,
    opts,
  );
  ctx.status(`key stored in ${stored.location}${stored.why ? ` (${stored.why})` : ""}`, opts);
}

export function authLoginCommand(ctx: Context): Command {
  return new Command("login")
    .description("Store a credential for a remote zone (creates or updates a remote profile)")
    .option("--zone <url>", "zone or kbox daemon base URL, with or without /api/v1")
    .option("--kind <kind>", "kb-key (default), account-key, user-token (personal access token) or nua-key")
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
        "  kbox auth login --kind user-token --zone http://10.0.0.5:8080 --account local --api-key - < pat.txt",
        "  pass show nuclia/key | kbox auth login --profile work --zone https://europe-1.nuclia.cloud --kb 7c0e… --api-key -",
      ].join("\n"),
    )
    .action(async (_o, cmd: Command) => runAuthLogin(ctx, ctx.opts(cmd)));
}
