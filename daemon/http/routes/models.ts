import type { Hono } from "hono";
import * as api from "../../../src/api/models.js";
import { pullEvents } from "../../models/pull-stream.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.listModels, async () => s.models.list());
  mount(app, api.pullModel, async ({ body, signal, principal }) =>
    pullEvents(s.models, body, signal, principal.via === "socket"),
  );
  mount(app, api.addModel, async ({ body }) => s.models.addRemote(body));
  mount(app, api.useModel, async ({ body }) => s.models.use(body.name));
  mount(app, api.removeModel, async ({ query }) => ({ removed: await s.models.remove(query.name, query.force === "true") }));
}
