import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as kbs from "../../client/routes/kbs.js";

export interface KbUpdateOptions {
  title?: string;
  description?: string;
  slug?: string;
  enforceSecurity?: boolean;
  json?: boolean;
  kb?: string;
  quiet?: boolean;
}

export async function runKbUpdate(ctx: Context, ref: string | undefined, opts: KbUpdateOptions): Promise<void> {
  const body: kbs.UpdateKb = {
    title: opts.title,
    description: opts.description,
    slug: opts.slug,
    enforce_security: opts.enforceSecurity,
  };
  if (Object.values(body).every((v) => v === undefined))
    throw usageError("nothing to update", "pass --title, --description, --slug or --enforce-security");
  const kbid = await ctx.kbid({ ...opts, kb: ref ?? opts.kb });
  const account = await ctx.accountForm(opts);
  const client = await ctx.client(opts);
  const res = account
    ? (await client.call(kbs.accountUpdateKb, { params: { account_id: account, kb_id: kbid }, body }), { uuid: kbid })
    : await client.call(kbs.updateKb, { params: { kbid }, body });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(`updated knowledge box ${res.uuid}`, opts);
}

export function kbUpdateCommand(ctx: Context): Command {
  return new Command("update")
    .description("Change a knowledge box's title, description, slug or security default")
    .argument("[kb]", "slug or uuid (default: the current one)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--title <title>", "new title")
    .option("--description <text>", "new description")
    .option("--slug <slug>", "new slug")
    .option("--enforce-security", "make request security groups mandatory")
    .option("--no-enforce-security", "make request security groups optional")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExample:\n  kbox kb update notes --title "Team notes"')
    .action(async (ref: string | undefined, _o, cmd: Command) => runKbUpdate(ctx, ref, ctx.opts<KbUpdateOptions>(cmd)));
}
