import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { type Column, printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/nua-clients.js";

type Client = api.NuaClientRecord;

export const CLIENT_COLUMNS: Column<Client>[] = [
  { header: "client_id", get: (c) => c.client_id },
  { header: "title", get: (c) => c.title },
  { header: "tokens", get: (c) => `${c.tokens_used ?? 0}${c.tokens_limit == null ? "" : `/${c.tokens_limit}`}`, right: true },
  { header: "webhook", get: (c) => (c.processing_webhook as { uri?: string } | null)?.uri ?? "" },
  { header: "created", get: (c) => c.created },
];

export async function runNuaClientList(ctx: Context, o: { json?: boolean }): Promise<void> {
  const account = await ctx.account(o);
  const res = await (await ctx.client(o)).call(api.listNuaClients, { params: { account } });
  if (o.json) return printJson(ctx.io, res);
  printTable(ctx.io, CLIENT_COLUMNS, res.clients);
}

export function nuaClientListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List the account's understanding clients, with their token usage")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox nua client list --json | jq -r '.clients[].client_id'")
    .action(async (_o, c: Command) => runNuaClientList(ctx, ctx.opts(c)));
}
