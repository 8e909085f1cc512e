/** A knowledge box's record in the shapes of the wire's lists and of the management (account) API. */
import { LOCAL_ACCOUNT } from "../../src/api/accounts.js";
import type { KbDoc } from "../store/index.js";

/** An item of `GET /kbs`. */
export function listItem(kb: KbDoc) {
  return { slug: kb.slug, uuid: kb.uuid, title: kb.title };
}

/** The account form of a knowledge box record (`GET /account/{a}/kb/{kb}`). */
export function accountRecord(kb: KbDoc) {
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

/** An item of `GET /account/{a}/kbs`: the account record less a few members, with the caller's role. */
export function accountListItem(kb: KbDoc) {
  const { account_id: _a, created: _c, admin: _ad, contrib: _co, ...rest } = accountRecord(kb);
  return { ...rest, role_on_kb: "SOWNER" };
}
