import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import { confirm } from "../../cli/prompt.js";
import * as members from "../../client/routes/members.js";

type Opts = {
  json?: boolean;
  quiet?: boolean;
  yes?: boolean;
  kb?: string;
  add?: string[];
  update?: string[];
  remove?: string[];
  role?: string;
  expires?: string;
};
const ROLES = ["SOWNER", "SCONTRIBUTOR", "SMEMBER"];
const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The account and knowledge box of a member command (account-level paths, on any zone). */
async function where(ctx: Context, opts: Opts): Promise<{ account: string; kb: string }> {
  return { account: await ctx.account(opts), kb: await ctx.kbid(opts) };
}

function roleChange(s: string): { id: string; role: "SOWNER" | "SCONTRIBUTOR" | "SMEMBER" } {
  const [id, role] = s.split("=");
  if (!id || !role || !ROLES.includes(role.toUpperCase()))
    throw usageError(`expected <user id>=<role>, got ${JSON.stringify(s)}`, `roles: ${ROLES.join(", ")}`);
  return { id, role: role.toUpperCase() as "SMEMBER" };
}

export async function runKbUsers(ctx: Context, opts: Opts): Promise<void> {
  const client = await ctx.client(opts);
  const params = await where(ctx, opts);
  if (opts.add?.length || opts.update?.length || opts.remove?.length) {
    const body = { add: opts.add?.map(roleChange), update: opts.update?.map(roleChange), delete: opts.remove };
    await client.call(members.updateKbUsers, { params, body });
    ctx.status("updated the users of the knowledge box", opts);
  }
  const res = await client.call(members.kbUsers, { params, query: { include_user_detail: "true" } });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (u) => u.id },
      { header: "role", get: (u) => u.role },
      { header: "email", get: (u) => u.email ?? "" },
      { header: "name", get: (u) => u.name ?? "" },
    ],
    res,
  );
}

export async function runInviteCreate(ctx: Context, email: string, opts: Opts): Promise<void> {
  const role = (opts.role ?? "SMEMBER").toUpperCase();
  if (!ROLES.includes(role)) throw usageError(`invalid role ${opts.role}`, `roles: ${ROLES.join(", ")}`);
  const res = await (await ctx.client(opts)).call(members.inviteToKb, {
    params: await where(ctx, opts),
    body: { email, role: role as "SMEMBER", ...(opts.expires ? { expires: opts.expires } : {}) },
  });
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`invited ${email} as ${role} until ${res.expires}; no mail is sent: give them the token above`, opts);
  ctx.status(`they redeem it once with: kbox invite accept <token> (or POST ${res.url.split("#")[0]})`, opts);
}

export async function runInviteList(ctx: Context, opts: Opts): Promise<void> {
  const res = await (await ctx.client(opts)).call(members.kbInvites, { params: await where(ctx, opts) });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "email", get: (i) => i.email },
      { header: "role", get: (i) => i.role },
      { header: "expires", get: (i) => i.expires },
    ],
    res,
  );
}

export async function runInviteDelete(ctx: Context, email: string, opts: Opts): Promise<void> {
  const params = await where(ctx, opts);
  await confirm(ctx, opts, `delete the invitation of ${email}`);
  await (await ctx.client(opts)).call(members.deleteKbInvite, { params, query: { email } });
  ctx.status(`deleted the invitation of ${email}`, opts);
}

export function kbUsersCommand(ctx: Context): Command {
  return new Command("users")
    .description("List a knowledge box's users; add, change or remove them in one call")
    .option("--kb <kb>", "knowledge box (slug or id)")
    .option("--add <user=role>", "add a user with a role (repeatable)", collect)
    .option("--update <user=role>", "change a user's role (repeatable)", collect)
    .option("--remove <user>", "remove a user (repeatable)", collect)
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox kb users --kb notes\n  kbox kb users --kb notes --update 5b0c…=SCONTRIBUTOR")
    .action(async (_o, c: Command) => runKbUsers(ctx, ctx.opts(c)));
}

export function kbInviteCommand(ctx: Context): Command {
  const cmd = new Command("invite")
    .description("Invite users to a knowledge box (a one-time token: no mail is sent)")
    .addHelpText("after", "\nExample:\n  kbox kb invite create ana@example.com --role SMEMBER --kb notes");
  cmd
    .command("create")
    .description("Invite an e-mail with a role; prints the one-time acceptance token")
    .addHelpText("after", "\nExample:\n  kbox kb invite create ana@example.com --role SCONTRIBUTOR --kb notes")
    .argument("<email>", "who to invite")
    .option("--role <role>", "SOWNER, SCONTRIBUTOR or SMEMBER", "SMEMBER")
    .option("--expires <date>", "expiry (ISO date-time; default a week)")
    .option("--kb <kb>", "knowledge box (slug or id)")
    .option("--json", "print the wire response")
    .action(async (email: string, _o, c: Command) => runInviteCreate(ctx, email, ctx.opts(c)));
  cmd
    .command("list")
    .alias("ls")
    .description("Pending invitations")
    .addHelpText("after", "\nExample:\n  kbox kb invite list --kb notes")
    .option("--kb <kb>", "knowledge box (slug or id)")
    .option("--json", "print the wire response")
    .action(async (_o, c: Command) => runInviteList(ctx, ctx.opts(c)));
  cmd
    .command("delete")
    .alias("rm")
    .description("Delete an invitation; its token stops working")
    .addHelpText("after", "\nExample:\n  kbox kb invite delete ana@example.com --kb notes --yes")
    .argument("<email>", "the invited e-mail")
    .option("--kb <kb>", "knowledge box (slug or id)")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (email: string, _o, c: Command) => runInviteDelete(ctx, email, ctx.opts(c)));
  return cmd;
}
