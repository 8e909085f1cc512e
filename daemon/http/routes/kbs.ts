import type { Hono } from "hono";
import { LOCAL_ACCOUNT } from "../../../src/api/accounts.js";
import * as api from "../../../src/api/kbs.js";
import { KbService } from "../../kbs/service.js";
import type { Services } from "../../services.js";
import type { KbDoc } from "../../store/index.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The account form of a knowledge box record (management API). */
function accountRecord(kb: KbDoc) {
  return {
    id: kb.uuid,
    slug: kb.slug,
    account_id: LOCAL_ACCOUNT,
    zone: "local",
    title: kb.title,
    description: kb.description,
    state: kb.state,
    created: kb.created,
    admin: true,
    contrib: true,
    allowed_origins: kb.allowed_origins,
    allowed_ip_addresses: kb.allowed_ip_addresses,
    search_configs: kb.search_configs,
    external_index_provider: null,
    enforce_security: kb.enforce_security,
  };
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createKb, async ({ body }) => {
    const kb = await s.kbs.create(body);
    return { uuid: kb.uuid, slug: kb.slug };
  });
  mount(app, api.listKbs, async ({ sees }) => ({
    kbs: s.kbs
      .list()
      .filter((kb) => sees(kb.uuid))
      .map((kb) => ({ slug: kb.slug, uuid: kb.uuid, title: kb.title })),
  }));
  mount(app, api.getKbBySlug, async ({ params }) => {
    const kb = s.kbs.bySlug(params.slug);
    return KbService.record(kb, s.learning.effective(kb));
  });
  mount(app, api.getKb, async ({ params }) => {
    const kb = s.kbs.require(params.kbid);
    return KbService.record(kb, s.learning.effective(kb));
  });
  mount(app, api.updateKb, async ({ params, body }) => ({ uuid: (await s.kbs.update(params.kbid, body)).uuid }));
  mount(app, api.deleteKb, async ({ params }) => ({ uuid: (await s.kbs.delete(params.kbid)).uuid }));
  mount(app, api.counters, async ({ params }) => s.kbs.counters(params.kbid));

  mount(app, api.accountCreateKb, async ({ body }) => ({ id: (await s.kbs.create(body)).uuid }));
  mount(app, api.accountListKbs, async ({ sees }) =>
    s.kbs
      .list()
      .filter((kb) => sees(kb.uuid))
      .map((kb) => {
        const { account_id: _a, created: _c, admin: _ad, contrib: _co, ...rest } = accountRecord(kb);
        return { ...rest, role_on_kb: "SOWNER" };
      }),
  );
  mount(app, api.accountGetKb, async ({ params }) => accountRecord(s.kbs.require(params.kb_id)));
  mount(app, api.accountUpdateKb, async ({ params, body }) => {
    await s.kbs.update(params.kb_id, body);
    return {};
  });
  mount(app, api.accountDeleteKb, async ({ params }) => {
    await s.kbs.delete(params.kb_id);
    return {};
  });
}
