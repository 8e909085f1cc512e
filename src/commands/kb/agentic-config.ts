import { readFile } from "node:fs/promises";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import { readStdin } from "../../cli/prompt.js";
import * as api from "../../client/routes/agentic-configs.js";

interface Opts {
  kb?: string;
  config?: string;
  file?: string;
  title?: string;
  rephrasePrompt?: string;
  rephraseModel?: string;
  systemPrompt?: string;
  userPrompt?: string;
  model?: string;
  json?: boolean;
}

type Config = api.AgenticConfig;
const llm = (model_id: string) => ({ _type: "llm_config" as const, model_id });

/** The configuration from `--config <json>` or `--file <path|->`, with the shorthand flags over it. */
export async function agenticConfigOf(ctx: Context, o: Opts, required: boolean): Promise<Config> {
  const text = o.config ?? (o.file === "-" ? await readStdin(ctx) : o.file ? await readFile(o.file, "utf8") : undefined);
  let c: Record<string, any> = {};
  if (text !== undefined) {
    try {
      c = JSON.parse(text);
      if (!c || typeof c !== "object" || Array.isArray(c)) throw new Error("not an object");
    } catch (e) {
      throw usageError(`the configuration is not a JSON object: ${(e as Error).message}`);
    }
  }
  if (o.title !== undefined) c.title = o.title;
  if (o.rephrasePrompt !== undefined || o.rephraseModel !== undefined) {
    c.rephrase = { ...c.rephrase };
    if (o.rephrasePrompt !== undefined) c.rephrase.prompt = o.rephrasePrompt;
    if (o.rephraseModel !== undefined) c.rephrase.model = llm(o.rephraseModel);
  }
  if (o.systemPrompt !== undefined || o.userPrompt !== undefined || o.model !== undefined) {
    c.summarize = { ...c.summarize };
    if (o.systemPrompt !== undefined) c.summarize.system_prompt = o.systemPrompt;
    if (o.userPrompt !== undefined) c.summarize.user_prompt = o.userPrompt;
    if (o.model !== undefined) c.summarize.model = llm(o.model);
  }
  if (required && !Object.keys(c).length)
    throw usageError(
      "give the configuration with --config '<json>', --file <path|->, or the --rephrase-*/--*-prompt/--model flags",
    );
  return c as Config;
}

export async function runAgenticConfigCreate(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const body = await agenticConfigOf(ctx, o, false);
  await (await ctx.client(o)).call(api.createAgenticConfig, { params: { kbid, agentic_id: id }, body });
  ctx.status(`created agentic configuration ${id}`, o);
}

export async function runAgenticConfigUpdate(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const body = await agenticConfigOf(ctx, o, true);
  await (await ctx.client(o)).call(api.updateAgenticConfig, { params: { kbid, agentic_id: id }, body });
  ctx.status(`updated agentic configuration ${id}`, o);
}

export async function runAgenticConfigList(ctx: Context, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const res = await (await ctx.client(o)).call(api.listAgenticConfigs, { params: { kbid } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (r) => r[0] },
      { header: "title", get: (r) => r[1].title ?? "" },
      { header: "sections", get: (r) => (["rephrase", "smart_agent", "summarize"] as const).filter((k) => r[1][k]).join(",") },
    ],
    Object.entries(res),
  );
}

export async function runAgenticConfigShow(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  printJson(ctx.io, await (await ctx.client(o)).call(api.getAgenticConfig, { params: { kbid, agentic_id: id } }));
}

export async function runAgenticConfigDelete(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  await (await ctx.client(o)).call(api.deleteAgenticConfig, { params: { kbid, agentic_id: id } });
  ctx.status(`deleted agentic configuration ${id}`, o);
}

function withConfigFlags(c: Command): Command {
  return c
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--config <json>", "the configuration, as JSON ({title, rephrase, smart_agent, summarize})")
    .option("--file <path|->", "read the configuration from a file or stdin")
    .option("--title <text>", "its title")
    .option("--rephrase-prompt <text>", "rephrase the question with this prompt ({question}, {history})")
    .option("--rephrase-model <name>", "the model that rephrases (e.g. openai:gpt-4o-mini)")
    .option("--system-prompt <text>", "the answer's system prompt")
    .option("--user-prompt <text>", "the answer's user prompt ({context}, {question})")
    .option("--model <name>", "the model that answers");
}

export function kbAgenticConfigCommand(ctx: Context): Command {
  const kb = ["--kb <kb>", "knowledge box slug or uuid"] as const;
  return new Command("agentic-config")
    .description("Agentic configurations: rephrase, answer prompts and models that ask's agentic_config_id applies")
    .addCommand(
      withConfigFlags(new Command("create").description("Create a configuration").argument("<id>"))
        .addHelpText(
          "after",
          `\nExamples:\n  kbox kb agentic-config create support --rephrase-prompt 'Rewrite as a search query: {question}' --model openai:llama3.2\n  kbox kb agentic-config create support --file support.json\n  kbox ask "How do I reset it?" --agentic-config support`,
        )
        .action(async (id: string, _o, cmd: Command) => runAgenticConfigCreate(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      withConfigFlags(new Command("update").description("Replace the sections given (null in JSON removes one)").argument("<id>"))
        .addHelpText("after", `\nExample:\n  kbox kb agentic-config update support --system-prompt 'Answer in one sentence.'`)
        .action(async (id: string, _o, cmd: Command) => runAgenticConfigUpdate(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List configurations")
        .option(...kb)
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox kb agentic-config list --kb notes")
        .action(async (_o, cmd: Command) => runAgenticConfigList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("show")
        .description("Print one configuration (JSON)")
        .argument("<id>")
        .option(...kb)
        .addHelpText("after", "\nExample:\n  kbox kb agentic-config show support")
        .action(async (id: string, _o, cmd: Command) => runAgenticConfigShow(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a configuration")
        .argument("<id>")
        .option(...kb)
        .addHelpText("after", "\nExample:\n  kbox kb agentic-config delete support")
        .action(async (id: string, _o, cmd: Command) => runAgenticConfigDelete(ctx, id, ctx.opts<Opts>(cmd))),
    );
}
