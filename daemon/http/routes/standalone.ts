import type { Hono } from "hono";
import * as api from "../../../src/api/standalone.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The routes an upstream standalone server answers besides its knowledge boxes (versions, health, config check). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.versions, async () => {
    const v = { installed: s.info.version, latest: s.info.version };
    return { nucliadb: v, "nucliadb-admin-assets": v, kbox: v };
  });
  mount(app, api.healthAlive, async () => ({ status: "ok" as const }));
  mount(app, api.healthReady, async () => ({ status: "ok" as const }));
  mount(app, api.configCheck, async ({ principal }) => {
    const hasKey = Boolean(s.settings.generation.nuaKey);
    return {
      nua_api_key: { has_key: hasKey, valid: hasKey, error: hasKey ? null : "No NUA key configured (KBOX_NUA_KEY)" },
      user: { username: principal.via === "socket" ? "owner" : principal.via, roles: [...principal.roles].sort() },
    };
  });
}
