import type { Hono } from "hono";
import * as api from "../../../src/api/agent-config.js";
import * as modules from "../../../src/api/agent-modules.js";
import { agentFullJsonSchema, agentFullSchema, agentSchemas } from "../../../src/api/agent-schema.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** A change answers 200 with JSON null, as the service does. */
const done = async (p: Promise<void>): Promise<null> => {
  await p;
  return null;
};

/** A retrieval agent's configuration: workflows, modules, rules, prompts, drivers (daemon/agents). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const c = s.agents.config;
  mount(app, api.listWorkflows, async ({ params }) => c.listWorkflows(params.agent_id));
  mount(app, api.addWorkflow, async ({ params, body }) => c.addWorkflow(params.agent_id, body));
  mount(app, api.setWorkflow, async ({ params, body }) => done(c.setWorkflow(params.agent_id, params.workflow_id, body)));
  mount(app, api.deleteWorkflow, async ({ params }) => done(c.deleteWorkflow(params.agent_id, params.workflow_id)));
  mount(app, api.getRules, async ({ params }) => c.getRules(params.agent_id));
  mount(app, api.setRules, async ({ params, body }) => done(c.setRules(params.agent_id, body.rules)));
  mount(app, api.getWorkflowRules, async ({ params }) => c.getRules(params.agent_id, params.workflow_id));
  mount(app, api.setWorkflowRules, async ({ params, body }) => done(c.setRules(params.agent_id, body.rules, params.workflow_id)));
  mount(app, api.listPrompts, async ({ params }) => c.listPrompts(params.agent_id));
  mount(app, api.addPrompt, async ({ params, body }) => c.addPrompt(params.agent_id, body));
  mount(app, api.getPrompt, async ({ params }) => c.getPrompt(params.agent_id, params.prompt_id));
  mount(app, api.patchPrompt, async ({ params, body }) => done(c.patchPrompt(params.agent_id, params.prompt_id, body)));
  mount(app, api.deletePrompt, async ({ params }) => done(c.deletePrompt(params.agent_id, params.prompt_id)));
  // A local driver's knowledge box is one the caller may read.
  const resolver = (sees: (kbid: string) => boolean) => (ref: string) => {
    const kb = /^[0-9a-f-]{36}$/i.test(ref) ? s.kbs.require(ref) : s.kbs.bySlug(ref);
    if (kb.mode || !sees(kb.uuid)) throw new Error("not readable");
    return kb.uuid;
  };
  mount(app, api.listDrivers, async ({ params }) => c.listDrivers(params.agent_id));
  mount(app, api.addDriver, async ({ params, body, sees }) => c.addDriver(params.agent_id, body, resolver(sees)));
  mount(app, api.patchDriver, async ({ params, body, sees }) =>
    done(c.patchDriver(params.agent_id, params.driver, body, resolver(sees))),
  );
  mount(app, api.deleteDriver, async ({ params }) => done(c.deleteDriver(params.agent_id, params.driver)));
  mount(app, api.agentSchema, async ({ params }) => {
    await c.open(params.agent_id);
    return agentSchemas();
  });
  mount(app, agentFullSchema, async ({ params }) => {
    await c.open(params.agent_id);
    return agentFullJsonSchema();
  });
  for (const [kind, r] of [
    ["preprocess", modules.preprocessModules],
    ["context", modules.contextModules],
    ["generation", modules.generationModules],
    ["postprocess", modules.postprocessModules],
  ] as const) {
    mount(app, r.list, async ({ params }) => c.listModules(params.agent_id, kind));
    mount(app, r.add, async ({ params, body }) => c.addModule(params.agent_id, kind, body));
    mount(app, r.patch, async ({ params, body }) => done(c.patchModule(params.agent_id, kind, params.module_id, body)));
    mount(app, r.delete, async ({ params }) => done(c.deleteModule(params.agent_id, kind, params.module_id)));
    mount(app, r.wfList, async ({ params }) => c.listModules(params.agent_id, kind, params.workflow_id));
    mount(app, r.wfAdd, async ({ params, body }) => c.addModule(params.agent_id, kind, body, params.workflow_id));
    mount(app, r.wfPatch, async ({ params, body }) =>
      done(c.patchModule(params.agent_id, kind, params.module_id, body, params.workflow_id)),
    );
    mount(app, r.wfDelete, async ({ params }) =>
      done(c.deleteModule(params.agent_id, kind, params.module_id, params.workflow_id)),
    );
  }
}
