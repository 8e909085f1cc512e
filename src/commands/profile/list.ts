import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";

/** Every profile with its kind, URL, knowledge box and where its secret lives. */
export function profileRows(ctx: Context) {
  const current = ctx.profileName();
  return Object.entries(ctx.config.profiles).map(([name, p]) => ({
    name,
    current: name === current,
    kind: p.kind,
    url: p.url ?? null,
    kb: p.kb ?? null,
    secret: p.kind === "remote" ? (p.secret ?? null) : null,
  }));
}

export function runProfileList(ctx: Context, opts: { json?: boolean }): void {
  const rows = profileRows(ctx);
  if (opts.json) {
    printJson(ctx.io, { current: ctx.profileName(), profiles: rows });
    return;
  }
  printTable(
    ctx.io,
    [
      { header: "", get: (r) => (r.current ? "*" : "") },
      { header: "name", get: (r) => r.name },
      { header: "kind", get: (r) => r.kind },
      { header: "url", get: (r) => r.url ?? (r.kind === "local" ? "(local daemon)" : "") },
      { header: "kb", get: (r) => r.kb },
      { header: "secret", get: (r) => r.secret },
    ],
    rows,
  );
}

export function profileListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List profiles (* marks the active one)")
    .option("--json", "print as JSON")
    .addHelpText("after", "\nExamples:\n  kbox profile list\n  kbox profile list --json | jq -r '.current'")
    .action((_o, cmd: Command) => runProfileList(ctx, ctx.opts(cmd)));
}
