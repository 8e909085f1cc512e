import { Command, Option } from "commander";
import { VERSION } from "../api/version.js";
import { registerCommands } from "../commands/index.js";
import { addGroupExamples } from "./completion-tree.js";
import type { Context } from "./context.js";

/** The whole command tree; output and errors go through the context's IO. */
export function buildProgram(ctx: Context): Command {
  const program = new Command("kbox")
    .description("Local-first knowledge retrieval and answers: knowledge boxes, ingestion, find and ask")
    .version(VERSION, "-V, --version")
    .addOption(new Option("--profile <name>", "profile to use (local daemon or a remote zone)").env("KBOX_PROFILE"))
    .option("-q, --quiet", "no status lines on stderr")
    .showSuggestionAfterError(true)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.io.stdout.write(s),
      writeErr: (s) => void ctx.io.stderr.write(s),
      getOutHelpWidth: () => ctx.io.stdout.columns ?? 80,
      getErrHelpWidth: () => ctx.io.stderr.columns ?? 80,
    })
    .hook("preAction", (_root, action) => {
      ctx.globals = action.optsWithGlobals();
    });
  registerCommands(program, ctx);
  // Every subcommand reports through the same IO and throws instead of exiting.
  const configure = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub.exitOverride().configureOutput(program.configureOutput()).showSuggestionAfterError(true);
      configure(sub);
    }
  };
  configure(program);
  addGroupExamples(program);
  return program;
}
