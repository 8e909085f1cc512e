import type { Hono } from "hono";
import * as api from "../../../src/api/learning.js";
import type { Principal } from "../../auth/principal.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** A knowledge box's model (learning) configuration, its available models and the configuration schema. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.getConfiguration, async ({ params }) => s.learning.configuration(params.kbid));
  const untrusted = (p: Principal) => ({ untrusted: p.via !== "socket" });
  mount(app, api.patchConfiguration, async ({ params, body, principal }) =>
    s.learning.update(params.kbid, body, "patch", untrusted(principal)),
  );
  mount(app, api.setConfiguration, async ({ params, body, principal }) =>
    s.learning.update(params.kbid, body, "replace", untrusted(principal)),
  );
  mount(app, api.deleteConfiguration, async ({ params }) => s.learning.update(params.kbid, {}, "replace"));
  mount(app, api.availableModels, async ({ params }) => s.learning.available(params.kbid));
  mount(app, api.configurationSchema, async ({ params }) => s.learning.schema(params.kbid));
}
