/**
 * The cloud providers' connections: the sealed secret of each (OAuth tokens, or a certificate and
 * its last app-only token), and the provider API a connection reaches with it. Renewed tokens are
 * sealed back into the connection's record.
 */
import type { Provider } from "../../../src/api/sync.js";
import { badRequest } from "../../errors.js";
import type { FetchPolicy } from "../../net/outbound.js";
import type { SecretBox } from "../secrets.js";
import type { StoredConnection } from "../store.js";
import { type CertificateSecret, certificateToken, parseCertificate } from "./certificate.js";
import { DirectoryApi } from "./directory.js";
import { DriveApi } from "./drive.js";
import { FileboxApi } from "./filebox.js";
import { FileshareApi } from "./fileshare.js";
import { isOAuth, OAuthFlows, Session } from "./oauth.js";
import type { CloudApi, CloudSettings, Tokens } from "./types.js";

export const CLOUD_PROVIDERS: ReadonlySet<Provider> = new Set([
  "drive_oauth",
  "directory_oauth",
  "fileshare_oauth",
  "filebox_oauth",
  "directory_certificate_credentials",
]);

/** Writes a connection's new sealed secret (the latest record, only that member changed). */
export type SaveSealed = (sealed: string) => Promise<void>;

export class CloudConnections {
  readonly flows: OAuthFlows;

  constructor(
    private readonly cloud: CloudSettings,
    private readonly policy: FetchPolicy,
    private readonly secrets: SecretBox,
  ) {
    this.flows = new OAuthFlows(cloud, policy);
  }

  /** A certificate connection's sealed secret, once a first token proved the registration works (else 4xx saying why). */
  async sealCertificate(credentials: unknown): Promise<string> {
    const s = parseCertificate(credentials);
    const tokens = await certificateToken(s, this.cloud.directory.loginUrl, this.cloud.directory.apiUrl, this.policy);
    return this.secrets.seal({ ...s, tokens });
  }

  /** The code of an OAuth callback exchanged; the sealed tokens of the new connection. */
  async sealCode(provider: Provider, code: string): Promise<string> {
    if (!isOAuth(provider)) throw badRequest(`${provider} has no OAuth flow`);
    return this.secrets.seal({ tokens: await this.flows.exchange(provider, code) });
  }

  /** The provider API of a connection. */
  api(conn: StoredConnection, save: SaveSealed): CloudApi {
    if (!conn.sealed_credentials) throw badRequest("This connection has no credentials: create it again");
    const p = conn.provider;
    const c = this.cloud;
    if (p === "directory_certificate_credentials") {
      const secret = this.secrets.open<CertificateSecret>(conn.sealed_credentials);
      const session = new Session(
        secret.tokens ?? { access_token: "", expires_at: 0 },
        () => certificateToken(secret, c.directory.loginUrl, c.directory.apiUrl, this.policy),
        (tokens) => save(this.secrets.seal({ ...secret, tokens })),
        this.policy,
      );
      return new DirectoryApi(c.directory.apiUrl, session.call, true);
    }
    if (!isOAuth(p)) throw badRequest(`${p} is not a cloud-storage provider`);
    const { tokens } = this.secrets.open<{ tokens: Tokens }>(conn.sealed_credentials);
    const session = new Session(
      tokens,
      (t) => this.flows.refresh(p, t),
      (t) => save(this.secrets.seal({ tokens: t })),
      this.policy,
    );
    if (p === "drive_oauth") return new DriveApi(c.drive.apiUrl, session.call);
    if (p === "directory_oauth") return new DirectoryApi(c.directory.apiUrl, session.call, false);
    if (p === "fileshare_oauth") return new FileshareApi(c.fileshare.apiUrl, c.fileshare.contentUrl, session.call);
    return new FileboxApi(c.filebox.apiUrl, session.call);
  }
}
