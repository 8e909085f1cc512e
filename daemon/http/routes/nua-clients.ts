import type { Hono } from "hono";
import * as api from "../../../src/api/nua-clients.js";
import type { Services } from "../../services.js";
import { nuaView } from "../../zone/nua.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  const account = (ref: string) => s.accounts.require(ref).id;
  // The webhook's signing secret is kept, never shown back.
  const view = (c: Parameters<typeof nuaView>[0]) => {
    const w = c.processing_webhook as Record<string, unknown> | null;
    const { secret: _secret, ...hook } = w ?? {};
    return { ...nuaView(c), processing_webhook: w ? hook : null, tokens_used: s.nuaUsage.get(c.client_id).tokens_used };
  };
  mount(app, api.listNuaClients, async ({ params, query }) => ({
    clients: s.nua.list(account(params.account), query.client_id).map(view),
  }));
  mount(app, api.createNuaClient, async ({ params, body }) => {
    const { webhook, processing_webhook, ...rest } = body;
    return s.nua.create(account(params.account), {
      ...rest,
      processing_webhook: processing_webhook ?? (webhook ? { uri: webhook } : null),
    });
  });
  mount(app, api.getNuaClient, async ({ params }) => view(s.nua.require(account(params.account), params.client_id)));
  mount(app, api.updateNuaClient, async ({ params, body }) => s.nua.update(account(params.account), params.client_id, body));
  mount(app, api.deleteNuaClient, async ({ params }) => {
    await s.nua.delete(account(params.account), params.client_id);
    await s.nuaProcessing.dropClient(params.client_id);
    return undefined;
  });
  mount(app, api.nuaClientActivity, async ({ params }) => {
    const c = s.nua.require(account(params.account), params.client_id);
    const { client_id, tokens_used, by_kind, requests } = s.nuaUsage.get(c.client_id);
    return { client_id, tokens_limit: c.tokens_limit, tokens_used, by_kind, requests };
  });
  mount(app, api.renewNuaKey, async ({ params }) => s.nua.renew(account(params.account), params.client_id));
}
