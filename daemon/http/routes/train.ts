import type { Hono } from "hono";
import * as api from "../../../src/api/train.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The SDK's Training calls over local trainings (daemon/tasks/training.ts). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const t = s.training;
  mount(app, api.startTraining, async ({ params, body }) => t.start(params.kbid, params.type, body));
  mount(app, api.stopTraining, async ({ params }) => t.status(params.kbid, params.type));
  mount(app, api.trainingStatus, async ({ params }) => t.status(params.kbid, params.type));
  mount(app, api.trainingExecutions, async ({ params, query }) => t.executions(params.kbid, query.page));
  mount(app, api.trainedModel, async ({ params }) => t.model(params.kbid, params.type));
}
