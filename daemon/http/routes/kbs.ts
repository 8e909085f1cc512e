import type { Hono } from "hono";
import * as api from "../../../src/api/kbs.js";
import { accountListItem, accountRecord, listItem } from "../../kbs/records.js";
import { KbService } from "../../kbs/service.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createKb, async ({ body }) => {
    const kb = await s.kbs.create(body);
    return { uuid: kb.uuid, slug: kb.slug };
  });
  mount(app, api.listKbs, async ({ sees }) => ({
    kbs: s.kbs
      .list()
      .filter((kb) => sees(kb.uuid))
      .map(listItem),
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
      .map(accountListItem),
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
