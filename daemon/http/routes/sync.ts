import type { Hono } from "hono";
import * as api from "../../../src/api/sync.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createConnection, async ({ params, body }) => {
    const out = await s.sync.createConnection(params.kbid, body.provider, body.credentials);
    // OAuth providers: 200 {authorize_url}; the connection is made by the callback.
    return "authorize_url" in out ? Response.json(out, { status: 200 }) : out;
  });
  mount(app, api.oauthCallback, async ({ query }) => s.sync.oauthCallback(query));
  mount(app, api.browseStorage, async ({ params, query }) => s.sync.browse(params.kbid, params.connection_id, query));
  mount(app, api.resolveSite, async ({ params, query }) => s.sync.resolveSite(params.kbid, params.connection_id, query.site_url));
  mount(app, api.assumeRoleInfo, async ({ params }) => s.sync.assumeRoleInfo(params.kbid));
  mount(app, api.validateResources, async ({ params, body }) =>
    s.sync.validateResources(
      params.kbid,
      params.config_id,
      body.resources.map((r) => r.file_id),
    ),
  );
  mount(app, api.listConnections, async ({ params }) => s.sync.connections(params.kbid));
  mount(app, api.getConnection, async ({ params }) => s.sync.connection(params.kbid, params.connection_id));
  mount(app, api.addConfig, async ({ params, body, principal }) =>
    s.sync.addConfig(params.kbid, body, { owner: principal.via === "socket" }),
  );
  mount(app, api.listConfigs, async ({ params }) => s.sync.configs(params.kbid));
  mount(app, api.getConfig, async ({ params }) => s.sync.config(params.kbid, params.config_id));
  mount(app, api.updateConfig, async ({ params, body, principal }) =>
    s.sync.updateConfig(params.kbid, params.config_id, body, { owner: principal.via === "socket" }),
  );
  mount(app, api.deleteConfig, async ({ params, query }) => {
    await s.sync.deleteConfig(params.kbid, params.config_id, query.delete_resources ?? false);
    return undefined;
  });
  mount(app, api.triggerSync, async ({ params, body }) =>
    s.sync.trigger(params.kbid, params.config_id, body?.full_sync ?? false),
  );
  mount(app, api.listJobs, async ({ params, query }) => s.sync.jobs(params.kbid, params.config_id, query));
  mount(app, api.getJob, async ({ params }) => s.sync.job(params.kbid, params.job_id));
  mount(app, api.jobLogs, async ({ params, query }) => s.sync.logs(params.kbid, params.job_id, query));
}
