import type { Role } from "../../src/api/route.js";
import type { KbMemberRole } from "../store/index.js";

/**
 * Who is calling, as every route's scope check sees it: the socket owner, a service-account key
 * (account-wide or one knowledge box), a user (personal access token), a NUA key, or a short-lived
 * token minted by one of those.
 */
export interface Principal {
  /** Local roles granted on every knowledge box it may touch. */
  roles: ReadonlySet<Role>;
  /** Only this knowledge box (a KB key, a token). */
  kbid?: string;
  /** Only this account (id); undefined: every account (the socket owner). */
  account?: string;
  /** A user's roles on single knowledge boxes, on top of `roles` (account members). */
  kbRoles?: Readonly<Record<string, KbMemberRole>>;
  via: "socket" | "key" | "roles-header" | "anonymous" | "user" | "token" | "nua";
  /** The user it acts for (socket owner: the ROOT user; a personal access token: its user). */
  user?: string;
  /** The credential it presented (`sa:<key>`, `pat:<id>`, `nua:<client>`, `socket`): what minted tokens hang on. */
  credential?: string;
  /** A secure token: find and ask see only resources of these groups (or none). */
  securityGroups?: string[];
  /** An ephemeral token for a path: requests outside it are refused. */
  path?: string;
  /** An ephemeral token for one retrieval-agent session: only that session's routes (…/session/{id}/…). */
  agentSession?: string;
  /** A NUA key without `allow_kb_management`: only the understanding API. */
  nuaOnly?: boolean;
}

export const OWNER: Principal = {
  roles: new Set(["READER", "WRITER", "MANAGER", "OWNER"]),
  via: "socket",
  credential: "socket",
};
/** The caller of a public route: no roles, never authenticated. */
export const ANONYMOUS: Principal = { roles: new Set(), via: "anonymous" };

/** What each knowledge-box role may do, in local roles. */
export const GRANTS: Record<KbMemberRole, readonly Role[]> = {
  SOWNER: ["READER", "WRITER", "MANAGER", "OWNER"],
  SCONTRIBUTOR: ["READER", "WRITER"],
  SMEMBER: ["READER"],
};

/** The roles a principal holds on one knowledge box (its own roles plus a membership there). */
export function rolesOn(p: Principal, kbid: string | undefined): ReadonlySet<Role> {
  const member = kbid && p.kbRoles?.[kbid.toLowerCase()];
  if (!member) return p.roles;
  return new Set([...p.roles, ...GRANTS[member]]);
}

/** The knowledge-box role name of a set of local roles (authorizer info, `role_on_kb`). */
export function kbRoleName(roles: ReadonlySet<Role>): KbMemberRole | null {
  if (roles.has("OWNER") || roles.has("MANAGER")) return "SOWNER";
  if (roles.has("WRITER")) return "SCONTRIBUTOR";
  if (roles.has("READER")) return "SMEMBER";
  return null;
}
