import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printReport, resolveKb, transfer } from "./transfer.js";

type Opts = GlobalOptions & { quiet?: boolean; json?: boolean };

/** Copy a zone's knowledge box (the profile) into a local one, incrementally. */
export async function runKbPull(ctx: Context, remoteKb: string, opts: Opts): Promise<void> {
  const zone = ctx.profileName(opts);
  if (ctx.profile(opts).kind !== "remote")
    throw new CliError(
      "kb pull copies from a zone: pass --profile <zone profile>",
      EXIT.usage,
      "list profiles with `kbox profile list`",
    );
  const local = await ctx.client({ ...opts, profile: "local" });
  const remote = await ctx.client(opts);
  const srcId = await resolveKb(remote, remoteKb);
  const target = opts.kb ?? remoteKb;
  const dstId = await resolveKb(local, target, { title: target });
  const r = await transfer(
    ctx,
    opts,
    { client: remote, kbid: srcId, name: `${zone}:${remoteKb}` },
    { client: local, kbid: dstId, name: `local:${target}` },
  );
  printReport(ctx, r, opts);
  if (r.skipped.length) ctx.exitCode = EXIT.partial;
}

export function kbPullCommand(ctx: Context): Command {
  return new Command("pull")
    .description("Copy a zone's knowledge box into a local one: only resources changed since the last pull are fetched")
    .argument("<remote-kb>", "the knowledge box on the zone (slug or uuid)")
    .option("--kb <local>", "the local knowledge box (default: the same slug; created when missing)")
    .option("--json", "print the report as JSON")
    .option("-q, --quiet", "no progress or status lines")
    .addHelpText("after", "\nExample:\n  kbox kb pull team-notes --profile work --kb notes")
    .action(async (kb: string, _o, cmd: Command) => runKbPull(ctx, kb, ctx.opts(cmd)));
}
