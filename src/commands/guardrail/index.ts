import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { guardrailCheckCommand } from "./check.js";
import { guardrailCreateCommand } from "./create.js";
import { guardrailDeleteCommand } from "./delete.js";
import { guardrailListCommand } from "./list.js";
import { guardrailShowCommand } from "./show.js";
import { guardrailUpdateCommand } from "./update.js";

/** `kbox guardrail ...`: the account's guardrail policies. */
export function guardrailCommand(ctx: Context): Command {
  return new Command("guardrail")
    .description("Guardrail policies of the account: create, list, show, update, delete, check")
    .addCommand(guardrailCreateCommand(ctx))
    .addCommand(guardrailListCommand(ctx))
    .addCommand(guardrailShowCommand(ctx))
    .addCommand(guardrailUpdateCommand(ctx))
    .addCommand(guardrailDeleteCommand(ctx))
    .addCommand(guardrailCheckCommand(ctx));
}
