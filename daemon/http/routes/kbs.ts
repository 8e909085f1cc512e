import type { Hono } from "hono";
import * as api from "../../../src/api/kbs.js";
import { kbRoleName, type Principal, rolesOn } from "../../auth/principal.js";
import { accountListItem, accountRecord, listItem, type RecordContext } from "../../kbs/records.js";
import { KbService } from "../../kbs/service.js";
import type { Services } from "../../services.js";
import type { KbDoc } from "../../store/index.js";
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
      .filter((kb) => !kb.mode && sees(kb.uuid))
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

  const ctx = (kb: KbDoc, p: Principal): RecordContext => ({
    account: s.accounts.accountOf(kb),
    zone: s.accounts.zone,
    role: kbRoleName(rolesOn(p, kb.uuid)),
  });
  mount(app, api.accountCreateKb, async ({ params, body }) => ({
    id: (await s.kbs.create(body, s.accounts.require(params.account_id).id, body.mode === "kb" ? undefined : body.mode)).uuid,
  }));
  mount(app, api.accountListKbs, async ({ params, query, sees, principal }) => {
    const account = s.accounts.require(params.account_id).id;
    const mode = query.mode ?? "kb";
    const wanted = (kb: KbDoc) => (mode === "agents" ? Boolean(kb.mode) : (kb.mode ?? "kb") === mode);
    const configs = !["false", "False", "0"].includes(query.include_search_configs ?? "true");
    return s.kbs
      .list()
      .filter((kb) => s.accounts.accountOf(kb) === account && wanted(kb) && sees(kb.uuid))
      .map((kb) => accountListItem(kb, ctx(kb, principal), configs));
  });
  const kbOf = (account: string, kbid: string) => s.accounts.kbIn(account, s.kbs.require(kbid));
  mount(app, api.accountGetKb, async ({ params, principal }) => {
    const kb = kbOf(params.account_id, params.kb_id);
    return accountRecord(kb, ctx(kb, principal));
  });
  mount(app, api.accountUpdateKb, async ({ params, body }) => {
    await s.kbs.update(kbOf(params.account_id, params.kb_id).uuid, body);
    return {};
  });
  mount(app, api.accountDeleteKb, async ({ params }) => {
    await s.kbs.delete(kbOf(params.account_id, params.kb_id).uuid);
    return undefined;
  });
}
