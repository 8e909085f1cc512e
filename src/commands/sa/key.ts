import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { confirm } from "../../cli/prompt.js";
import * as accounts from "../../client/routes/accounts.js";
import { parseExpiry, saScope } from "./shared.js";

export async function runKeyCreate(
  ctx: Context,
  saId: string,
  opts: { expires: string; json?: boolean; kb?: string; quiet?: boolean },
): Promise<void> {
  const expires = parseExpiry(opts.expires);
  if (!expires) throw usageError(`--expires ${JSON.stringify(opts.expires)} is not a date or a duration like 30d`);
  const res = await (await ctx.client(opts)).call(accounts.createServiceAccountKey, {
    params: { ...(await saScope(ctx, opts)), sa_id: saId },
    body: { expires },
  });
  if (opts.json) return printJson(ctx.io, { ...res, expires });
  ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`key ${res.id} expires ${expires}; the token is shown only now`, opts);
}

export async function runKeyDelete(
  ctx: Context,
  saId: string,
  keyId: string,
  opts: { yes?: boolean; kb?: string; quiet?: boolean },
): Promise<void> {
  const scope = await saScope(ctx, opts);
  await confirm(ctx, opts, `delete key ${keyId}`);
  await (await ctx.client(opts)).call(accounts.deleteServiceAccountKey, { params: { ...scope, sa_id: saId, key_id: keyId } });
  ctx.status(`deleted key ${keyId}`, opts);
}

export function saKeyCommand(ctx: Context): Command {
  const key = new Command("key").description("Create and delete service-account keys");
  key
    .command("create")
    .description("Create a key; prints the token once")
    .argument("<sa>", "service account id")
    .requiredOption("--expires <when>", "expiry: an ISO date or a duration (12h, 30d, 1y)")
    .option("--kb <kb>", "the knowledge box the account belongs to")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox sa key create 5b0c… --expires 90d > key.txt")
    .action(async (sa: string, _o, cmd: Command) => runKeyCreate(ctx, sa, ctx.opts(cmd)));
  key
    .command("delete")
    .alias("rm")
    .description("Delete a key")
    .addHelpText("after", "\nExample:\n  kbox sa key delete 5b0c… 9f2e… --kb notes --yes")
    .argument("<sa>", "service account id")
    .argument("<key>", "key id")
    .option("--kb <kb>", "the knowledge box the account belongs to")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (sa: string, k: string, _o, cmd: Command) => runKeyDelete(ctx, sa, k, ctx.opts(cmd)));
  return key;
}
