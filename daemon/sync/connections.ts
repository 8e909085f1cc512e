import { createHash, randomUUID } from "node:crypto";
import type { BrowseQuery, BrowseResult, ExternalConnection, Provider, SyncConfig } from "../../src/api/sync.js";
import { badRequest, invalid, notFound } from "../errors.js";
import { CLOUD_PROVIDERS, CloudConnections } from "./cloud/connect.js";
import { isOAuth } from "./cloud/oauth.js";
import { validateCloud } from "./cloud/sync.js";
import {
  browseObjects,
  configBucket,
  type ObjectCredentials,
  openBucket,
  parseObjectCredentials,
  validateObjects,
} from "./object-store.js";
import type { SyncSettings } from "./roots.js";
import type { SecretBox } from "./secrets.js";
import type { StoredConnection, SyncRecords } from "./store.js";

const CAPABILITIES = { has_sites: false, requires_site_search: false, requires_site_url_resolution: false };
/** Site-based providers: OAuth ones resolve a site URL (or me), the certificate one searches sites. */
const SITE_CAPS: Partial<Record<Provider, typeof CAPABILITIES>> = {
  directory_oauth: { has_sites: true, requires_site_search: false, requires_site_url_resolution: true },
  directory_certificate_credentials: { has_sites: true, requires_site_search: true, requires_site_url_resolution: false },
};

/** The wire form of a connection: never its sealed credentials. */
const wire = ({ sealed_credentials: _s, ...c }: StoredConnection): ExternalConnection => c;

/**
 * External connections: creating them (OAuth flows, certificates, object-store credentials, all
 * sealed), and what reaches their storage (Browse, Resolve Site, Validate Resources, the runner's
 * bucket or provider API).
 */
export class ConnectionService {
  private readonly cloud: CloudConnections;

  constructor(
    private readonly records: SyncRecords,
    private readonly secrets: SecretBox,
    private readonly settings: SyncSettings,
    /** A box's sync configuration (404 when missing). */
    private readonly configOf: (kbid: string, id: string) => Promise<SyncConfig>,
  ) {
    this.cloud = new CloudConnections(settings.cloud, settings.fetch, secrets);
  }

  /**
   * A new connection. OAuth providers answer {authorize_url} (the connection is made by the callback
   * once the user authorized); the certificate provider proves its registration with a first token.
   */
  async createConnection(
    kbid: string,
    provider: Provider,
    credentials?: unknown,
  ): Promise<ExternalConnection | { authorize_url: string }> {
    const { kbid: id } = await this.records.of(kbid);
    if (isOAuth(provider)) return this.cloud.flows.start(id, provider);
    const sealed =
      provider === "object_store_assume_role"
        ? this.secrets.seal(parseObjectCredentials(credentials))
        : provider === "directory_certificate_credentials"
          ? await this.cloud.sealCertificate(credentials)
          : undefined;
    return this.store(id, provider, sealed);
  }

  /** The OAuth callback: the state names the box and provider, the code becomes the connection's sealed tokens. */
  async oauthCallback(q: { state?: string; code?: string; error?: string; error_description?: string }) {
    if (!q.state) throw invalid([{ type: "missing", loc: ["query", "state"], msg: "Field required", input: null }]);
    const { kbid, provider } = this.cloud.flows.take(q.state);
    if (q.error)
      throw badRequest(
        `The provider did not authorize ${provider}: ${q.error}${q.error_description ? ` (${q.error_description})` : ""}`,
      );
    if (!q.code) throw invalid([{ type: "missing", loc: ["query", "code"], msg: "Field required", input: null }]);
    return this.store(kbid, provider, await this.cloud.sealCode(provider, q.code));
  }

  private async store(kbid: string, provider: Provider, sealed?: string): Promise<ExternalConnection> {
    const { kbid: id, t } = await this.records.of(kbid);
    const now = new Date().toISOString();
    const conn: StoredConnection = {
      id: randomUUID(),
      kb_id: id,
      created_by: "local",
      created_at: now,
      updated_at: now,
      provider,
      capabilities: SITE_CAPS[provider] ?? CAPABILITIES,
      ...(sealed ? { sealed_credentials: sealed } : {}),
    };
    await t.connections.put(conn.id, conn);
    return wire(conn);
  }

  /** The provider API of a cloud connection; renewed tokens are sealed back into its record. */
  async cloudOf(kbid: string, connectionId: string) {
    const c = await this.stored(kbid, connectionId);
    return this.cloud.api(c, async (sealed) => {
      const { t } = await this.records.of(kbid);
      const latest = t.connections.get(connectionId);
      if (latest)
        await t.connections.put(connectionId, { ...latest, sealed_credentials: sealed, updated_at: new Date().toISOString() });
    });
  }

  async connections(kbid: string): Promise<ExternalConnection[]> {
    return [...(await this.records.of(kbid)).t.connections.values()]
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map(wire);
  }

  async connection(kbid: string, id: string): Promise<ExternalConnection> {
    return wire(await this.stored(kbid, id));
  }

  async stored(kbid: string, id: string): Promise<StoredConnection> {
    const c = (await this.records.of(kbid)).t.connections.get(id);
    if (!c) throw notFound("External connection not found");
    return c;
  }

  /** The bucket client of an object-store connection (its credentials unsealed). */
  async bucketOf(config: SyncConfig, bucket = configBucket(config)) {
    const c = await this.stored(config.kb_id, config.external_connection.id);
    if (!c.sealed_credentials) throw badRequest("This connection has no credentials: create it again with credentials");
    return openBucket(this.secrets.open<ObjectCredentials>(c.sealed_credentials), bucket, this.settings.fetch, {
      externalId: (await this.assumeRoleInfo(config.kb_id)).external_id,
      cloud: this.settings.cloud,
    });
  }

  /** Browse Storage (the object-store provider: drive_id is the bucket, path or folder_id a prefix). */
  async browse(kbid: string, connectionId: string, q: BrowseQuery): Promise<BrowseResult> {
    const c = await this.stored(kbid, connectionId);
    if (q.path && q.folder_id) throw badRequest("path and folder_id cannot be combined");
    if (q.site_search && (q.site_id || q.drive_id || q.path))
      throw badRequest("site_search cannot be combined with site_id, drive_id or path");
    if (CLOUD_PROVIDERS.has(c.provider)) return (await this.cloudOf(kbid, connectionId)).browse(q);
    if (c.provider !== "object_store_assume_role")
      throw badRequest(`Browse Storage is for cloud-storage connections; ${c.provider} has nothing to browse`);
    if (q.site_search || q.site_id)
      throw badRequest("site_search and site_id are for site-based providers, not the object store");
    if (!q.drive_id)
      throw badRequest("The object-store provider requires drive_id (the bucket name): bucket listing is unsupported");
    const bucket = await this.bucketOf({ kb_id: c.kb_id, external_connection: c } as SyncConfig, q.drive_id);
    return browseObjects(bucket, q.path ?? q.folder_id ?? "", q.page_token ?? undefined);
  }

  /** Resolve Site: site-based OAuth connections (me or onedrive: the personal drive); unsupported for certificates. */
  async resolveSite(kbid: string, connectionId: string, siteUrl?: string) {
    const c = await this.stored(kbid, connectionId);
    if (!siteUrl) throw invalid([{ type: "missing", loc: ["query", "site_url"], msg: "Field required", input: null }]);
    if (c.provider === "directory_certificate_credentials")
      throw badRequest("Resolve Site is unsupported for certificate connections: browse with site_search");
    if (c.provider !== "directory_oauth")
      throw badRequest(`Resolve Site is for site-based providers; ${c.provider} has no sites`);
    const api = await this.cloudOf(kbid, connectionId);
    return api.resolveSite!(siteUrl);
  }

  /** What a bucket owner trusts for the assume-role provider: this box's external id, stable per box. */
  async assumeRoleInfo(kbid: string) {
    const { kbid: id } = await this.records.of(kbid);
    const external_id = createHash("sha256").update(`kbox-assume-role:${id}`).digest("hex").slice(0, 32);
    return { external_id, role_name: "kbox-sync", cloud_account_id: null };
  }

  /** Validate Resources: which file ids exist under the configuration's bucket and prefix and pass its filters. */
  async validateResources(kbid: string, configId: string, fileIds: string[]) {
    const config = await this.configOf(kbid, configId);
    if (CLOUD_PROVIDERS.has(config.external_connection.provider))
      return validateCloud(config, await this.cloudOf(config.kb_id, config.external_connection.id), fileIds);
    if (config.external_connection.provider !== "object_store_assume_role")
      throw badRequest(`Validate Resources is for cloud-storage configurations, not ${config.external_connection.provider}`);
    return validateObjects(config, await this.bucketOf(config), fileIds);
  }
}
