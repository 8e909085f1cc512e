import { Command, Option } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as accounts from "../../client/routes/accounts.js";
import { saScope } from "./shared.js";

export async function runSaCreate(
  ctx: Context,
  opts: { title: string; role: string; json?: boolean; kb?: string },
): Promise<void> {
  const res = await (await ctx.client(opts)).call(accounts.createServiceAccount, {
    params: await saScope(ctx, opts),
    body: { title: opts.title, role: opts.role as accounts.KbRole },
  });
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
}

export function saCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a service account (account-wide, or for one knowledge box with --kb)")
    .requiredOption("--title <title>", "a name for it")
    .addOption(
      new Option("--role <role>", "SOWNER (everything), SCONTRIBUTOR (write), SMEMBER (read)")
        .choices(["SOWNER", "SCONTRIBUTOR", "SMEMBER"])
        .makeOptionMandatory(),
    )
    .option("--kb <kb>", "scope it to this knowledge box")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox sa create --title ci --role SCONTRIBUTOR --kb notes")
    .action(async (_o, cmd: Command) => runSaCreate(ctx, ctx.opts(cmd)));
}
