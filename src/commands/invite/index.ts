import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { saveSecret } from "../../cli/credentials.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as members from "../../client/routes/members.js";
import { checkProfileName, normaliseUrl } from "../profile/shared.js";

type Opts = { name?: string; zone?: string; saveProfile?: string; json?: boolean; quiet?: boolean };

/** The token of an acceptance link (`…/invites/accept#<token>`) or the token itself. */
function tokenOf(arg: string): string {
  const t = arg.includes("#") ? arg.slice(arg.lastIndexOf("#") + 1) : arg;
  if (!/^kbox_inv_[\w-]+$/.test(t)) throw usageError("not an invitation token or link", "it starts with kbox_inv_");
  return t;
}

/** Redeem an invitation once: become a user of the box (or account) and get a personal access token. */
export async function runInviteAccept(ctx: Context, arg: string, opts: Opts): Promise<void> {
  const token = tokenOf(arg);
  const zone = opts.zone ? normaliseUrl(opts.zone) : undefined;
  // The accept route is public: a zone URL needs no credential.
  const client = zone ? await ctx.connect({ kind: "http", baseUrl: zone }) : await ctx.client(opts);
  const res = await client.call(members.acceptInvite, { body: { token, name: opts.name } });
  if (opts.saveProfile) {
    const name = checkProfileName(opts.saveProfile);
    if (!zone) throw usageError("--save-profile needs --zone", "the profile is a remote one");
    const stored = await saveSecret(ctx, name, res.token);
    ctx.config.profiles[name] = {
      kind: "remote",
      url: zone,
      credential: "user-token",
      account: res.account_id,
      ...(res.kb_id ? { kb: res.kb_id } : {}),
      secret: stored.backend,
    };
    ctx.saveConfig();
    ctx.status(`profile ${name} holds your user token (${stored.location})`, opts);
  }
  if (opts.json) return printJson(ctx.io, opts.saveProfile ? { ...res, token: undefined } : res);
  if (!opts.saveProfile) ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`you are ${res.email} (${res.user_id}), ${res.role} of ${res.kb_id ?? `account ${res.account_id}`}`, opts);
}

export function inviteCommand(ctx: Context): Command {
  const cmd = new Command("invite").description("Redeem an invitation to a knowledge box or an account");
  cmd
    .command("accept")
    .description("Redeem an invitation (once); prints your personal access token, or stores it in a profile")
    .argument("<token>", "the invitation token, or its link")
    .option("--name <name>", "your name, for a new user")
    .option("--zone <url>", "the zone that invited you (default: the active profile's)")
    .option("--save-profile <name>", "store the user token as a remote profile of that zone")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox invite accept kbox_inv_… --name Ana\n  kbox invite accept kbox_inv_… --zone http://10.0.0.5:8080 --save-profile team",
    )
    .action(async (t: string, _o, c: Command) => runInviteAccept(ctx, t, ctx.opts(c)));
  return cmd;
}
