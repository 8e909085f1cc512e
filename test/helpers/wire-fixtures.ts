/** Canned wire values for FakeDaemon tests: small, valid by the src/api schemas (the fake checks them). */
import type { FindParagraph, FindResponse } from "../../src/api/find.js";
import type { KbRecord } from "../../src/api/kbs.js";
import type { SyncConfig } from "../../src/api/sync.js";

export const KB_UUID = "0b5c9a1e2d3f4a5b6c7d8e9f0a1b2c3d";
export const RID = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
/** A second resource id. */
export const RID2 = "00112233445566778899aabbccddeeff";

/** A knowledge box record as GET /kb/:kbid and /kb/s/:slug answer it. */
export function kbRecord(slug: string, uuid = KB_UUID, title = slug): KbRecord {
  return {
    uuid,
    slug,
    config: {
      title,
      description: "",
      slug,
      state: "active",
      created: "2025-01-01T00:00:00Z",
      allowed_origins: [],
      allowed_ip_addresses: [],
      search_configs: {},
      enforce_security: false,
      hidden_resources_enabled: false,
      hidden_resources_hide_on_creation: false,
    },
    model: null,
  };
}

/** One found paragraph, ranked `order`. */
export function paragraph(id: string, text: string, order: number, score = 1.5): FindParagraph {
  return {
    score,
    score_type: "BM25",
    order,
    text,
    id,
    labels: [],
    position: { page_number: 0, index: order, start: 0, end: text.length, start_seconds: [], end_seconds: [] },
    fuzzy_result: false,
    page_with_visual: false,
    reference: null,
    is_a_table: false,
    relevant_relations: null,
  };
}

/** A find response with one resource whose text field holds `texts`, in rank order. */
export function findResponse(query: string, title: string, texts: string[], next_page = false): FindResponse {
  const paragraphs = Object.fromEntries(
    texts.map((t, i) => {
      const id = `${RID}/t/body/${i * 100}-${i * 100 + t.length}`;
      return [id, paragraph(id, t, i, 2 - i / 10)];
    }),
  );
  return {
    resources: { [RID]: { id: RID, slug: "fox", title, fields: { "/t/body": { paragraphs } } } },
    relations: null,
    query,
    rephrased_query: null,
    total: texts.length,
    page_number: 0,
    page_size: 20,
    next_page,
    nodes: null,
    shards: null,
    autofilters: [],
    min_score: { semantic: null, bm25: 0 },
    best_matches: Object.keys(paragraphs),
    metrics: null,
    search_after: null,
  };
}

/** A folder or sitemap sync configuration as GET /sync_configs lists it. */
export function syncConfig(id: string, name: string, provider: "local_folder" | "sitemap", root: string): SyncConfig {
  const at = "2025-01-01T00:00:00Z";
  return {
    id,
    name,
    kb_id: KB_UUID,
    created_at: at,
    updated_at: at,
    created_by: "local",
    sync_root_path: root,
    sync_interval_minutes: provider === "sitemap" ? 60 : null,
    external_connection: {
      id: `${id}-conn`,
      kb_id: KB_UUID,
      created_by: "local",
      created_at: at,
      updated_at: at,
      provider,
      capabilities: { has_sites: false, requires_site_search: false, requires_site_url_resolution: false },
    },
    drive_id: null,
    folder_id: null,
    file_filter: null,
    labels: [],
    modified_time_range: null,
    extract_strategy: null,
    sharepoint_site_pages_site_id: null,
    last_sync_run: provider === "sitemap" ? "2025-01-02T03:04:05Z" : null,
    ignore: [],
    css_selector: null,
    xpath: null,
  };
}
