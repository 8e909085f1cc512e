import type { Hono } from "hono";
import * as api from "../../../src/api/accounts.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** `*` (or `-`) in the kb_id position addresses account-wide service accounts. */
function scope(s: Services, kbId: string): string | null {
  if (kbId === "*" || kbId === "-") return null;
  return s.kbs.require(kbId).uuid;
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createServiceAccount, async ({ params, body }) => s.auth.create(scope(s, params.kb_id), body.title, body.role));
  mount(app, api.listServiceAccounts, async ({ params }) => s.auth.list(scope(s, params.kb_id)));
  mount(app, api.deleteServiceAccount, async ({ params }) => {
    await s.auth.delete(scope(s, params.kb_id), params.sa_id);
    return undefined;
  });
  mount(app, api.createServiceAccountKey, async ({ params, body }) =>
    s.auth.createKey(scope(s, params.kb_id), params.sa_id, body.expires),
  );
  mount(app, api.deleteServiceAccountKey, async ({ params }) => {
    await s.auth.deleteKey(scope(s, params.kb_id), params.sa_id, params.key_id);
    return undefined;
  });
}
