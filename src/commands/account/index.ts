import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import { confirm } from "../../cli/prompt.js";
import * as zone from "../../client/routes/zone.js";

type Opts = { json?: boolean; quiet?: boolean; yes?: boolean; title?: string; description?: string; slug?: string };

const columns = [
  { header: "slug", get: (a: zone.AccountRecord) => a.slug },
  { header: "id", get: (a: zone.AccountRecord) => a.id },
  { header: "title", get: (a: zone.AccountRecord) => a.title },
  { header: "zone", get: (a: zone.AccountRecord) => a.zone },
  { header: "kbs", get: (a: zone.AccountRecord) => String(a.current_kbs) },
];

export async function runAccountList(ctx: Context, opts: Opts): Promise<void> {
  const res = await (await ctx.client(opts)).call(zone.listAccounts);
  if (opts.json) return printJson(ctx.io, res);
  printTable(ctx.io, columns, res);
}

export async function runAccountShow(ctx: Context, ref: string | undefined, opts: Opts): Promise<void> {
  const account = ref ?? (await ctx.account(opts));
  const res = await (await ctx.client(opts)).call(zone.getAccount, { params: { account } });
  if (opts.json) return printJson(ctx.io, res);
  printTable(ctx.io, columns, [res]);
}

export async function runAccountCreate(ctx: Context, slug: string, opts: Opts): Promise<void> {
  const res = await (await ctx.client(opts)).call(zone.createAccount, {
    body: { slug, title: opts.title ?? slug, description: opts.description },
  });
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
  ctx.status(`created account ${res.slug}`, opts);
}

export async function runAccountUpdate(ctx: Context, ref: string | undefined, opts: Opts): Promise<void> {
  const account = ref ?? (await ctx.account(opts));
  await (await ctx.client(opts)).call(zone.updateAccount, {
    params: { account },
    body: { title: opts.title, description: opts.description, slug: opts.slug },
  });
  ctx.status(`updated account ${account}`, opts);
}

export async function runAccountDelete(ctx: Context, ref: string, opts: Opts): Promise<void> {
  await confirm(ctx, opts, `delete account ${ref}`);
  await (await ctx.client(opts)).call(zone.deleteAccount, { params: { account: ref } });
  ctx.status(`deleted account ${ref}`, opts);
}

/** `kbox account`: the accounts of a zone (the local daemon's, or a remote one's). */
export function accountCommand(ctx: Context): Command {
  const cmd = new Command("account").description("Accounts of the zone: list, show, create, update, delete");
  cmd
    .command("list")
    .alias("ls")
    .description("List the accounts the credential belongs to")
    .addHelpText("after", "\nExample:\n  kbox account list --json")
    .option("--json", "print the wire response")
    .action(async (_o, c: Command) => runAccountList(ctx, ctx.opts(c)));
  cmd
    .command("show")
    .description("Show an account (default: --account, else the credential's own)")
    .argument("[account]", "account id or slug")
    .option("--json", "print the wire response (id, slug, ...)")
    .addHelpText("after", "\nExample:\n  kbox account show --json | jq -r .id")
    .action(async (ref: string | undefined, _o, c: Command) => runAccountShow(ctx, ref, ctx.opts(c)));
  cmd
    .command("create")
    .description("Create an account (the machine's owner, on the socket)")
    .addHelpText("after", "\nExample:\n  kbox account create acme --title Acme")
    .argument("<slug>", "slug: lowercase letters, digits, _ and -")
    .option("--title <title>", "title (defaults to the slug)")
    .option("--description <text>", "description")
    .option("--json", "print the wire response")
    .action(async (slug: string, _o, c: Command) => runAccountCreate(ctx, slug, ctx.opts(c)));
  cmd
    .command("update")
    .description("Change an account's title, description or slug")
    .addHelpText("after", '\nExample:\n  kbox account update acme --title "Acme Inc"')
    .argument("[account]", "account id or slug")
    .option("--title <title>", "new title")
    .option("--description <text>", "new description")
    .option("--slug <slug>", "new slug")
    .action(async (ref: string | undefined, _o, c: Command) => runAccountUpdate(ctx, ref, ctx.opts(c)));
  cmd
    .command("delete")
    .alias("rm")
    .description("Delete an account that has no knowledge boxes")
    .addHelpText("after", "\nExample:\n  kbox account delete acme --yes")
    .argument("<account>", "account id or slug")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, _o, c: Command) => runAccountDelete(ctx, ref, ctx.opts(c)));
  return cmd;
}
