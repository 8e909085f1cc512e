import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import { confirm } from "../../cli/prompt.js";
import * as zone from "../../client/routes/zone.js";
import { parseExpiry } from "../sa/shared.js";

type Opts = { expires?: string; description?: string; account?: string; json?: boolean; quiet?: boolean; yes?: boolean };

export async function runAuthTokenCreate(ctx: Context, opts: Opts): Promise<void> {
  const expiration_date = parseExpiry(opts.expires ?? "30d");
  if (!expiration_date) throw usageError(`--expires ${JSON.stringify(opts.expires)} is not a date or a duration like 30d`);
  const res = await (await ctx.client(opts)).call(zone.createPersonalToken, {
    body: { description: opts.description ?? "kbox", expiration_date, ...(opts.account ? { account: opts.account } : {}) },
  });
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`personal access token ${res.id} expires ${res.expires}; it is shown only now`, opts);
}

export async function runAuthTokenList(ctx: Context, opts: Opts): Promise<void> {
  const res = await (await ctx.client(opts)).call(zone.listPersonalTokens);
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (t) => t.id },
      { header: "description", get: (t) => t.description },
      { header: "account", get: (t) => t.account_id ?? "*" },
      { header: "expires", get: (t) => t.expires },
    ],
    res,
  );
}

export async function runAuthTokenDelete(ctx: Context, id: string, opts: Opts): Promise<void> {
  await confirm(ctx, opts, `delete personal access token ${id}`);
  await (await ctx.client(opts)).call(zone.deletePersonalToken, { params: { token_id: id } });
  ctx.status(`deleted token ${id}; tokens it minted stop working too`, opts);
}

/** `kbox auth token`: personal access tokens, which authorise account management as `Authorization: Bearer`. */
export function authTokenCommand(ctx: Context): Command {
  const cmd = new Command("token").description("Personal access tokens (user tokens) for account-level management");
  cmd
    .command("create")
    .description("Create a personal access token; prints it once")
    .option("--expires <when>", "expiry: an ISO date or a duration (12h, 30d, 1y)", "30d")
    .option("--description <text>", "what it is for")
    .option("--json", "print {id, token, expires}")
    .addHelpText("after", "\nExample:\n  kbox auth token create --account local --expires 1d --json")
    .action(async (_o, c: Command) => runAuthTokenCreate(ctx, ctx.opts(c)));
  cmd
    .command("list")
    .alias("ls")
    .description("List your personal access tokens (never their secrets)")
    .addHelpText("after", "\nExample:\n  kbox auth token list")
    .option("--json", "print the wire response")
    .action(async (_o, c: Command) => runAuthTokenList(ctx, ctx.opts(c)));
  cmd
    .command("delete")
    .alias("rm")
    .description("Delete a personal access token")
    .addHelpText("after", "\nExample:\n  kbox auth token delete 5b0c… --yes")
    .argument("<id>", "token id")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (id: string, _o, c: Command) => runAuthTokenDelete(ctx, id, ctx.opts(c)));
  return cmd;
}
