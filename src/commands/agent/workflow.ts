import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import * as cfg from "../../client/routes/agent-config.js";
import * as modules from "../../client/routes/agent-modules.js";
import { agentId, jsonObject } from "./resolve.js";

interface Opts {
  agent?: string;
  workflow?: string;
  name?: string;
  description?: string;
  json?: boolean;
  quiet?: boolean;
}

const KINDS = {
  preprocess: modules.preprocessModules,
  context: modules.contextModules,
  generation: modules.generationModules,
  postprocess: modules.postprocessModules,
};
type Kind = keyof typeof KINDS;

function kindOf(k: string): Kind {
  if (!(k in KINDS)) throw usageError(`the module kind is one of ${Object.keys(KINDS).join(", ")}`);
  return k as Kind;
}

export async function runWorkflowList(ctx: Context, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const res = await (await ctx.client(o)).call(cfg.listWorkflows, { params: { agent_id } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (w) => w.id },
      { header: "name", get: (w) => w.name },
      { header: "description", get: (w) => w.description ?? "" },
    ],
    res,
  );
}

export async function runWorkflowAdd(ctx: Context, id: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const body = { id, name: o.name ?? id, description: o.description, required: [] };
  await (await ctx.client(o)).call(cfg.addWorkflow, { params: { agent_id }, body });
  ctx.status(`added workflow ${id}`, o);
}

export async function runWorkflowDelete(ctx: Context, id: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  await (await ctx.client(o)).call(cfg.deleteWorkflow, { params: { agent_id, workflow_id: id } });
  ctx.status(`deleted workflow ${id}`, o);
}

export async function runModuleList(ctx: Context, kind: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const params = { agent_id, workflow_id: o.workflow ?? "default" };
  const res = await (await ctx.client(o)).call(KINDS[kindOf(kind)].wfList, { params });
  printJson(ctx.io, res);
}

export async function runModuleAdd(ctx: Context, kind: string, json: string, o: Opts): Promise<void> {
  const k = kindOf(kind);
  const body = jsonObject(json, "the module");
  if (typeof body.module !== "string") throw usageError('the module needs its name: {"module": "generate", ...}');
  const agent_id = await agentId(ctx, o.agent, o);
  const params = { agent_id, workflow_id: o.workflow ?? "default" };
  const res = await (await ctx.client(o)).call(KINDS[k].wfAdd, { params, body: body as never });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
}

export async function runModuleDelete(ctx: Context, kind: string, id: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const params = { agent_id, workflow_id: o.workflow ?? "default", module_id: id };
  await (await ctx.client(o)).call(KINDS[kindOf(kind)].wfDelete, { params });
  ctx.status(`deleted ${kind} module ${id}`, o);
}

export function agentWorkflowCommand(ctx: Context): Command {
  const agent = ["--agent <agent>", "agent slug or id"] as const;
  const wf = ["--workflow <id>", "workflow (default: default)"] as const;
  const module = new Command("module")
    .description("Modules of a workflow: preprocess (rephrase), context (sources), generation (model, prompt), postprocess")
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("Print a kind's modules (JSON)")
        .argument("<kind>", "preprocess, context, generation or postprocess")
        .option(...agent)
        .option(...wf)
        .addHelpText("after", "\nExample:\n  kbox agent workflow module list generation --agent helper")
        .action(async (kind: string, _o, cmd: Command) => runModuleList(ctx, kind, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("add")
        .description("Add a module (JSON: module, and model, prompt, prompt_id, sources, top_k as the kind reads them)")
        .argument("<kind>")
        .argument("<json>")
        .option(...agent)
        .option(...wf)
        .option("--json", "print the wire response")
        .addHelpText(
          "after",
          `\nExamples:\n  kbox agent workflow module add generation '{"module":"generate","model":"openai:gpt-4o-mini"}' --agent helper\n  kbox agent workflow module add context '{"module":"ask","sources":["notes"],"top_k":8}' --agent helper`,
        )
        .action(async (kind: string, json: string, _o, cmd: Command) => runModuleAdd(ctx, kind, json, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a module")
        .argument("<kind>")
        .argument("<id>")
        .option(...agent)
        .option(...wf)
        .addHelpText("after", "\nExample:\n  kbox agent workflow module delete generation 3f2a… --agent helper")
        .action(async (kind: string, id: string, _o, cmd: Command) => runModuleDelete(ctx, kind, id, ctx.opts<Opts>(cmd))),
    );
  return new Command("workflow")
    .description("Workflows of an agent (default always exists) and their modules")
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List workflows")
        .option(...agent)
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox agent workflow list --agent helper")
        .action(async (_o, cmd: Command) => runWorkflowList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("add")
        .description("Add a workflow")
        .argument("<id>")
        .option(...agent)
        .option("--name <name>", "its name (defaults to the id)")
        .option("--description <text>", "what it is for")
        .addHelpText("after", "\nExample:\n  kbox agent workflow add brief --agent helper")
        .action(async (id: string, _o, cmd: Command) => runWorkflowAdd(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a workflow (not default)")
        .argument("<id>")
        .option(...agent)
        .addHelpText("after", "\nExample:\n  kbox agent workflow delete brief --agent helper")
        .action(async (id: string, _o, cmd: Command) => runWorkflowDelete(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(module);
}
