/**
 * The OAuth 2.0 authorization-code flow of the cloud providers (RFC 6749 §4.1): the authorize URL
 * answered at creation, the pending states the callback redeems, the code exchange and the refresh
 * grant. Token requests carry the application's client id and secret in the form body, which every
 * one of these providers accepts.
 */
import { randomBytes } from "node:crypto";
import type { Provider } from "../../../src/api/sync.js";
import { badRequest, KboxError } from "../../errors.js";
import { type FetchPolicy, guardedFetch } from "../../net/outbound.js";
import type { ApiCall, CloudSettings, ProviderEndpoints, Tokens } from "./types.js";

export const OAUTH_PROVIDERS = ["drive_oauth", "directory_oauth", "fileshare_oauth", "filebox_oauth"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
export const isOAuth = (p: Provider): p is OAuthProvider => (OAUTH_PROVIDERS as readonly string[]).includes(p);

const SETTING: Record<OAuthProvider, keyof Pick<CloudSettings, "drive" | "directory" | "fileshare" | "filebox">> = {
  drive_oauth: "drive",
  directory_oauth: "directory",
  fileshare_oauth: "fileshare",
  filebox_oauth: "filebox",
};

/** Each provider's documented authorize parameters: read-only scopes and offline access (a refresh token). */
const AUTHORIZE_EXTRA: Record<OAuthProvider, Record<string, string>> = {
  drive_oauth: { scope: "https://www.googleapis.com/auth/drive.readonly", access_type: "offline", prompt: "consent" },
  directory_oauth: { scope: "offline_access User.Read Files.Read.All Sites.Read.All", response_mode: "query" },
  fileshare_oauth: { token_access_type: "offline" },
  filebox_oauth: {},
};

export function endpointsOf(cloud: CloudSettings, p: OAuthProvider): ProviderEndpoints {
  return cloud[SETTING[p]];
}

/** A provider's answer that is not a success, as a 4xx saying what the provider said (never a 500). */
export class ProviderError extends KboxError {
  readonly code = "PROVIDER";
  constructor(what: string, status: number, body: string) {
    const msg = /"(?:error_description|error_summary|message)"\s*:\s*"([^"]{1,300})"/.exec(body)?.[1] ?? body.slice(0, 300);
    super(
      status === 401 || status === 403 ? 403 : status === 404 ? 404 : 400,
      `${what}: the provider answered ${status}: ${msg}`,
    );
  }
}

const STATE_TTL_MS = 15 * 60_000;

/** Pending authorizations by state (in memory: a daemon restarted before the callback needs a new authorize URL). */
export class OAuthFlows {
  private readonly pending = new Map<string, { kbid: string; provider: OAuthProvider; expires: number }>();

  constructor(
    private readonly cloud: CloudSettings,
    private readonly policy: FetchPolicy,
  ) {}

  /** The URL the user opens to authorize the provider's application for this box. */
  start(kbid: string, provider: OAuthProvider): { authorize_url: string } {
    const ep = endpointsOf(this.cloud, provider);
    const app = this.app(provider);
    if (!this.cloud.redirectUrl)
      throw badRequest(
        "No OAuth redirect URL: set KBOX_OAUTH_REDIRECT_URL (or KBOX_PUBLIC_URL, or run kboxd with --listen) to the URL the provider sends the browser back to",
      );
    const now = Date.now();
    for (const [s, p] of this.pending) if (p.expires < now) this.pending.delete(s);
    const state = randomBytes(24).toString("base64url");
    this.pending.set(state, { kbid, provider, expires: now + STATE_TTL_MS });
    const u = new URL(ep.authUrl);
    const q = {
      client_id: app.clientId,
      response_type: "code",
      redirect_uri: this.cloud.redirectUrl,
      state,
      ...AUTHORIZE_EXTRA[provider],
    };
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    return { authorize_url: u.toString() };
  }

  /** Redeem a callback's state (once): which box and provider it was for. */
  take(state: string): { kbid: string; provider: OAuthProvider } {
    const p = this.pending.get(state);
    this.pending.delete(state);
    if (!p || p.expires < Date.now())
      throw badRequest("Unknown or expired OAuth state: create the connection again to get a new authorize URL");
    return p;
  }

  /** The authorization code exchanged for tokens. */
  exchange(provider: OAuthProvider, code: string): Promise<Tokens> {
    return this.grant(provider, { grant_type: "authorization_code", code, redirect_uri: this.cloud.redirectUrl ?? "" });
  }

  /** New tokens from the refresh token (kept when the provider does not rotate it). */
  async refresh(provider: OAuthProvider, t: Tokens): Promise<Tokens> {
    if (!t.refresh_token) throw badRequest("The access token expired and the provider gave no refresh token: connect again");
    const next = await this.grant(provider, { grant_type: "refresh_token", refresh_token: t.refresh_token });
    return { ...next, refresh_token: next.refresh_token ?? t.refresh_token };
  }

  private app(provider: OAuthProvider) {
    const app = endpointsOf(this.cloud, provider).app;
    const v = SETTING[provider].toUpperCase();
    if (!app)
      throw badRequest(
        `kbox has no OAuth application for ${provider}: the daemon's owner sets KBOX_${v}_CLIENT_ID and KBOX_${v}_CLIENT_SECRET (an application registered with the provider, redirect URL ${this.cloud.redirectUrl ?? "KBOX_OAUTH_REDIRECT_URL"})`,
      );
    return app;
  }

  private async grant(provider: OAuthProvider, form: Record<string, string>): Promise<Tokens> {
    const app = this.app(provider);
    return tokenRequest(
      endpointsOf(this.cloud, provider).tokenUrl,
      { ...form, client_id: app.clientId, client_secret: app.clientSecret },
      this.policy,
    );
  }
}

/** POST a token request (form-encoded) and read the token response. */
export async function tokenRequest(url: string, form: Record<string, string>, policy: FetchPolicy): Promise<Tokens> {
  const res = await guardedFetch(
    url,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(30_000),
      maxRedirects: 0,
    },
    policy,
  );
  const text = await res.text();
  if (!res.ok) throw new ProviderError(`token request (${form.grant_type})`, res.status, text);
  const j = JSON.parse(text) as { access_token?: string; refresh_token?: string; expires_in?: number };
  if (!j.access_token) throw badRequest("token request: the provider's answer has no access_token");
  return {
    access_token: j.access_token,
    ...(j.refresh_token ? { refresh_token: j.refresh_token } : {}),
    ...(j.expires_in ? { expires_at: Date.now() + Number(j.expires_in) * 1000 } : {}),
  };
}

/** Renewed this long before the provider's expiry. */
const EARLY_MS = 60_000;

/**
 * Authenticated calls for one connection: the access token is renewed before it expires and after
 * a 401 (then the call is made once more); renewed tokens are handed to `save` (sealed into the
 * connection's record). Concurrent calls share one renewal.
 */
export class Session {
  private renewing?: Promise<void>;

  constructor(
    private tokens: Tokens,
    private readonly renew: (t: Tokens) => Promise<Tokens>,
    private readonly save: (t: Tokens) => Promise<void>,
    private readonly policy: FetchPolicy,
  ) {}

  private async renewNow(stale: string): Promise<void> {
    if (this.tokens.access_token !== stale) return;
    this.renewing ??= (async () => {
      this.tokens = await this.renew(this.tokens);
      await this.save(this.tokens);
    })().finally(() => {
      this.renewing = undefined;
    });
    await this.renewing;
  }

  readonly call: ApiCall = async (url, init = {}) => {
    if (this.tokens.expires_at && this.tokens.expires_at - EARLY_MS < Date.now()) await this.renewNow(this.tokens.access_token);
    const send = () =>
      guardedFetch(
        url,
        { ...init, headers: { ...init.headers, authorization: `Bearer ${this.tokens.access_token}` } },
        this.policy,
      );
    const used = this.tokens.access_token;
    const res = await send();
    if (res.status !== 401) return res;
    await res.body?.cancel().catch(() => undefined);
    await this.renewNow(used);
    return send();
  };
}

/** A JSON API answer, or a ProviderError saying what failed. */
export async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new ProviderError(what, res.status, text);
  return JSON.parse(text) as T;
}
