import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable, styles } from "../../cli/output.js";
import { formatCount } from "../../cli/progress.js";
import * as models from "../../client/routes/models.js";

export async function runModelsList(ctx: Context, opts: { json?: boolean; all?: boolean; quiet?: boolean }): Promise<void> {
  const res = await (await ctx.client(opts)).call(models.listModels, {});
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "", get: (m) => (m.default ? "*" : "") },
      { header: "name", get: (m) => m.name },
      { header: "kind", get: (m) => m.kind },
      { header: "provider", get: (m) => m.provider },
      { header: "vectorset", get: (m) => (m.kind === "embedder" ? m.vectorset : "") },
      { header: "dim", get: (m) => m.dim || "", right: true },
      { header: "size", get: (m) => (m.size_bytes ? formatCount(m.size_bytes, true) : (m.url ?? "")), right: true },
      { header: "kbs", get: (m) => m.kbs.join(",") },
    ],
    res.models,
  );
  if (opts.all) {
    const st = styles(ctx.io);
    if (ctx.io.stdout.isTTY) ctx.io.stdout.write(`\n${st.bold("KNOWN MODELS (kbox models pull <id>)")}\n`);
    printTable(
      ctx.io,
      [
        { header: "id", get: (k) => k.id },
        { header: "kind", get: (k) => k.kind },
        { header: "size", get: (k) => `${k.size_mb} MB`, right: true },
        { header: "installed", get: (k) => (k.installed ? "yes" : "no") },
        { header: "description", get: (k) => k.description },
      ],
      res.known,
    );
  }
  // The plain statement of what search can do goes to stderr, so piped data stays clean.
  const st = styles(ctx.io, ctx.io.stderr);
  if (res.keyword_only) ctx.io.stderr.write(`${st.yellow("notice:")} ${res.notice}\n`);
  else ctx.status(res.notice, opts);
  for (const m of res.missing)
    ctx.io.stderr.write(`${st.yellow("warning:")} knowledge box ${m.kb} uses ${m.model}, which is not installed\n`);
}

export function modelsListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List installed models and configured endpoints (* marks the default)")
    .option("--all", "also list the models kbox knows and can pull")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox models list\n  kbox models list --all\n  kbox models list --json | jq .keyword_only",
    )
    .action(async (_o, cmd: Command) => runModelsList(ctx, ctx.opts(cmd)));
}
