import { z } from "zod";
import { route } from "./route.js";

/** One component's version: what runs here, and the newest known (the same: kbox looks nothing up). */
const ComponentVersion = z.object({ installed: z.string(), latest: z.string() });

export const versions = route({
  method: "GET",
  path: "/api/v1/versions",
  scope: "public",
  response: z.object({ nucliadb: ComponentVersion, "nucliadb-admin-assets": ComponentVersion, kbox: ComponentVersion }),
  summary: "Versions of what serves this API (upstream clients read nucliadb's; kbox answers with its own)",
});

const Health = z.object({ status: z.literal("ok") });
export const healthAlive = route({
  method: "GET",
  path: "/api/v1/health/alive",
  scope: "public",
  response: Health,
  summary: "The daemon answers",
});
export const healthReady = route({
  method: "GET",
  path: "/api/v1/health/ready",
  scope: "public",
  response: Health,
  summary: "The daemon is ready to serve",
});

export const configCheck = route({
  method: "GET",
  path: "/api/v1/config-check",
  scope: "authenticated",
  role: "READER",
  response: z.object({
    nua_api_key: z.object({ has_key: z.boolean(), valid: z.boolean(), error: z.string().nullable() }),
    user: z.object({ username: z.string(), roles: z.array(z.string()) }),
  }),
  summary: "Whether a NUA key is configured (KBOX_NUA_KEY; not checked against the zone) and who the caller is",
});
