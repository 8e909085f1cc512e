import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { nuaClientCreateCommand } from "./client-create.js";
import { nuaClientDeleteCommand } from "./client-delete.js";
import { nuaClientKeyCommand } from "./client-key.js";
import { nuaClientListCommand } from "./client-list.js";
import { nuaClientShowCommand } from "./client-show.js";
import { nuaClientUpdateCommand } from "./client-update.js";
import { nuaProcessCommand } from "./process.js";
import { nuaProcessedListCommand } from "./processed-list.js";
import { nuaProcessedShowCommand } from "./processed-show.js";

/** `kbox nua`: understanding clients and keys, and processing through the understanding API. */
export function nuaCommand(ctx: Context): Command {
  const client = new Command("client")
    .description("Understanding clients of the account and their NUA keys")
    .addCommand(nuaClientCreateCommand(ctx))
    .addCommand(nuaClientListCommand(ctx))
    .addCommand(nuaClientShowCommand(ctx))
    .addCommand(nuaClientUpdateCommand(ctx))
    .addCommand(nuaClientDeleteCommand(ctx))
    .addCommand(nuaClientKeyCommand(ctx));
  const processed = new Command("processed")
    .description("Processing requests and their processed records")
    .addCommand(nuaProcessedListCommand(ctx))
    .addCommand(nuaProcessedShowCommand(ctx));
  return new Command("nua")
    .description("The understanding API: clients and NUA keys, processing files, URLs and texts")
    .addCommand(client)
    .addCommand(nuaProcessCommand(ctx))
    .addCommand(processed);
}
