import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { AddSyncConfig, BrowseQuery, Provider, SyncConfig, SyncJob, UpdateSyncConfig } from "../../src/api/sync.js";
import { badRequest, conflict, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { assertStrategies, type StrategyKind, type StrategyUser } from "../kbs/strategies.js";
import type { Log } from "../lifecycle/logger.js";
import type { ResourceService } from "../resources/service.js";
import { ConnectionService } from "./connections.js";
import { configBucket } from "./object-store.js";
import { type Caller, checkFolderRoot, checkSitemapRoot, type SyncSettings } from "./roots.js";
import { SyncRunner } from "./runner.js";
import { SecretBox } from "./secrets.js";
import { SyncRecords, type SyncTables } from "./store.js";

/** Sync configurations, connections, jobs and logs; the runner does the syncing. */
export class SyncService implements StrategyUser {
  private readonly records: SyncRecords;
  readonly conns: ConnectionService;
  readonly runner: SyncRunner;

  constructor(
    private readonly kbs: KbService,
    resources: ResourceService,
    private readonly settings: SyncSettings,
    log: Log,
  ) {
    this.records = new SyncRecords(kbs);
    const secrets = new SecretBox(join(settings.dataDir, "secrets", "sync-connections.key"));
    this.conns = new ConnectionService(this.records, secrets, settings, (kbid, id) => this.config(kbid, id));
    this.runner = new SyncRunner(
      this.records,
      kbs,
      resources,
      settings,
      log,
      (c) => this.conns.bucketOf(c),
      (c) => this.conns.cloudOf(c.kb_id, c.external_connection.id),
    );
    kbs.onArrive(async (kbid) => {
      await this.adoptRestored(kbid, log);
      await this.runner.startKb(kbid);
    });
    kbs.onDrop(async (kbid) => {
      await this.runner.dropKb(kbid);
      this.records.forget(kbid);
    });
  }

  /** The sync tables of a knowledge box (404 when it does not exist). */
  tablesOf(kbid: string): Promise<{ kbid: string; t: SyncTables }> {
    return this.records.of(kbid);
  }

  /** A sync configuration that uses an extract strategy (strategies are not deleted while one does). */
  async usingStrategy(kbid: string, kind: StrategyKind, id: string): Promise<string | undefined> {
    const c = kind === "extract" ? (await this.configs(kbid)).find((x) => x.extract_strategy === id) : undefined;
    return c ? `sync configuration ${c.name} (${c.id})` : undefined;
  }

  // External connections (connections.ts).
  createConnection(kbid: string, provider: Provider, credentials?: unknown) {
    return this.conns.createConnection(kbid, provider, credentials);
  }
  oauthCallback(q: Parameters<ConnectionService["oauthCallback"]>[0]) {
    return this.conns.oauthCallback(q);
  }
  connections(kbid: string) {
    return this.conns.connections(kbid);
  }
  connection(kbid: string, id: string) {
    return this.conns.connection(kbid, id);
  }
  browse(kbid: string, connectionId: string, q: BrowseQuery) {
    return this.conns.browse(kbid, connectionId, q);
  }
  resolveSite(kbid: string, connectionId: string, siteUrl?: string) {
    return this.conns.resolveSite(kbid, connectionId, siteUrl);
  }
  assumeRoleInfo(kbid: string) {
    return this.conns.assumeRoleInfo(kbid);
  }
  validateResources(kbid: string, configId: string, fileIds: string[]) {
    return this.conns.validateResources(kbid, configId, fileIds);
  }

  /** A new configuration; a folder root must be one the caller may sync (roots.ts). */
  async addConfig(kbid: string, body: AddSyncConfig, caller: Caller = { owner: false }): Promise<SyncConfig> {
    const { kbid: id, t } = await this.tablesOf(kbid);
    const conn = await this.connection(id, body.external_connection_id);
    const root = this.checkRoot(conn.provider, body.sync_root_path ?? null, caller);
    if (conn.provider === "object_store_assume_role") configBucket({ drive_id: body.drive_id ?? null });
    if (conn.provider === "fileshare_oauth" && body.drive_id)
      throw badRequest("fileshare_oauth has no drives and must not be given drive_id");
    await this.checkStrategy(id, body.extract_strategy);
    const now = new Date().toISOString();
    const config: SyncConfig = {
      id: randomUUID(),
      name: body.name,
      kb_id: id,
      created_at: now,
      updated_at: now,
      created_by: "local",
      sync_root_path: root,
      sync_interval_minutes: body.sync_interval_minutes ?? null,
      external_connection: conn,
      drive_id: body.drive_id ?? null,
      folder_id: body.folder_id ?? null,
      file_filter: body.file_filter ?? null,
      labels: body.labels ?? [],
      modified_time_range: body.modified_time_range ?? null,
      extract_strategy: body.extract_strategy ?? null,
      sharepoint_site_pages_site_id: body.sharepoint_site_pages_site_id ?? null,
      last_sync_run: null,
      ignore: body.ignore ?? [],
      css_selector: body.css_selector ?? null,
      xpath: body.xpath ?? null,
    };
    await t.configs.put(config.id, config);
    await this.runner.configChanged(id, config, true);
    return config;
  }

  async configs(kbid: string): Promise<SyncConfig[]> {
    return [...(await this.tablesOf(kbid)).t.configs.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async config(kbid: string, id: string): Promise<SyncConfig> {
    const c = (await this.tablesOf(kbid)).t.configs.get(id);
    if (!c) throw notFound("Sync configuration not found");
    return c;
  }

  async updateConfig(kbid: string, id: string, patch: UpdateSyncConfig, caller: Caller = { owner: false }): Promise<SyncConfig> {
    const { kbid: kb, t } = await this.tablesOf(kbid);
    const cur = await this.config(kb, id);
    // Enabling checks the root as creating does: a restored configuration may name any folder.
    if (patch.enabled && cur.enabled === false) this.checkRoot(cur.external_connection.provider, cur.sync_root_path, caller);
    await this.checkStrategy(kb, patch.extract_strategy);
    const next: SyncConfig = { ...cur, updated_at: new Date().toISOString() };
    for (const [k, v] of Object.entries(patch)) if (v !== null && v !== undefined) (next as Record<string, unknown>)[k] = v;
    await t.configs.put(id, next);
    await this.runner.configChanged(kb, next, false, patch.enabled === true && cur.enabled === false);
    return next;
  }

  /** 422 when a configuration names an extract strategy the knowledge box does not have. */
  private async checkStrategy(kbid: string, id: string | null | undefined): Promise<void> {
    if (id)
      await assertStrategies((await this.kbs.open(kbid)).store, [{ kind: "extract", id, loc: ["body", "extract_strategy"] }]);
  }

  async deleteConfig(kbid: string, id: string, deleteResources: boolean): Promise<void> {
    const { kbid: kb, t } = await this.tablesOf(kbid);
    await this.config(kb, id);
    await this.runner.configRemoved(kb, id, deleteResources);
    await t.configs.delete(id);
  }

  /** Queue a sync job; 409 while a triggered job of this config is pending or running. */
  async trigger(kbid: string, configId: string, full: boolean, trigger: SyncJob["trigger"] = "api"): Promise<SyncJob> {
    const { kbid: kb, t } = await this.tablesOf(kbid);
    const config = await this.config(kb, configId);
    if (config.enabled === false) throw conflict("This sync configuration is disabled: enable it first (enabled: true)");
    const active = [...t.jobs.values()].some(
      (j) => j.config_id === configId && j.trigger !== "watch" && (j.status === "pending" || j.status === "running"),
    );
    if (active && trigger !== "watch") throw conflict("A sync job is already pending or running for this configuration");
    return this.runner.enqueue(kb, config, { full, trigger });
  }

  async jobs(kbid: string, configId: string, q: { limit: number; cursor?: string; order: "asc" | "desc" }) {
    const { kbid: kb, t } = await this.tablesOf(kbid);
    await this.config(kb, configId);
    let jobs = [...t.jobs.values()].filter((j) => j.config_id === configId).sort((a, b) => a.seq - b.seq);
    if (q.order === "desc") jobs.reverse();
    if (q.cursor !== undefined) {
      const c = Number(q.cursor);
      if (!Number.isFinite(c)) throw badRequest("invalid cursor");
      jobs = jobs.filter((j) => (q.order === "desc" ? j.seq < c : j.seq > c));
    }
    const page = jobs.slice(0, q.limit);
    return {
      items: page.map(({ seq: _s, ...j }) => j),
      next_cursor: jobs.length > q.limit ? String(page[page.length - 1].seq) : null,
    };
  }

  async job(kbid: string, jobId: string): Promise<SyncJob> {
    const j = (await this.tablesOf(kbid)).t.jobs.get(jobId);
    if (!j) throw notFound("Sync job not found");
    const { seq: _s, ...job } = j;
    return job;
  }

  async logs(
    kbid: string,
    jobId: string,
    q: { limit: number; cursor?: number; level?: string; start_date?: string; end_date?: string; order: "asc" | "desc" },
  ) {
    const { t } = await this.tablesOf(kbid);
    if (!t.jobs.has(jobId)) throw notFound("Sync job not found");
    const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "EXCEPTION", "CRITICAL"];
    const min = q.level ? LEVELS.indexOf(q.level) : 0;
    const from = q.start_date ? Date.parse(q.start_date) : -Infinity;
    const to = q.end_date ? Date.parse(q.end_date) : Infinity;
    let items = [...(await t.logs.group(jobId)).values()]
      .filter((e) => LEVELS.indexOf(e.level) >= min && Date.parse(e.timestamp) >= from && Date.parse(e.timestamp) <= to)
      .sort((a, b) => a.id - b.id);
    if (q.order === "desc") items.reverse();
    if (q.cursor !== undefined) items = items.filter((e) => (q.order === "desc" ? e.id < q.cursor! : e.id > q.cursor!));
    const page = items.slice(0, q.limit);
    return { items: page, next_cursor: items.length > q.limit ? page[page.length - 1].id : null };
  }

  /**
   * Configurations that arrived with a restored or imported box belong to another box (their kb_id):
   * they become this box's, disabled, so that two boxes never sync one folder; enabling one checks its root.
   */
  private async adoptRestored(kbid: string, log: Log): Promise<void> {
    const { t } = await this.tablesOf(kbid);
    for (const c of [...t.configs.values()]) {
      if (c.kb_id === kbid) continue;
      await t.configs.put(c.id, {
        ...c,
        kb_id: kbid,
        enabled: false,
        external_connection: { ...c.external_connection, kb_id: kbid },
      });
      log(`sync configuration ${c.name} (${c.id}) of restored box ${kbid} is disabled; enable it to sync again`);
    }
    for (const c of [...t.connections.values()]) if (c.kb_id !== kbid) await t.connections.put(c.id, { ...c, kb_id: kbid });
  }

  private checkRoot(provider: Provider, root: string | null, caller: Caller): string | null {
    if (provider === "local_folder") return checkFolderRoot(root, this.settings, caller);
    if (provider === "sitemap") return checkSitemapRoot(root, this.settings);
    return root;
  }
}
