/** A knowledge box's record in the shapes of the wire's lists and of the management (account) API. */
import type { KbDoc } from "../store/index.js";

/** An item of `GET /kbs`. */
export function listItem(kb: KbDoc) {
  return { slug: kb.slug, uuid: kb.uuid, title: kb.title };
}

/** Where a record is shown: its account, the zone, and the caller's role on it (null: none). */
export interface RecordContext {
  account: string;
  zone: string;
  role: "SOWNER" | "SCONTRIBUTOR" | "SMEMBER" | null;
}

/** The account form of a knowledge box record (`GET /account/{a}/kb/{kb}`). */
export function accountRecord(kb: KbDoc, ctx: RecordContext) {
  return {
    id: kb.uuid,
    slug: kb.slug,
    account_id: ctx.account,
    zone: ctx.zone,
    title: kb.title,
    description: kb.description,
    state: kb.state,
    created: kb.created,
    admin: ctx.role === "SOWNER",
    contrib: ctx.role === "SOWNER" || ctx.role === "SCONTRIBUTOR",
    allowed_origins: kb.allowed_origins,
    allowed_ip_addresses: kb.allowed_ip_addresses,
    search_configs: kb.search_configs,
    external_index_provider: null,
    enforce_security: kb.enforce_security,
  };
}

/** An item of `GET /account/{a}/kbs`: the account record less a few members, with the caller's role. */
export function accountListItem(kb: KbDoc, ctx: RecordContext, withSearchConfigs = true) {
  const { account_id: _a, created: _c, admin: _ad, contrib: _co, search_configs, ...rest } = accountRecord(kb, ctx);
  return { ...rest, ...(withSearchConfigs ? { search_configs } : {}), role_on_kb: ctx.role };
}
