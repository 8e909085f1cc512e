import type { Command } from "commander";
import { type CommandSpec, globalOptions, type OptionSpec, walkTree } from "./completion-tree.js";

/** Escape text for roff: backslashes, and a leading dot or quote that would read as a request. */
export function roff(s: string): string {
  return s
    .replace(/\\/g, "\\e")
    .replace(/-/g, "\\-")
    .split("\n")
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join("\n");
}

export const EXIT_CODES: [string, string][] = [
  ["0", "success"],
  ["1", "failure (the request failed, a resource was not found, processing failed)"],
  ["2", "usage error (unknown command or option, invalid value, missing --yes when not on a terminal)"],
  ["3", "the daemon is unreachable or speaks an incompatible protocol"],
  ["4", "authentication or authorisation failure (a refused or expired API key, a missing role)"],
  ["5", "partial failure (some items of a batch failed)"],
  ["130", "interrupted"],
];

export const ENVIRONMENT: [string, string][] = [
  ["KBOX_HOME", "put config, data, runtime socket and logs under one directory"],
  ["KBOX_PROFILE", "the profile to use (overrides the active one; --profile overrides it)"],
  ["KBOX_KB", "the knowledge box to work on (slug or uuid; --kb overrides it)"],
  ["KBOX_URL", "an ad-hoc remote zone or kbox daemon base URL, used when no profile is named"],
  ["KBOX_API_KEY", "the API key for a remote profile or KBOX_URL (overrides the stored key)"],
  ["KBOX_CREDENTIAL_STORE", "auto, keyring or file: where `kbox auth login` stores keys"],
  ["NO_COLOR", "no colour in output"],
  ["XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_RUNTIME_DIR", "base directories when KBOX_HOME is unset"],
];

const FILES: [string, string][] = [
  ["$XDG_CONFIG_HOME/kbox/config.json", "profiles and settings (kbox profile, kbox config)"],
  ["$XDG_CONFIG_HOME/kbox/credentials.json", "API keys when no OS keyring answers (mode 0600)"],
  ["$XDG_DATA_HOME/kbox/", "knowledge boxes (LanceDB tables and blobs)"],
  ["$XDG_RUNTIME_DIR/kbox/kboxd.sock", "the daemon's Unix socket"],
];

const tp = (term: string, body: string) => `.TP\n${term}\n${roff(body)}`;
const optionItem = (o: OptionSpec) =>
  tp(`.B ${roff([...o.flags].join(", "))}${o.placeholder ? ` ${roff(o.placeholder)}` : ""}`, o.description || "");
const nf = (text: string) => `.PP\n.nf\n.RS 4\n${roff(text)}\n.RE\n.fi`;

function commandSection(c: CommandSpec, level: "SS" | "SH"): string {
  const parts = [`.${level} ${roff(["kbox", ...c.path].join(" "))}`];
  parts.push(`.PP\n${roff(c.description)}`);
  parts.push(`.PP\n.B ${roff(c.usage)}`);
  if (c.aliases.length) parts.push(`.PP\nAliases: ${roff(c.aliases.join(", "))}`);
  for (const a of c.args)
    parts.push(tp(`.I ${roff(a.name)}${a.variadic ? "..." : ""}`, a.description || (a.required ? "required" : "optional")));
  for (const o of c.options) if (!o.flags.includes("--help")) parts.push(optionItem(o));
  if (c.extraHelp) parts.push(nf(c.extraHelp));
  return parts.join("\n");
}

function header(name: string, version: string, summary: string): string {
  return `.\\" Generated from the kbox command tree by scripts/gen-docs.ts; do not edit.\n.TH ${name.toUpperCase()} 1 "" "kbox ${version}" "kbox manual"\n.SH NAME\n${roff(name)} \\- ${roff(summary)}`;
}

const table = (title: string, rows: [string, string][]) =>
  [`.SH ${title}`, ...rows.map(([k, v]) => tp(`.B ${roff(k)}`, v))].join("\n");

/** The main page kbox(1): every command in one page, with global options, exit codes and environment. */
export function mainPage(root: Command, version: string): string {
  const specs = walkTree(root);
  const top = specs[0];
  const out = [
    header("kbox", version, top.description),
    `.SH SYNOPSIS\n.B kbox\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]`,
    `.SH DESCRIPTION\n${roff(top.description)}.\n.PP\n${roff(
      "Data goes to stdout, status lines, progress and errors to stderr. On a terminal output is an aligned table with colour; piped it is tab-separated text without colour, and --json prints the wire response. Destructive commands ask on a terminal and need --yes otherwise.",
    )}`,
    ".SH GLOBAL OPTIONS",
    ...top.options.map(optionItem),
    ".SH COMMANDS",
    ...specs.slice(1).map((c) => commandSection(c, "SS")),
    table("EXIT CODES", EXIT_CODES),
    table("ENVIRONMENT", ENVIRONMENT),
    table("FILES", FILES),
    `.SH SEE ALSO\n${top.subcommands.map((s) => `.BR kbox\\-${roff(s.name)} (1)`).join(",\n")}`,
  ];
  return `${out.join("\n")}\n`;
}

/** kbox-<command>(1): one top-level command and its subcommands. */
export function commandPage(root: Command, name: string, version: string): string {
  const specs = walkTree(root).filter((c) => c.path[0] === name);
  const top = specs[0];
  const out = [
    header(`kbox-${name}`, version, top.description),
    `.SH SYNOPSIS\n.B ${roff(top.usage)}`,
    ...specs.map((c, i) => commandSection(c, i === 0 ? "SH" : "SS").replace(/^\.SH .*/, ".SH DESCRIPTION")),
    ".SH GLOBAL OPTIONS",
    ...globalOptions(root).map(optionItem),
    table("EXIT CODES", EXIT_CODES),
    table("ENVIRONMENT", ENVIRONMENT),
    ".SH SEE ALSO\n.BR kbox (1)",
  ];
  return `${out.join("\n")}\n`;
}

/** Every page: kbox.1 and kbox-<command>.1, keyed by file name. */
export function manPages(root: Command, version: string): Record<string, string> {
  const pages: Record<string, string> = { "kbox.1": mainPage(root, version) };
  for (const c of walkTree(root)[0].subcommands) pages[`kbox-${c.name}.1`] = commandPage(root, c.name, version);
  return pages;
}
