import type { Hono } from "hono";
import * as api from "../../../src/api/tokens.js";
import { type Principal, rolesOn } from "../../auth/principal.js";
import type { MintRequest } from "../../auth/tokens.js";
import { forbidden, KboxError } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Ephemeral tokens read; they last 5 minutes unless asked otherwise. */
const EPHEMERAL_MINUTES = 5;

export function register(app: Hono<HttpEnv>, s: Services): void {
  /** The knowledge box a regional token route mints for: the key's own, or `kb` for account-level callers. */
  const target = (p: Principal, kb: string | undefined, sees: (kbid: string) => boolean) => {
    const ref = p.kbid ?? kb;
    if (!ref)
      throw new KboxError(422, [
        {
          type: "missing",
          loc: ["body", "kb"],
          msg: "Call with a knowledge-box key, or name the knowledge box in `kb`",
          input: null,
        },
      ]);
    const doc = /^[0-9a-f-]{36}$/i.test(ref) ? s.kbs.require(ref) : s.kbs.bySlug(ref);
    if (!sees(doc.uuid)) throw forbidden();
    return doc;
  };
  const mint = (p: Principal, kbid: string, req: Omit<MintRequest, "account" | "kbid" | "roles">, readOnly: boolean) => {
    const kb = s.kbs.require(kbid);
    const held = [...rolesOn(p, kb.uuid)];
    const roles = readOnly ? held.filter((r) => r === "READER") : held;
    if (!roles.length) throw forbidden();
    return s.tokens.mint(p, { ...req, account: s.accounts.accountOf(kb), kbid: kb.uuid, roles });
  };

  mount(app, api.kbEphemeralToken, async ({ params, body, principal }) => {
    const kb = s.accounts.kbIn(params.account, s.kbs.require(params.kb));
    return mint(
      principal,
      kb.uuid,
      { kind: "ephemeral", ttl: body?.ttl ?? EPHEMERAL_MINUTES, agentSession: body?.agent_session },
      true,
    );
  });
  mount(app, api.ephemeralToken, async ({ body, principal, sees }) => {
    const kb = target(principal, body.kb, sees);
    const req = {
      kind: "ephemeral" as const,
      ttl: body.ttl ?? EPHEMERAL_MINUTES,
      path: body.path,
      agentSession: body.agent_session,
    };
    return mint(principal, kb.uuid, req, true);
  });
  mount(app, api.agentKey, async ({ body, principal, sees }) => {
    const kb = target(principal, body.kb, sees);
    return mint(principal, kb.uuid, { kind: "agent", ttl: body.ttl, agentSession: body.agent_session }, false);
  });
  mount(app, api.temporalKey, async ({ body, principal, sees }) => {
    const kb = target(principal, body.kb, sees);
    return mint(principal, kb.uuid, { kind: "secure", ttl: body.ttl, groups: body.security_groups ?? [] }, false);
  });
}
