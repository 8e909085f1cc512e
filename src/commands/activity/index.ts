import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { activityDownloadCommand } from "./download.js";
import { activityListCommand } from "./list.js";
import { activityMetricsCommand } from "./metrics.js";
import { activityShowCommand } from "./show.js";

/** `kbox activity ...`: the activity log of a knowledge box. */
export function activityCommand(ctx: Context): Command {
  return new Command("activity")
    .description("What people searched and asked, and what changed: list, show, download, metrics")
    .addCommand(activityListCommand(ctx))
    .addCommand(activityShowCommand(ctx))
    .addCommand(activityDownloadCommand(ctx))
    .addCommand(activityMetricsCommand(ctx));
}
