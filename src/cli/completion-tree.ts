import { type Argument, type Command, Help, type Option } from "commander";

/** What a value completes to: knowledge boxes, profiles, files, a fixed list, or anything. */
export type ValueKind =
  | { kind: "kbs" }
  | { kind: "profiles" }
  | { kind: "file" }
  | { kind: "choice"; values: string[] }
  | { kind: "any" };

export interface OptionSpec {
  flags: string[];
  description: string;
  /** Undefined for a boolean flag. */
  value?: ValueKind;
  placeholder?: string;
}

export interface ArgSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  value: ValueKind;
}

/** One command of the tree, flattened with its path (e.g. ["kb", "use"]). */
export interface CommandSpec {
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  usage: string;
  options: OptionSpec[];
  args: ArgSpec[];
  subcommands: { name: string; aliases: string[]; description: string }[];
  /** Text added after the help (examples), as the user sees it in --help. */
  extraHelp: string;
}

/** Guess the completion of a placeholder or argument name; names are the convention commands follow. */
export function valueKindOf(name: string, choices?: readonly string[]): ValueKind {
  if (choices?.length) return { kind: "choice", values: [...choices] };
  const n = name.replace(/[<>[\].]/g, "").toLowerCase();
  if (n === "kb" || n === "kbs" || n === "kbid") return { kind: "kbs" };
  if (n === "profile" || n === "profiles") return { kind: "profiles" };
  if (/^(path|paths|file|files|dir|folder|out|output)$/.test(n)) return { kind: "file" };
  return { kind: "any" };
}

function optionSpec(o: Option): OptionSpec {
  const flags = [o.short, o.long].filter((f): f is string => Boolean(f));
  const takes = o.required || o.optional;
  const placeholder = takes ? /[<[][^>\]]+[>\]]/.exec(o.flags)?.[0] : undefined;
  let value = takes ? valueKindOf(placeholder ?? o.attributeName(), o.argChoices) : undefined;
  // `--profile <name>`: the option's own name says more than a generic placeholder.
  if (value?.kind === "any") value = valueKindOf(o.attributeName());
  return { flags, description: o.description, placeholder, value };
}

function argSpec(a: Argument): ArgSpec {
  return {
    name: a.name(),
    description: a.description,
    required: a.required,
    variadic: a.variadic,
    value: valueKindOf(a.name(), a.argChoices),
  };
}

/** Help text a command adds after its usage (captured by rendering its help into a buffer). */
export function extraHelpOf(cmd: Command, width = 80): string {
  let out = "";
  const saved = cmd.configureOutput();
  const write = (s: string) => {
    out += s;
  };
  cmd.configureOutput({ ...saved, writeOut: write, writeErr: write, getOutHelpWidth: () => width });
  let base: string;
  try {
    cmd.outputHelp();
    // The same width as the rendering above, so the base text matches and can be cut off.
    base = cmd.helpInformation();
  } finally {
    cmd.configureOutput(saved);
  }
  const i = out.indexOf(base);
  return (i >= 0 ? out.slice(i + base.length) : "").replace(/^\n+/, "").trimEnd();
}

const visible = (cmd: Command) => new Help().visibleCommands(cmd).filter((c) => c.name() !== "help");

/** Every visible command of the tree, depth first, the root first; hidden commands are left out. */
export function walkTree(root: Command): CommandSpec[] {
  const out: CommandSpec[] = [];
  const help = new Help();
  const visit = (cmd: Command, path: string[]) => {
    const subs = visible(cmd);
    out.push({
      path,
      name: cmd.name(),
      aliases: cmd.aliases(),
      description: cmd.description(),
      usage: help.commandUsage(cmd),
      options: help.visibleOptions(cmd).map(optionSpec),
      args: cmd.registeredArguments.map(argSpec),
      subcommands: subs.map((s) => ({ name: s.name(), aliases: s.aliases(), description: s.description() })),
      extraHelp: extraHelpOf(cmd),
    });
    for (const s of subs) visit(s, [...path, s.name()]);
  };
  visit(root, []);
  return out;
}

/** The root's options that commander accepts after any subcommand too (not --version or --help). */
export function globalOptions(root: Command): OptionSpec[] {
  return new Help()
    .visibleOptions(root)
    .map(optionSpec)
    .filter((o) => !o.flags.includes("--version") && !o.flags.includes("--help"));
}

/** The example lines (indented `kbox …` lines) of a command's extra help. */
function exampleLines(cmd: Command): string[] {
  return extraHelpOf(cmd)
    .split("\n")
    .filter((l) => /^\s+kbox\s/.test(l));
}

/**
 * Give every command group without its own examples a lazy "Examples:" block made of the first
 * example of each subcommand, so `kbox kb --help` shows real invocations and stays in sync.
 */
export function addGroupExamples(cmd: Command): void {
  for (const sub of cmd.commands) addGroupExamples(sub);
  if (!cmd.parent || !cmd.commands.length || (cmd as unknown as NodeJS.EventEmitter).listenerCount("afterHelp") > 0) return;
  cmd.addHelpText("after", () => {
    const lines = visible(cmd).flatMap((s) => exampleLines(s).slice(0, 1));
    return lines.length ? `\nExamples:\n${lines.join("\n")}` : "";
  });
}
