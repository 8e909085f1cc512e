import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { intFlag } from "../../cli/options.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/nua-clients.js";

export interface ClientCreateOptions {
  json?: boolean;
  quiet?: boolean;
  contact?: string;
  description?: string;
  webhook?: string;
  tokensLimit?: string;
  allowKbManagement?: boolean;
}

/** Create an understanding client: its key goes to stdout (shown once), its id to stderr. */
export async function runNuaClientCreate(ctx: Context, title: string, o: ClientCreateOptions): Promise<void> {
  const account = await ctx.account(o);
  const res = await (await ctx.client(o)).call(api.createNuaClient, {
    params: { account },
    body: {
      title,
      contact: o.contact ?? "",
      description: o.description,
      tokens_limit: intFlag("--tokens-limit", o.tokensLimit, 0),
      allow_kb_management: o.allowKbManagement ?? false,
      ...(o.webhook ? { processing_webhook: { uri: o.webhook } } : {}),
    },
  });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`created understanding client ${res.client_id} (the key above is shown once)`, o);
}

export function nuaClientCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create an understanding client; prints its NUA key (shown once)")
    .argument("<title>", "title")
    .option("--contact <email>", "contact")
    .option("--description <text>", "description")
    .option("--webhook <url>", "processing webhook: results are POSTed there, signed")
    .option("--tokens-limit <n>", "refuse requests (423) once this many tokens are used")
    .option("--allow-kb-management", "the key may also manage the account's knowledge boxes")
    .option("--json", "print the wire response ({token, client_id, internal_id})")
    .addHelpText(
      "after",
      "\nExample:\n  kbox nua client create ndb --webhook https://hooks.example.com/nua --tokens-limit 100000",
    )
    .action(async (title: string, _o, c: Command) => runNuaClientCreate(ctx, title, ctx.opts(c)));
}
