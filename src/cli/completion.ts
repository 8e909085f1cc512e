import type { Command } from "commander";
import { type CommandSpec, globalOptions, type OptionSpec, type ValueKind, walkTree } from "./completion-tree.js";

/** Shells `kbox completion` writes scripts for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

const HEADER = (c: string) => `${c} kbox shell completion, generated from the command tree by scripts/gen-docs.ts; do not edit.`;

/** Encoded value kinds the scripts switch on: kbs, profiles, file, any, or choice:a|b|c. */
function kindCode(v: ValueKind | undefined): string {
  if (!v) return "";
  return v.kind === "choice" ? `choice:${v.values.join("|")}` : v.kind;
}

interface Flat {
  key: string;
  subs: string[];
  aliases: string[];
  opts: string[];
  valued: string[];
  args: string[];
}

/** Per command path: subcommands (alias=name), options, options taking a value (with kind), positional kinds. */
function flatten(root: Command): Flat[] {
  const globals = globalOptions(root);
  return walkTree(root).map((c) => {
    const options: OptionSpec[] = c.path.length
      ? [...c.options, ...globals.filter((g) => !c.options.some((o) => o.flags.join() === g.flags.join()))]
      : c.options;
    return {
      key: c.path.join(" "),
      subs: c.subcommands.map((s) => s.name),
      aliases: c.subcommands.flatMap((s) => s.aliases.map((a) => `${a}=${s.name}`)),
      opts: options.flatMap((o) => o.flags),
      valued: options.filter((o) => o.value).flatMap((o) => o.flags.map((f) => `${f}=${kindCode(o.value)}`)),
      args: c.args.map((a) => kindCode(a.value) + (a.variadic ? "+" : "")),
    };
  });
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The case statement both bash and zsh scripts use to look up a command path. */
function specCase(flat: Flat[]): string {
  const lines = flat.map(
    (f) =>
      `    ${q(f.key)}) subs=${q([...f.subs, ...f.aliases].join(" "))}; opts=${q(f.opts.join(" "))}; valued=${q(f.valued.join(" "))}; args=${q(f.args.join(" "))} ;;`,
  );
  return ["_kbox_spec() {", "  subs=''; opts=''; valued=''; args=''", '  case "$1" in', ...lines, "  esac", "}"].join("\n");
}

/**
 * Shared shell logic (bash and zsh accept it): walk the words before the cursor to find the command
 * path, the number of positionals, and whether the cursor is on an option's value. KB names come
 * from `kbox __complete kbs`, which never starts the daemon and gives up after a second.
 */
const WALK = `_kbox_word_in() { local w="$1" s; shift; for s in $*; do [ "\${s%%=*}" = "$w" ] && { echo "\${s#*=}"; return 0; }; done; return 1; }
_kbox_walk() {
  # $@: the words before the cursor, without the leading "kbox"
  _kbox_path=''; _kbox_nargs=0; _kbox_expect=''
  _kbox_spec ''
  local w c
  for w in "$@"; do
    if [ -n "$_kbox_expect" ]; then _kbox_expect=''; continue; fi
    case "$w" in
      --*=*) continue ;;
      -*) _kbox_expect=$(_kbox_word_in "$w" $valued); continue ;;
    esac
    if [ "$_kbox_nargs" = 0 ] && c=$(_kbox_word_in "$w" $subs); then
      _kbox_path="\${_kbox_path:+$_kbox_path }$c"; _kbox_spec "$_kbox_path"
    else
      _kbox_nargs=$((_kbox_nargs + 1))
    fi
  done
}
_kbox_argkind() {
  # the kind of positional number $1 (0-based), repeating a variadic last one
  local i=0 a last=''
  for a in $args; do
    last="$a"
    if [ "$i" = "$1" ]; then echo "\${a%+}"; return; fi
    i=$((i + 1))
  done
  case "$last" in *+) echo "\${last%+}" ;; esac
}
_kbox_values() {
  # candidate words for a value kind (files are left to the shell)
  case "$1" in
    kbs) command kbox __complete kbs 2>/dev/null ;;
    profiles) command kbox __complete profiles 2>/dev/null ;;
    choice:*) echo "\${1#choice:}" | tr '|' ' ' ;;
  esac
}`;

/** bash: `source completions/kbox.bash` (or drop it in bash-completion's completions dir). */
export function bashScript(root: Command): string {
  return `${HEADER("#")}
${specCase(flatten(root))}
${WALK}
_kbox() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" kind
  _kbox_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if [ -n "$_kbox_expect" ]; then kind="$_kbox_expect"
  elif [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return
  elif [ -n "$subs" ] && [ "$_kbox_nargs" = 0 ]; then COMPREPLY=($(compgen -W "$(for s in $subs; do echo "\${s%%=*}"; done)" -- "$cur")); return
  else kind=$(_kbox_argkind "$_kbox_nargs"); fi
  case "$kind" in
    file) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;
    '') COMPREPLY=() ;;
    *) COMPREPLY=($(compgen -W "$(_kbox_values "$kind")" -- "$cur")) ;;
  esac
}
complete -F _kbox kbox
`;
}

function describeCase(root: Command): string {
  const specs: CommandSpec[] = walkTree(root);
  const lines = specs
    .filter((c) => c.subcommands.length)
    .map((c) => {
      const items = c.subcommands.flatMap((s) =>
        [s.name, ...s.aliases].map((n) => `${n.replace(/:/g, "\\:")}:${s.description.replace(/\n/g, " ")}`),
      );
      return `    ${q(c.path.join(" "))}) _kbox_descs=(${items.map(q).join(" ")}) ;;`;
    });
  return ["_kbox_describe() {", "  _kbox_descs=()", '  case "$1" in', ...lines, "  esac", "}"].join("\n");
}

/** zsh: put `_kbox` in a directory of $fpath (or `source <(kbox completion zsh)`). */
export function zshScript(root: Command): string {
  return `#compdef kbox
${HEADER("#")}
${specCase(flatten(root))}
${describeCase(root)}
setopt localoptions shwordsplit 2>/dev/null
${WALK}
_kbox() {
  setopt localoptions shwordsplit
  local cur="\${words[CURRENT]}" kind
  _kbox_walk "\${(@)words[2,CURRENT-1]}"
  if [ -n "$_kbox_expect" ]; then kind="$_kbox_expect"
  elif [[ "$cur" == -* ]]; then compadd -- \${=opts}; return
  elif [ -n "$subs" ] && [ "$_kbox_nargs" = 0 ]; then _kbox_describe "$_kbox_path"; _describe -t commands 'kbox command' _kbox_descs; return
  else kind=$(_kbox_argkind "$_kbox_nargs"); fi
  case "$kind" in
    file) _files ;;
    '') ;;
    *) compadd -- \${=$(_kbox_values "$kind")} ;;
  esac
}
if [ "\${funcstack[1]}" = "_kbox" ]; then _kbox "$@"; else compdef _kbox kbox; fi
`;
}

/** fish: save as ~/.config/fish/completions/kbox.fish. */
export function fishScript(root: Command): string {
  const specs = walkTree(root);
  const globals = new Set(globalOptions(root).flatMap((o) => o.flags));
  const subCases = specs.flatMap((c) =>
    c.subcommands.flatMap((s) =>
      [s.name, ...s.aliases].map((n) => `        case ${q(`${c.path.join(" ")}|${n}`)}\n            echo ${q(s.name)}`),
    ),
  );
  const valued = [...new Set(specs.flatMap((c) => c.options.filter((o) => o.value).flatMap((o) => o.flags)))];
  const out = [
    HEADER("#"),
    "function __kbox_path --description 'the kbox command path before the cursor'",
    "    set -l path ''",
    "    set -l skip 0",
    "    for w in (commandline -opc)[2..-1]",
    "        if test $skip = 1; set skip 0; continue; end",
    "        switch $w",
    `            case ${valued.map(q).join(" ") || "''"}`,
    "                set skip 1; continue",
    "            case '-*'",
    "                continue",
    "        end",
    '        set -l c (__kbox_sub "$path" $w)',
    '        if test -n "$c"; set path (string trim -- "$path $c"); else; break; end',
    "    end",
    "    echo $path",
    "end",
    "function __kbox_sub",
    '    switch "$argv[1]|$argv[2]"',
    ...subCases,
    "    end",
    "end",
    'function __kbox_at; set -l p (__kbox_path); test "$p" = "$argv[1]"; end',
    "complete -c kbox -f",
  ];
  const valueArgs = (v: ValueKind | undefined) => {
    if (!v) return "";
    if (v.kind === "kbs") return " -r -a '(kbox __complete kbs 2>/dev/null)'";
    if (v.kind === "profiles") return " -r -a '(kbox __complete profiles 2>/dev/null)'";
    if (v.kind === "file") return " -r -F";
    if (v.kind === "choice") return ` -r -a ${q(v.values.join(" "))}`;
    return " -r";
  };
  const optLine = (cond: string, o: OptionSpec) => {
    const short = o.flags.find((f) => /^-[^-]/.test(f));
    const long = o.flags.find((f) => f.startsWith("--"));
    const parts = [short ? ` -s ${short.slice(1)}` : "", long ? ` -l ${long.slice(2)}` : ""].join("");
    return `complete -c kbox${cond}${parts}${valueArgs(o.value)} -d ${q(o.description)}`;
  };
  for (const o of globalOptions(root)) out.push(optLine("", o));
  for (const c of specs) {
    const cond = ` -n ${q(`__kbox_at ${q(c.path.join(" "))}`)}`;
    for (const s of c.subcommands) out.push(`complete -c kbox${cond} -a ${q(s.name)} -d ${q(s.description)}`);
    for (const o of c.options) if (!o.flags.some((f) => globals.has(f))) out.push(optLine(cond, o));
    const arg = c.args[0];
    if (arg && !c.subcommands.length && arg.value.kind !== "any") {
      const v = valueArgs(arg.value).replace(" -r", "");
      if (v) out.push(`complete -c kbox${cond}${v}`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** The completion script for a shell. */
export function completionScript(root: Command, shell: Shell): string {
  return shell === "bash" ? bashScript(root) : shell === "zsh" ? zshScript(root) : fishScript(root);
}
