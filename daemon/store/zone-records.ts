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
  /** The account's implicit client of callers without a NUA key (socket owner, account keys). */
  local?: boolean;
}

/** A request to the understanding API's processing: where its data went (the client's internal box) and how it went. */
export interface NuaRequestDoc {
  processing_id: string;
  client_id: string;
  account_id: string;
  /** The internal knowledge box and the resource the data became. */
  box: string;
  rid: string;
  /** The caller's own label (its knowledge box), as sent. */
  kbid: string | null;
  title: string | null;
  labels: string[];
  seq: number;
  timestamp: string;
  scheduled_at: string | null;
  completed_at: string | null;
  failed: boolean;
  retries: number;
  /** The push payload (file tokens, not bytes). */
  request: unknown;
  webhook: { uri: string; headers: Record<string, string>; secret?: string } | null;
  /** `pending`: a delivery is under way (the durable outbox: a restart finds it and sends it again). */
  webhook_state?: { attempts: number; delivered: boolean; last_status?: number; last_error?: string; pending?: boolean };
  pulled?: boolean;
}

/** Tokens a NUA client used, by kind (predict, chat, processing): checked against its tokens_limit. */
export interface NuaUsageDoc {
  client_id: string;
  tokens_used: number;
  by_kind: Record<string, number>;
  requests: number;
}

/** An account's model configuration record (`/default_models`): a model and its keys and prompts, applied to boxes. */
export interface ModelConfigDoc {
  id: string;
  account_id: string;
  default_model_id: string;
  description: string | null;
  /** 0 none (bedrock roles are not served by kbox). */
  assume_role: number;
  kbids: string[];
  user_keys: Record<string, unknown> | null;
  user_prompts: Record<string, unknown> | null;
  created: string;
}
