import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { printFields, printJson } from "../../cli/output.js";
import { CONFIG_KEYS, validateConfigValue } from "./keys.js";

/** The closest known key, for "did you mean". */
function suggest(name: string): string | undefined {
  const dist = (a: string, b: string) => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length][b.length];
  };
  const best = Object.keys(CONFIG_KEYS)
    .map((k) => [k, dist(name, k)] as const)
    .sort((x, y) => x[1] - y[1])[0];
  return best && best[1] <= Math.max(2, Math.floor(name.length / 3)) ? best[0] : undefined;
}

function knownKey(name: string): string {
  if (CONFIG_KEYS[name]) return name;
  const s = suggest(name);
  throw usageError(
    `unknown setting ${JSON.stringify(name)}${s ? ` (did you mean ${s}?)` : ""}`,
    "list them with `kbox config list --all`",
  );
}

export function runConfigGet(ctx: Context, name: string, opts: { json?: boolean }): void {
  knownKey(name);
  const set = ctx.config.settings[name];
  const value = set ?? CONFIG_KEYS[name].default;
  if (opts.json) {
    printJson(ctx.io, { key: name, value: value ?? null, default: set === undefined });
    return;
  }
  if (value === undefined) throw new CliError(`${name} is not set`, EXIT.failure);
  ctx.io.stdout.write(`${value}\n`);
}

export function runConfigSet(ctx: Context, name: string, value: string, opts: { quiet?: boolean }): void {
  knownKey(name);
  const err = validateConfigValue(name, value);
  if (err) throw usageError(`invalid value for ${name}: ${err}`);
  ctx.config.settings[name] = value;
  ctx.saveConfig();
  ctx.status(`${name} = ${value}`, opts);
}

export function runConfigUnset(ctx: Context, name: string, opts: { quiet?: boolean }): void {
  knownKey(name);
  delete ctx.config.settings[name];
  ctx.saveConfig();
  ctx.status(`${name} reset to its default${CONFIG_KEYS[name].default ? ` (${CONFIG_KEYS[name].default})` : ""}`, opts);
}

export function runConfigList(ctx: Context, opts: { json?: boolean; all?: boolean }): void {
  const s = ctx.config.settings;
  const names = opts.all ? Object.keys(CONFIG_KEYS).sort() : Object.keys(s).sort();
  if (opts.json) {
    const out = Object.fromEntries(names.map((k) => [k, s[k] ?? CONFIG_KEYS[k]?.default ?? null]));
    printJson(ctx.io, { settings: out, file: `${ctx.paths.config}/config.json` });
    return;
  }
  if (!opts.all) {
    printFields(
      ctx.io,
      names.map((k) => [k, s[k]]),
    );
    return;
  }
  for (const k of names) {
    const v = s[k] ?? CONFIG_KEYS[k].default ?? "";
    const line = ctx.io.stdout.isTTY
      ? `${k} = ${v}${s[k] === undefined ? " (default)" : ""}\n    ${CONFIG_KEYS[k].description}\n`
      : `${k}\t${v}\n`;
    ctx.io.stdout.write(line);
  }
}

/** `kbox config get|set|unset|list`: settings in config.json, validated against the known keys. */
export function configCommand(ctx: Context): Command {
  const keysHelp = () =>
    `\nSettings:\n${Object.entries(CONFIG_KEYS)
      .map(([k, v]) => `  ${k.padEnd(20)} ${v.values ? `(${v.values.join("|")}) ` : ""}${v.description}`)
      .join("\n")}`;
  const config = new Command("config").description("Read and change kbox settings (config.json in the config dir)");
  config
    .command("get")
    .description("Print a setting's value (its default when unset)")
    .argument("<key>", "setting name")
    .option("--json", "print as JSON")
    .addHelpText("after", "\nExample:\n  kbox config get credentials.store")
    .action((k: string, _o, cmd: Command) => runConfigGet(ctx, k, ctx.opts(cmd)));
  config
    .command("set")
    .description("Change a setting")
    .argument("<key>", "setting name")
    .argument("<value>", "new value")
    .addHelpText(
      "after",
      () => `\nExamples:\n  kbox config set credentials.store file\n  kbox config set progress never\n${keysHelp()}`,
    )
    .action((k: string, v: string, _o, cmd: Command) => runConfigSet(ctx, k, v, ctx.opts(cmd)));
  config
    .command("unset")
    .description("Reset a setting to its default")
    .argument("<key>", "setting name")
    .addHelpText("after", "\nExample:\n  kbox config unset progress")
    .action((k: string, _o, cmd: Command) => runConfigUnset(ctx, k, ctx.opts(cmd)));
  config
    .command("list")
    .alias("ls")
    .description("List the settings that are set (--all: every known setting with its default)")
    .option("--all", "include unset settings with their defaults and descriptions")
    .option("--json", "print as JSON")
    .addHelpText("after", "\nExamples:\n  kbox config list\n  kbox config list --all")
    .action((_o, cmd: Command) => runConfigList(ctx, ctx.opts(cmd)));
  return config.addHelpText(
    "after",
    () => `\nExamples:\n  kbox config set credentials.store file\n  kbox config list --all\n${keysHelp()}`,
  );
}
