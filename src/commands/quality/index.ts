import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { qualityScoresCommand } from "./scores.js";
import { qualityTrendCommand } from "./trend.js";

/** `kbox quality ...`: how good the answers are. */
export function qualityCommand(ctx: Context): Command {
  return new Command("quality")
    .description("Answer quality: relevance and groundedness scores, and their trend")
    .addCommand(qualityScoresCommand(ctx))
    .addCommand(qualityTrendCommand(ctx));
}
