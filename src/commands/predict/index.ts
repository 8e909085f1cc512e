import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { predictChatCommand } from "./chat.js";
import { predictModelsCommand } from "./models.js";
import { predictQueryCommand } from "./query.js";
import { predictSentencesCommand } from "./sentences.js";

/** `kbox predict`: the understanding API's predict operations (local daemon, or a zone with a NUA key). */
export function predictCommand(ctx: Context): Command {
  return new Command("predict")
    .description("Predict: chat over contexts, embed sentences, analyse queries, list models")
    .addCommand(predictChatCommand(ctx))
    .addCommand(predictSentencesCommand(ctx))
    .addCommand(predictQueryCommand(ctx))
    .addCommand(predictModelsCommand(ctx));
}
