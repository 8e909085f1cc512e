import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as kbs from "../../client/routes/kbs.js";

export interface KbCreateOptions {
  title?: string;
  description?: string;
  use?: boolean;
  json?: boolean;
  quiet?: boolean;
}

export async function runKbCreate(ctx: Context, slug: string, opts: KbCreateOptions): Promise<void> {
  const client = await ctx.client(opts);
  const account = await ctx.accountForm(opts);
  const body = { slug, title: opts.title ?? slug, description: opts.description };
  const res = account
    ? { uuid: (await client.call(kbs.accountCreateKb, { params: { account_id: account }, body })).id, slug }
    : await client.call(kbs.createKb, { body });
  if (opts.use) {
    const name = ctx.profileName(opts);
    ctx.config.profiles[name] = { ...ctx.config.profiles[name], kb: res.slug };
    ctx.saveConfig();
  }
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.uuid}\n`);
  ctx.status(`created knowledge box ${res.slug}${opts.use ? " (now the current one)" : ""}`, opts);
}

export function kbCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a knowledge box (in an account with --account)")
    .argument("<slug>", "slug: lowercase letters, digits, _ and -")
    .option("--title <title>", "title (defaults to the slug)")
    .option("--description <text>", "description")
    .option("--use", "make it the current knowledge box")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExamples:\n  kbox kb create notes --title "My notes" --use\n  kbox kb create papers --json')
    .action(async (slug: string, _o, cmd: Command) => runKbCreate(ctx, slug, ctx.opts<KbCreateOptions>(cmd)));
}
