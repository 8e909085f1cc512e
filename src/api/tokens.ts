import { z } from "zod";
import { route } from "./route.js";

/**
 * Short-lived credentials: signed tokens whose `ttl` is in minutes (the spec bounds temporal keys to
 * 1..10 and defaults them to 10, which only reads sensibly as minutes: 10 seconds is too short for an
 * agent session, 10 hours too long for a token handed to a browser). A token dies with the key or
 * token that minted it.
 */

const Ttl = z.number().int().min(1).max(10);
const TokenOut = z.object({ token: z.string(), expires: z.string() });
/** kbox: the knowledge box a token is for, when the caller's credential is not a knowledge-box key. */
const KbRef = z.string().max(64).optional();

export const kbEphemeralToken = route({
  method: "POST",
  path: "/api/v1/account/:account/kb/:kb/ephemeral_tokens",
  params: z.object({ account: z.string(), kb: z.string() }),
  body: z.object({ agent_session: z.string().max(200).optional(), ttl: Ttl.optional() }).optional(),
  response: TokenOut,
  status: 201,
  role: "READER",
  summary: "An ephemeral read token for a knowledge box (minutes; default 5)",
});
export const ephemeralToken = route({
  method: "POST",
  path: "/api/v1/ephemeral_token",
  body: z.object({
    agent_session: z.string().max(200).optional(),
    path: z.string().startsWith("/api/").max(1000).optional(),
    ttl: Ttl.optional(),
    kb: KbRef,
  }),
  response: TokenOut,
  status: 201,
  scope: "authenticated",
  role: "READER",
  summary: "An ephemeral read token from the calling key (optionally for one path)",
});
export const agentKey = route({
  method: "POST",
  path: "/api/v1/service_account_agent_key",
  body: z.object({ agent_session: z.string().min(1).max(200), ttl: Ttl.default(10), kb: KbRef }),
  response: TokenOut,
  status: 201,
  scope: "authenticated",
  role: "READER",
  summary: "A temporal agent key: the calling key's roles, for one agent session",
});
export const temporalKey = route({
  method: "POST",
  path: "/api/v1/service_account_temporal_key",
  body: z.object({
    ttl: Ttl.default(10),
    security_groups: z.array(z.string().min(1).max(200)).max(100).optional(),
    kb: KbRef,
  }),
  response: TokenOut,
  status: 201,
  scope: "authenticated",
  role: "READER",
  summary: "A temporal secure token: find and ask with it see only its security groups",
});
