import type { Hono } from "hono";
import * as api from "../../../src/api/zone.js";
import { kbRoleName, type Principal, rolesOn } from "../../auth/principal.js";
import { badRequest, notFound } from "../../errors.js";
import type { Services } from "../../services.js";
import type { AccountDoc } from "../../store/index.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The accounts a caller belongs to: all for the socket's owner and ROOT, else its own. */
function accountsOf(s: Services, p: Principal): AccountDoc[] {
  const all = s.accounts.list();
  if (p.account !== undefined) return all.filter((a) => a.id === p.account);
  if (p.via === "socket" || p.via === "roles-header") return all;
  const u = p.user ? s.users.get(p.user) : undefined;
  if (!u || u.type === "ROOT") return all;
  return all.filter((a) => u.accounts[a.id] || s.kbs.list().some((kb) => u.kbs[kb.uuid] && s.accounts.accountOf(kb) === a.id));
}

function record(s: Services, p: Principal, a: AccountDoc) {
  const kbs = s.kbs.list().filter((kb) => s.accounts.accountOf(kb) === a.id).length;
  return s.accounts.record(a, { kbs, users: s.users.accountMembers(a.id).length }, p.roles.has("OWNER"));
}

/** The user a caller acts as, or 400: keys and tokens of knowledge boxes have no user. */
function userOf(s: Services, p: Principal) {
  const u = p.user ? s.users.get(p.user) : undefined;
  if (!u) throw badRequest("This credential is not a user's: use a personal access token, or the local socket");
  return u;
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.listAccounts, async ({ principal }) => accountsOf(s, principal).map((a) => record(s, principal, a)));
  mount(app, api.createAccount, async ({ body, principal }) => record(s, principal, await s.accounts.create(body)));
  mount(app, api.getAccount, async ({ params, principal }) => record(s, principal, s.accounts.require(params.account)));
  mount(app, api.updateAccount, async ({ params, body }) => {
    await s.accounts.update(params.account, body);
    return undefined;
  });
  mount(app, api.deleteAccount, async ({ params }) => {
    await s.accounts.delete(params.account, s.kbs.list());
    return undefined;
  });
  mount(app, api.accountStatus, async ({ params }) => (s.accounts.require(params.account), { available: true }));
  mount(app, api.kbIndex, async ({ params, sees }) => {
    const a = s.accounts.require(params.account);
    return s.kbs
      .list()
      .filter((kb) => s.accounts.accountOf(kb) === a.id && sees(kb.uuid))
      .map((kb) => ({ account_id: a.id, kb_id: kb.uuid, kb_mode: kb.mode ?? "kb", zone_id: s.accounts.zone }));
  });
  mount(app, api.usage, async ({ params, query }) => {
    s.accounts.require(params.account);
    // Nothing is metered on this machine: one bucket of zeroes for the asked period.
    const names = ["resources_processed", "searches_performed", "ai_tokens_used"];
    return [{ timestamp: query.from, metrics: names.map((name) => ({ name, value: 0 })) }];
  });
  mount(app, api.listZones, async () => [{ id: s.accounts.zone, title: s.accounts.zone, slug: s.accounts.zone, private: false }]);
  mount(app, api.authorizerInfo, async ({ principal: p }) => {
    const account = p.account ? s.accounts.require(p.account) : s.accounts.default;
    const role = kbRoleName(p.kbid ? rolesOn(p, p.kbid) : p.roles);
    return {
      auth: p.via,
      user: {
        ...(p.user ? { user_id: p.user } : {}),
        account_id: account.id,
        account_slug: account.slug,
        ...(p.kbid ? { kb_id: p.kbid } : {}),
        ...(role ? { role } : {}),
        account_type: "stash-basic",
      },
    };
  });
  mount(app, api.currentUser, async ({ principal }) => {
    const u = userOf(s, principal);
    return { id: u.id, name: u.name, email: u.email, type: u.type };
  });
  mount(app, api.welcome, async ({ principal }) => {
    const u = userOf(s, principal);
    const accounts = accountsOf(s, principal);
    return {
      preferences: { email: u.email, name: u.name, type: u.type },
      accounts: accounts.map((a) => a.slug),
      create: u.type === "ROOT",
      dependant_accounts: accounts.map((a) => ({ id: a.id, slug: a.slug })),
    };
  });
  mount(app, api.listPersonalTokens, async ({ principal }) => s.tokens.listPats(userOf(s, principal).id));
  mount(app, api.createPersonalToken, async ({ principal, body }) => {
    const u = userOf(s, principal);
    const account = body.account ? s.accounts.require(body.account).id : principal.account;
    if (principal.account !== undefined && account !== principal.account)
      throw badRequest("This token cannot reach that account");
    return s.tokens.createPat(u.id, { description: body.description, expires: body.expiration_date, account });
  });
  mount(app, api.deletePersonalToken, async ({ principal, params }) => {
    await s.tokens.deletePat(userOf(s, principal).id, params.token_id);
    return undefined;
  });
}
