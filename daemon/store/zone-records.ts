/** Records of the zone: accounts, users and their memberships, invitations, personal tokens, NUA clients. */

export type AccountRole = "AOWNER" | "AMEMBER";
export type KbMemberRole = "SOWNER" | "SMEMBER" | "SCONTRIBUTOR";

export interface AccountDoc {
  id: string;
  slug: string;
  title: string;
  description: string;
  created: string;
  /** The account that existed first; standalone `/kbs` paths and unassigned knowledge boxes belong to it. */
  default?: boolean;
}

export interface UserDoc {
  id: string;
  email: string;
  name: string;
  created: string;
  /** ROOT: the owner of this machine (the Unix socket's user). */
  type: "ROOT" | "USER";
  accounts: Record<string, AccountRole>;
  kbs: Record<string, KbMemberRole>;
}

export interface InviteDoc {
  id: string;
  account_id: string;
  /** null: an invitation to the account. */
  kb_id: string | null;
  email: string;
  role: string;
  created: string;
  expires: string;
  /** SHA-256 of the acceptance token (hex). */
  hash: string;
}

export interface PatDoc {
  id: string;
  user_id: string;
  /** Limits the token to one account; undefined: every account of the user. */
  account_id?: string;
  description: string;
  created: string;
  expires: string;
  hash: string;
}

export interface NuaClientDoc {
  client_id: string;
  internal_id: string;
  account_id: string;
  title: string;
  description: string;
  contact: string;
  created: string;
  tokens_limit: number | null;
  allow_kb_management: boolean;
  processing_webhook: unknown;
  key: { id: string; hash: string; created: string };
}
