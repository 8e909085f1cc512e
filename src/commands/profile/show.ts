import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { describeSecret } from "../../cli/credentials.js";
import { printFields, printJson } from "../../cli/output.js";
import { requireProfile } from "./shared.js";

export function runProfileShow(ctx: Context, name: string | undefined, opts: { json?: boolean; profile?: string }): void {
  const n = name ?? ctx.profileName(opts);
  const p = n === ctx.profileName(opts) ? ctx.profile(opts) : requireProfile(ctx, n);
  const where = p.secret ? describeSecret(ctx, n, p.secret) : undefined;
  if (opts.json) {
    printJson(ctx.io, { name: n, active: n === ctx.profileName(), ...p, secret_location: where ?? null });
    return;
  }
  printFields(ctx.io, [
    ["name", n],
    ["active", n === ctx.profileName() ? "yes" : "no"],
    ["kind", p.kind],
    ["url", p.url ?? (p.kind === "local" ? `local daemon (${ctx.paths.socket})` : "")],
    ["kb", p.kb],
    ["secret", where],
  ]);
}

export function profileShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a profile (the active one by default)")
    .argument("[profile]", "profile name")
    .option("--json", "print as JSON")
    .addHelpText("after", "\nExamples:\n  kbox profile show\n  kbox profile show work --json")
    .action((name: string | undefined, _o, cmd: Command) => runProfileShow(ctx, name, ctx.opts(cmd)));
}
