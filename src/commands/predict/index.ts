import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { predictChatCommand } from "./chat.js";
import { predictModelsCommand } from "./models.js";
import { predictQueryCommand } from "./query.js";
import { predictRemiCommand } from "./remi.js";
import { predictRephraseCommand } from "./rephrase.js";
import { predictRerankCommand } from "./rerank.js";
import { predictSentencesCommand } from "./sentences.js";
import { predictSummarizeCommand } from "./summarize.js";

/** `kbox predict`: the understanding API's predict operations (local daemon, or a zone with a NUA key). */
export function predictCommand(ctx: Context): Command {
  return new Command("predict")
    .description("Predict: chat over contexts, embed, analyse queries, summarize, rerank, rephrase, score answers, list models")
    .addCommand(predictChatCommand(ctx))
    .addCommand(predictSentencesCommand(ctx))
    .addCommand(predictQueryCommand(ctx))
    .addCommand(predictSummarizeCommand(ctx))
    .addCommand(predictRerankCommand(ctx))
    .addCommand(predictRephraseCommand(ctx))
    .addCommand(predictRemiCommand(ctx))
    .addCommand(predictModelsCommand(ctx));
}
