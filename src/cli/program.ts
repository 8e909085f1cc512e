import { Command, Option } from "commander";
import { VERSION } from "../client/routes/version.js";
import { addGroupExamples } from "./completion-tree.js";
import type { Context } from "./context.js";

/**
 * A top-level command: how the program finds it without importing it, and how to load it. The
 * table of them is src/commands/index.ts; this library only knows their shape.
 */
export interface CommandEntry {
  name: string;
  aliases?: readonly string[];
  /** Its one-line description (a test keeps it equal to the loaded command's). */
  summary: string;
  hidden?: boolean;
  /** It works on the whole tree (`kbox completion` prints a script covering every command). */
  needsTree?: boolean;
  /** Import the command's module and build the command. */
  load: (ctx: Context) => Promise<Command>;
}

/** Root options that take a value, so the word after them is not the command. */
const ROOT_VALUE_OPTIONS = new Set(["--profile"]);
const ROOT_FLAGS = new Set(["-q", "--quiet"]);

/**
 * The entries of `table` a run needs: only the one argv names, or every one for help, an unknown
 * word (so commander can suggest the nearest), no command at all, or a command that walks the tree.
 */
export function entriesFor(table: readonly CommandEntry[], argv: readonly string[] | undefined): readonly CommandEntry[] {
  if (!argv) return table;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (ROOT_VALUE_OPTIONS.has(a)) i++;
    else if (ROOT_FLAGS.has(a) || [...ROOT_VALUE_OPTIONS].some((o) => a.startsWith(`${o}=`))) continue;
    else if (a.startsWith("-"))
      return table; // --help, --version, `--`, or anything commander should judge
    else {
      const entry = table.find((e) => e.name === a || e.aliases?.includes(a));
      return entry && !entry.needsTree ? [entry] : table;
    }
  }
  return table;
}

/** The root command: global options, output through the context's IO, errors thrown rather than exiting. */
function rootCommand(ctx: Context): Command {
  return (
    new Command("kbox")
      .description("Local-first knowledge retrieval and answers: knowledge boxes, ingestion, find and ask")
      .version(VERSION, "-V, --version")
      // Not commander's .env(), which reads the process's environment: the context's is the one source.
      .addOption(new Option("--profile <name>", "profile to use (local daemon or a remote zone) (env: KBOX_PROFILE)"))
      .addOption(new Option("--account <account>", "account (id or slug) of account-level commands (env: KBOX_ACCOUNT)"))
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
      .hook("preAction", (root, action) => {
        // As commander's .env() would: KBOX_PROFILE when --profile is not given.
        if (root.getOptionValue("profile") === undefined && ctx.env.profile !== undefined)
          root.setOptionValueWithSource("profile", ctx.env.profile, "env");
        ctx.globals = action.optsWithGlobals();
      })
  );
}

/** Load the given entries and add them to the program in table order. */
export async function registerCommands(program: Command, ctx: Context, entries: readonly CommandEntry[]): Promise<void> {
  const commands = await Promise.all(entries.map((e) => e.load(ctx)));
  for (const [i, e] of entries.entries()) program.addCommand(commands[i], { hidden: e.hidden });
}

/**
 * The program over a command table; output and errors go through the context's IO. With `argv`,
 * only the top-level command it runs is loaded (see entriesFor); without, the whole tree.
 */
export async function composeProgram(ctx: Context, table: readonly CommandEntry[], argv?: readonly string[]): Promise<Command> {
  const program = rootCommand(ctx);
  await registerCommands(program, ctx, entriesFor(table, argv));
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
