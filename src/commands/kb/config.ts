import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printFields, printJson, styles } from "../../cli/output.js";
import * as learning from "../../client/routes/learning.js";

type ConfigOptions = GlobalOptions & { json?: boolean };

/** What `kbox kb config set` accepts: CLI key → how the value is parsed into the update body. */
const SETTERS: Record<string, { member: keyof learning.LearningConfigUpdate; parse: (v: string) => unknown; help: string }> = {
  generative_model: {
    member: "generative_model",
    parse: (v) => v,
    help: "extractive | openai:<model>[@<url>] | gguf:<path> | predict:<model>[@<url>]",
  },
  default_semantic_model: { member: "default_semantic_model", parse: (v) => v, help: "one of semantic_models" },
  semantic_models: {
    member: "semantic_models",
    parse: (v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    help: "comma-separated; existing vectorsets must stay",
  },
  prefer_markdown: { member: "prefer_markdown_generative_response", parse: parseBool, help: "true | false" },
  summary: { member: "summary", parse: (v) => v, help: "simple | extended" },
  user_prompts: {
    member: "user_prompts",
    parse: (v) => parseObject(v, "user_prompts"),
    help: "JSON object (stored and shown; ask does not apply it yet)",
  },
  user_keys: {
    member: "user_keys",
    parse: (v) => parseObject(v, "user_keys"),
    help: 'JSON object, e.g. {"openai":{"url":"...","key":"..."}}',
  },
};
const ALIASES: Record<string, string> = {
  model: "generative_model",
  prefer_markdown_generative_response: "prefer_markdown",
  semantic_model: "semantic_models",
};

function parseBool(v: string): boolean {
  if (/^(true|yes|on|1)$/i.test(v)) return true;
  if (/^(false|no|off|0)$/i.test(v)) return false;
  throw usageError(`prefer_markdown wants true or false, got ${JSON.stringify(v)}`);
}

function parseObject(v: string, key: string): Record<string, unknown> {
  let out: unknown;
  try {
    out = JSON.parse(v);
  } catch (e) {
    throw usageError(`${key} wants a JSON object: ${(e as Error).message}`, `e.g. kbox kb config set ${key} '{"...": {...}}'`);
  }
  if (!out || typeof out !== "object" || Array.isArray(out)) throw usageError(`${key} wants a JSON object`);
  return out as Record<string, unknown>;
}

function setterFor(key: string) {
  const name = ALIASES[key.replace(/-/g, "_")] ?? key.replace(/-/g, "_");
  const s = SETTERS[name];
  if (!s) throw usageError(`unknown configuration key ${JSON.stringify(key)}`, `keys: ${Object.keys(SETTERS).join(", ")}`);
  return s;
}

/** The configuration as fields on stdout; the plain statement about semantic search on stderr. */
function printConfig(ctx: Context, c: learning.ModelConfiguration, opts: ConfigOptions): void {
  if (opts.json) printJson(ctx.io, c);
  else {
    // A hosted zone answers without kbox's members: fall back to the spec's ones.
    const vs = (
      c.vectorsets ??
      (c.semantic_models ?? []).map((model) => ({
        model,
        dim: 0,
        default: model === c.default_semantic_model,
        installed: true,
        vectors: undefined,
      }))
    ).map(
      (v) =>
        `${v.default ? "*" : ""}${v.model} (${v.dim || "?"} dims${v.vectors !== undefined ? `, ${v.vectors} vectors` : ""}${v.installed ? "" : ", not installed"})`,
    );
    printFields(ctx.io, [
      ["semantic search", c.semantic_search ? (c.semantic_search === "active" ? "active" : "keyword only") : ""],
      ["semantic models", vs.join(", ") || "none"],
      ["generative model", `${c.generative_model}${c.generative_model_source === "daemon" ? " (daemon default)" : ""}`],
      ["prefer markdown", String(c.prefer_markdown_generative_response)],
      ["summary", c.summary],
      ["user prompts", c.user_prompts ? JSON.stringify(c.user_prompts) : ""],
      ["user keys", c.user_keys ? JSON.stringify(c.user_keys) : ""],
    ]);
  }
  // On stderr, so that piped data stays clean; a keyword-only box is said even with --quiet.
  const st = styles(ctx.io, ctx.io.stderr);
  if (c.semantic_search === "keyword_only" && c.notice) ctx.io.stderr.write(`${st.yellow("notice:")} ${c.notice}\n`);
  else if (c.notice) ctx.status(c.notice, opts);
}

export async function runKbConfig(ctx: Context, opts: ConfigOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const c = await (await ctx.client(opts)).call(learning.getConfiguration, { params: { kbid } });
  printConfig(ctx, c, opts);
}

/** `set <key> <value>` (or `unset <key>`, value null): one member of the configuration. */
export async function runKbConfigSet(ctx: Context, key: string, value: string | null, opts: ConfigOptions): Promise<void> {
  const s = setterFor(key);
  if (value === null && /semantic/.test(s.member))
    throw usageError(`${key} cannot be unset`, "semantic models own the stored vectors; set another list instead");
  const body = { [s.member]: value === null ? null : s.parse(value) } as learning.LearningConfigUpdate;
  const kbid = await ctx.kbid(opts);
  const c = await (await ctx.client(opts)).call(learning.patchConfiguration, { params: { kbid }, body });
  ctx.status(`${value === null ? "reset" : "set"} ${s.member}`, opts);
  printConfig(ctx, c, opts);
}

const keyHelp = () =>
  Object.entries(SETTERS)
    .map(([k, s]) => `  ${k.padEnd(24)}${s.help}`)
    .join("\n");

export function kbConfigCommand(ctx: Context): Command {
  const set = new Command("set")
    .description("Change one member of the model configuration")
    .argument(
      "<key>",
      "generative_model, default_semantic_model, semantic_models, prefer_markdown, summary, user_prompts, user_keys",
    )
    .argument("<value>", "the new value")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      `\nKeys:\n${keyHelp()}\n\nExamples:\n  kbox kb config set generative_model extractive\n  kbox kb config set generative_model openai:llama3.2@http://127.0.0.1:11434/v1 --kb notes\n  kbox kb config set prefer_markdown true\n  kbox kb config set semantic_models bge-small-en-v1.5,multilingual-e5-small\n  kbox kb config set user_prompts '{"openai:llama3.2": {"system": "Answer briefly."}}'`,
    )
    .action(async (key: string, value: string, _o, cmd: Command) =>
      runKbConfigSet(ctx, key, value, ctx.opts<ConfigOptions>(cmd)),
    );
  const unset = new Command("unset")
    .description("Reset one member of the model configuration to its default")
    .argument("<key>", "generative_model, prefer_markdown, summary, user_prompts, user_keys")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox kb config unset generative_model     # back to the daemon default")
    .action(async (key: string, _o, cmd: Command) => runKbConfigSet(ctx, key, null, ctx.opts<ConfigOptions>(cmd)));
  return new Command("config")
    .description("Show or change a knowledge box's model configuration (semantic and generative models)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox kb config                      # is semantic search active? which models?\n  kbox kb config --kb notes --json\n  kbox kb config set generative_model openai:gpt-4o-mini",
    )
    .addCommand(set)
    .addCommand(unset)
    .action(async (_o, cmd: Command) => runKbConfig(ctx, ctx.opts<ConfigOptions>(cmd)));
}
