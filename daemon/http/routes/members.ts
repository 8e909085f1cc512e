import type { Hono } from "hono";
import * as api from "../../../src/api/members.js";
import { kbRoleName, rolesOn } from "../../auth/principal.js";
import { invalid, notFound } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Personal tokens answered on acceptance last this long unless asked otherwise. */
const ACCEPT_TOKEN_DAYS = 30;

export function register(app: Hono<HttpEnv>, s: Services): void {
  const kbOf = (account: string, kb: string) => s.accounts.kbIn(account, s.kbs.require(kb));
  const acceptUrl = (token: string) => `${s.tokens.issuerUrl()}/api/v1/invites/accept#${token}`;

  mount(app, api.kbUsers, async ({ params }) => s.users.kbMembers(kbOf(params.account, params.kb).uuid));
  mount(app, api.updateKbUsers, async ({ params, body }) => {
    await s.users.updateKbMembers(kbOf(params.account, params.kb).uuid, body);
    return undefined;
  });
  mount(app, api.kbPermissions, async ({ params, principal }) => {
    const kb = kbOf(params.account, params.kb);
    const roles = rolesOn(principal, kb.uuid);
    return { kb_id: kb.uuid, role: kbRoleName(roles), roles: [...roles] };
  });
  mount(app, api.inviteToKb, async ({ params, body }) => {
    const kb = kbOf(params.account, params.kb);
    const inv = await s.invites.create(s.accounts.accountOf(kb), kb.uuid, body);
    return { email: body.email, role: body.role, expires: inv.expires, token: inv.token, url: acceptUrl(inv.token) };
  });
  mount(app, api.kbInvites, async ({ params }) => {
    const kb = kbOf(params.account, params.kb);
    return s.invites.list(s.accounts.accountOf(kb), kb.uuid);
  });
  mount(app, api.deleteKbInvite, async ({ params, query }) => {
    const kb = kbOf(params.account, params.kb);
    if (!query.email) throw invalid([{ type: "missing", loc: ["query", "email"], msg: "Field required", input: null }]);
    await s.invites.delete(s.accounts.accountOf(kb), kb.uuid, query.email);
    return undefined;
  });

  mount(app, api.accountUsers, async ({ params }) => s.users.accountMembers(s.accounts.require(params.account).id));
  mount(app, api.updateAccountUsers, async ({ params, body }) => {
    await s.users.updateAccountMembers(s.accounts.require(params.account).id, body);
    return undefined;
  });
  mount(app, api.accountUser, async ({ params }) => {
    const account = s.accounts.require(params.account).id;
    const m = s.users.accountMembers(account).find((u) => u.id === params.user_id);
    if (!m) throw notFound("User not found in this account");
    return m;
  });
  mount(app, api.inviteToAccount, async ({ params, body }) => {
    const inv = await s.invites.create(s.accounts.require(params.account).id, null, body);
    return { email: body.email, role: body.role, expires: inv.expires, token: inv.token, url: acceptUrl(inv.token) };
  });
  mount(app, api.accountInvites, async ({ params }) => s.invites.list(s.accounts.require(params.account).id, null));
  mount(app, api.deleteAccountInvite, async ({ params }) => {
    await s.invites.delete(s.accounts.require(params.account).id, null, params.email);
    return undefined;
  });

  mount(app, api.acceptInvite, async ({ body }) => {
    const inv = await s.invites.redeem(body.token);
    const user = await s.users.ensure(inv.email, body.name);
    if (inv.kb_id) await s.users.grantKb(user.id, inv.kb_id, inv.role as "SOWNER");
    else await s.users.grantAccount(user.id, inv.account_id, inv.role as "AOWNER");
    const expires = body.token_expires ?? new Date(Date.now() + ACCEPT_TOKEN_DAYS * 86400e3).toISOString();
    const pat = await s.tokens.createPat(user.id, { description: "invitation", expires, account: inv.account_id });
    return {
      user_id: user.id,
      email: user.email,
      account_id: inv.account_id,
      kb_id: inv.kb_id,
      role: inv.role,
      token: pat.token,
      token_expires: pat.expires,
    };
  });
}
