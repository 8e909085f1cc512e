import type { Hono } from "hono";
import * as api from "../../../src/api/accounts.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/**
 * The account (by id or slug) and the knowledge box of a service-account path; `*` (or `-`) in the
 * kb_id position addresses account-wide service accounts.
 */
function scope(s: Services, params: { account_id: string; kb_id: string }): [string, string | null] {
  const account = s.accounts.require(params.account_id).id;
  if (params.kb_id === "*" || params.kb_id === "-") return [account, null];
  return [account, s.accounts.kbIn(account, s.kbs.require(params.kb_id)).uuid];
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createServiceAccount, async ({ params, body }) => s.auth.create(...scope(s, params), body.title, body.role));
  mount(app, api.listServiceAccounts, async ({ params }) => s.auth.list(...scope(s, params)));
  mount(app, api.deleteServiceAccount, async ({ params }) => {
    await s.auth.delete(...scope(s, params), params.sa_id);
    return undefined;
  });
  mount(app, api.createServiceAccountKey, async ({ params, body }) =>
    s.auth.createKey(...scope(s, params), params.sa_id, body.expires),
  );
  mount(app, api.deleteServiceAccountKey, async ({ params }) => {
    await s.auth.deleteKey(...scope(s, params), params.sa_id, params.key_id);
    return undefined;
  });
}
