import type { Classification, FieldError, FieldType, ResourceStatus } from "../../src/api/common.js";
import type { LearningConfiguration } from "../../src/api/kbs.js";
import type { Origin } from "../../src/api/resources.js";

/** A knowledge box as stored. */
export interface KbDoc {
  uuid: string;
  slug: string;
  title: string;
  description: string;
  state: string;
  created: string;
  allowed_origins: string[];
  allowed_ip_addresses: string[];
  search_configs: Record<string, unknown>;
  enforce_security: boolean;
  hidden_resources_enabled: boolean;
  hidden_resources_hide_on_creation: boolean;
  learning_configuration: LearningConfiguration | null;
  /** The account it belongs to; absent on boxes made before accounts: the default account's. */
  account_id?: string;
  /** A retrieval agent (daemon/agents); absent: a knowledge box. */
  mode?: "agent" | "agent_no_memory";
}

/** What the resource record keeps about each of its fields (the value lives in the fields table). */
export interface FieldSummary {
  type: FieldType;
  id: string;
  status: ResourceStatus;
  error?: FieldError;
  /** Content hash of the value, to skip processing when nothing changed. */
  hash?: string;
  added: string;
  /** A PENDING field failing transiently (daemon/ingest/retry.ts): kept here so restarts keep its deadline. */
  retry?: { since: string; attempts: number; next: string };
}

/** A resource as stored; unset members are absent. */
export interface ResourceDoc {
  id: string;
  slug?: string;
  title?: string;
  /** The field (`f/file`, `u/link`) whose content gave the title (a page's <title>, a heading); cleared when a title is set. */
  titled_by?: string;
  summary?: string;
  icon?: string;
  thumbnail?: string;
  metadata: {
    status: ResourceStatus;
    metadata?: Record<string, string>;
    language?: string;
    languages?: string[];
  };
  usermetadata?: { classifications?: Classification[]; relations?: unknown[] };
  fieldmetadata?: unknown[];
  computedmetadata?: { field_classifications: unknown[] };
  origin?: Origin;
  extra?: { metadata: Record<string, unknown> };
  hidden?: boolean;
  security?: { access_groups: string[] };
  relations?: unknown[];
  /** Relations processing found, by field key (upstream Relation shape): served with `relations`. */
  field_relations?: Record<string, unknown[]>;
  created: string;
  modified: string;
  last_seqid: number;
  last_account_seq?: number;
  /**
   * When processing last committed a field other than a task's generated one (`t/da-*`): written in the
   * same record as the field statuses, so NEW-data tasks find hand-overs a kill left unjournalled.
   */
  processed_at?: string;
  queue: "private" | "shared";
  /** Keyed by `{letter}/{field_id}`. */
  fields: Record<string, FieldSummary>;
}

/** A field's value and processing output, stored apart from the resource record. */
export interface FieldDoc {
  rid: string;
  type: FieldType;
  id: string;
  /** The field value as the API serves it (file payloads replaced by a blob reference). */
  value: unknown;
  /**
   * Output of extraction, as `show=extracted` serves it: in the blob folder at `extracted_blob` (see
   * KbStore.writeExtracted; filled in here only by KbStore.loadExtracted), or inline in records
   * written before kbox kept it there.
   */
  extracted?: Record<string, unknown>;
  extracted_blob?: string;
  /** The MIME type extraction found (paragraph facets need it without reading the output). */
  mime?: string;
  errors?: FieldError[];
  /** Blob key of a file field's bytes. */
  blob?: string;
}

export interface ServiceAccountDoc {
  id: string;
  title: string;
  role: "SOWNER" | "SMEMBER" | "SCONTRIBUTOR";
  /** null: account-wide. */
  kb_id: string | null;
  /** The account it belongs to; absent on accounts made before accounts existed: the default account. */
  account_id?: string;
  created: string;
  keys: { id: string; created: string; expires: string; hash: string }[];
}

/** Every relation a resource carries: the user's (usermetadata, `relations`) once each, then those processing found. */
export function resourceRelations(r: ResourceDoc): unknown[] {
  const user = r.usermetadata?.relations ?? [];
  const extra = r.relations ?? [];
  let out: unknown[] = user;
  if (extra.length) {
    const seen = new Set(user.map((x) => JSON.stringify(x)));
    out = [...user, ...extra.filter((x) => !seen.has(JSON.stringify(x)))];
  }
  const found = r.field_relations ? Object.values(r.field_relations) : [];
  return found.length ? [...out, ...found.flat()] : out;
}
