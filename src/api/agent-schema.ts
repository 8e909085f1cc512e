/** The full schema of a retrieval agent's configuration: what each module and driver accepts, as one JSON schema. */
import { z } from "zod";
import {
  DRIVER_PROVIDERS,
  MODULE_KINDS,
  MODULE_NAMES,
  MODULES_RUN,
  Module,
  type ModuleKind,
  Prompt,
  Rule,
  Workflow,
} from "./agent-config.js";
import { AGENT_KB, AgentParams } from "./agents.js";
import { route } from "./route.js";

export const agentFullSchema = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/fullschema",
  params: AgentParams,
  response: z.record(z.string(), z.unknown()),
  kb: AGENT_KB,
  role: "READER",
  summary: "One JSON schema of the agent's whole configuration: workflows, modules by name, rules, prompts, drivers",
});

const KIND_DOC: Record<ModuleKind, string> = {
  preprocess: "Runs before retrieval (rephrase: the question made standalone with the conversation).",
  context: "Chooses and queries the drivers (sources: driver ids or identifiers; top_k: paragraphs per driver).",
  generation: "Writes the answer (model, and prompt or prompt_id, a stored prompt, as the system prompt).",
  postprocess: "Runs after the answer.",
};

function moduleSchema(kind: ModuleKind, name: string) {
  const runs = MODULES_RUN[kind].includes(name);
  return Module.extend({ module: z.literal(name) }).meta({
    title: `${kind}/${name}`,
    description: runs ? `${KIND_DOC[kind]} kbox runs it.` : "Accepted, kept and exported; kbox records it as a skipped step.",
    "x-kbox-runs": runs,
  });
}

const filterMembers = {
  top_k: z.number().int().min(1).max(50).optional().describe("Paragraphs to retrieve (default 5)"),
  filters: z.array(z.unknown()).optional().describe("Find filters applied to every query"),
  filter_expression: z.record(z.string(), z.unknown()).optional().describe("A find filter_expression"),
};
const LocalConfig = z
  .object({ kbid: z.string().describe("A knowledge box of this daemon, by id or slug"), ...filterMembers })
  .meta({ title: "local", description: "A knowledge box of this daemon, queried in-process" });
const RemoteConfig = z
  .object({
    url: z.string().describe("The kbox or zone base URL (http or https)"),
    kbid: z.string().describe("The knowledge box id there"),
    key: z.string().optional().describe("Its service-account key (sealed at rest, never read back)"),
    description: z.string().optional(),
    ...filterMembers,
  })
  .meta({ title: "nucliadb", description: "A knowledge box of another kbox or of a zone, over HTTP with its key" });
const driverOf = (provider: string, config: z.ZodType) =>
  z.object({
    id: z.string().optional(),
    identifier: z.string(),
    name: z.string(),
    provider: z.literal(provider),
    config,
  });

const json = (t: z.ZodType) => z.toJSONSchema(t, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;

/** `GET schema`: one JSON schema per module name by kind, and one per driver provider. */
export function agentSchemas(): Record<string, unknown> {
  return {
    agents: Object.fromEntries(MODULE_KINDS.map((k) => [k, MODULE_NAMES[k].map((n) => json(moduleSchema(k, n)))])),
    drivers: [json(driverOf("local", LocalConfig)), json(driverOf("nucliadb", z.union([RemoteConfig, LocalConfig])))],
    runs: MODULES_RUN,
  };
}

/** The whole configuration an export holds and the configuration routes accept, as one JSON schema. */
export function agentFullJsonSchema(): Record<string, unknown> {
  const modules = Object.fromEntries(
    MODULE_KINDS.map((k) => [k, z.array(z.union(MODULE_NAMES[k].map((n) => moduleSchema(k, n)))).describe(KIND_DOC[k])]),
  );
  const Config = z
    .object({
      workflows: z.array(Workflow.extend({ rules: z.array(Rule).optional().describe("The workflow's rules"), ...modules })),
      rules: z.array(Rule).describe("The default workflow's rules"),
      prompts: z.array(Prompt),
      drivers: z.array(z.union([driverOf("local", LocalConfig), driverOf("nucliadb", z.union([RemoteConfig, LocalConfig]))])),
    })
    .meta({
      title: "Retrieval agent configuration",
      description: `Driver providers kbox queries: ${DRIVER_PROVIDERS.join(", ")}. Modules marked x-kbox-runs are run; the others are kept.`,
    });
  return json(Config);
}
