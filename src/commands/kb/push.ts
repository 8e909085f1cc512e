import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printReport, resolveKb, transfer } from "./transfer.js";

type Opts = GlobalOptions & { quiet?: boolean; json?: boolean };

/** Copy a local knowledge box to a zone (the profile), incrementally. */
export async function runKbPush(ctx: Context, localKb: string, opts: Opts): Promise<void> {
  const zone = ctx.profileName(opts);
  if (ctx.profile(opts).kind !== "remote")
    throw new CliError(
      "kb push copies to a zone: pass --profile <zone profile>",
      EXIT.usage,
      "list profiles with `kbox profile list`",
    );
  const local = await ctx.client({ ...opts, profile: "local" });
  const remote = await ctx.client(opts);
  const srcId = await resolveKb(local, localKb);
  const target = opts.kb ?? localKb;
  const dstId = await resolveKb(remote, target, { title: target, account: await ctx.accountForm(opts) });
  const r = await transfer(
    ctx,
    opts,
    { client: local, kbid: srcId, name: `local:${localKb}` },
    { client: remote, kbid: dstId, name: `${zone}:${target}` },
  );
  printReport(ctx, r, opts);
  if (r.skipped.length) ctx.exitCode = EXIT.partial;
}

export function kbPushCommand(ctx: Context): Command {
  return new Command("push")
    .description("Copy a local knowledge box to a zone: only resources changed since the last push are sent")
    .argument("<local-kb>", "the local knowledge box (slug or uuid)")
    .option("--kb <remote>", "the knowledge box on the zone (default: the same slug; created when missing)")
    .option("--json", "print the report as JSON")
    .option("-q, --quiet", "no progress or status lines")
    .addHelpText("after", "\nExample:\n  kbox kb push notes --profile work --kb team-notes")
    .action(async (kb: string, _o, cmd: Command) => runKbPush(ctx, kb, ctx.opts(cmd)));
}
