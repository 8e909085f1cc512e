import { Command, Option } from "commander";
import { VERSION } from "../api/version.js";
import { COMMANDS, type CommandEntry, commandEntry, registerCommands } from "../commands/index.js";
import { addGroupExamples } from "./completion-tree.js";
import type { Context } from "./context.js";

/** Root options that take a value, so the word after them is not the command. */
const ROOT_VALUE_OPTIONS = new Set(["--profile"]);
const ROOT_FLAGS = new Set(["-q", "--quiet"]);

/**
 * The top-level commands a run needs: only the one argv names, or every one for help, an unknown
 * word (so commander can suggest the nearest), no command at all, or a command that walks the tree.
 */
export function commandsFor(argv: readonly string[] | undefined): readonly CommandEntry[] {
  if (!argv) return COMMANDS;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (ROOT_VALUE_OPTIONS.has(a)) i++;
    else if (ROOT_FLAGS.has(a) || [...ROOT_VALUE_OPTIONS].some((o) => a.startsWith(`${o}=`))) continue;
    else if (a.startsWith("-"))
      return COMMANDS; // --help, --version, `--`, or anything commander should judge
    else {
      const entry = commandEntry(a);
      return entry && !entry.needsTree ? [entry] : COMMANDS;
    }
  }
  return COMMANDS;
}

/**
 * The command tree; output and errors go through the context's IO. With `argv`, only the top-level
 * command it runs is loaded (see commandsFor); without, the whole tree (help, docs, completions).
 */
export async function buildProgram(ctx: Context, argv?: readonly string[]): Promise<Command> {
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
  await registerCommands(program, ctx, commandsFor(argv));
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
