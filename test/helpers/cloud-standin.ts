/**
 * A local stand-in (127.0.0.1) for the cloud providers' documented APIs: OAuth 2.0 authorize and
 * token endpoints (authorization code, refresh token, client credentials with a certificate-signed
 * JWT assertion) and the listing and download calls of a Drive-style, a Graph-style, a Dropbox-style
 * and a Box-style API over in-memory trees (cloud-apis.ts). Every listing answers PAGE items a page,
 * whatever the size asked (as the providers may), so that paging is exercised.
 */
import { createHash, createVerify, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleApi } from "./cloud-apis.js";
import { CloudTree } from "./cloud-tree.js";

export type StandinProvider = "google" | "ms" | "dropbox" | "box";
export const PAGE = 2;
export const CLIENT = { id: "kbox-test-client", secret: "kbox-test-secret" };

export interface Trees {
  google: CloudTree;
  msMe: CloudTree;
  msTeam: CloudTree;
  dropbox: CloudTree;
  box: CloudTree;
}

export interface Req {
  method: string;
  url: URL;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  provider?: StandinProvider;
}
export type Reply = { status: number; json?: unknown; text?: string; headers?: Record<string, string> };

export interface CloudStandin {
  url: string;
  /** The daemon variables that point every provider at this stand-in. */
  env: Record<string, string>;
  trees: Trees;
  /** Play the user who consents: open an authorize URL, return the code and state the browser is sent back with. */
  consent(authorizeUrl: string): Promise<{ code: string; state: string; redirect: string }>;
  /** Make every access token issued so far invalid (the next API call gets 401). */
  revokeAccessTokens(): void;
  /** Token grants by provider and grant type ("ms:refresh_token": 2). */
  grants: Map<string, number>;
  /** An application registration with a certificate (its PEM) for the client-credentials grant. */
  registerCertificate(tenant: string, clientId: string, certPem: string): void;
  close(): Promise<void>;
}

const b64urlJson = (s: string) => JSON.parse(Buffer.from(s, "base64url").toString("utf8"));

export async function startCloudStandin(): Promise<CloudStandin> {
  const trees: Trees = {
    google: new CloudTree("root", "g"),
    msMe: new CloudTree("root-me", "m"),
    msTeam: new CloudTree("root-team", "t"),
    dropbox: new CloudTree("", "id:d"),
    box: new CloudTree("0", "1"),
  };
  const codes = new Map<string, { provider: StandinProvider; redirect: string }>();
  const access = new Map<string, StandinProvider>();
  const refresh = new Map<string, StandinProvider>();
  const certs = new Map<string, string>();
  const grants = new Map<string, number>();
  let base = "";

  const issue = (provider: StandinProvider, withRefresh: boolean) => {
    const at = `at-${provider}-${randomBytes(8).toString("hex")}`;
    access.set(at, provider);
    const out: Record<string, unknown> = { access_token: at, token_type: "Bearer", expires_in: 3600 };
    if (withRefresh) {
      const rt = `rt-${provider}-${randomBytes(8).toString("hex")}`;
      refresh.set(rt, provider);
      out.refresh_token = rt;
    }
    return out;
  };
  const bad = (status: number, error: string, error_description: string): Reply => ({
    status,
    json: { error, error_description },
  });

  function authorize(provider: StandinProvider, r: Req): Reply {
    const q = r.url.searchParams;
    if (q.get("client_id") !== CLIENT.id) return bad(400, "invalid_client", "unknown client_id");
    if (q.get("response_type") !== "code") return bad(400, "unsupported_response_type", "response_type must be code");
    const redirect = q.get("redirect_uri");
    if (!redirect) return bad(400, "invalid_request", "redirect_uri missing");
    const code = `code-${randomBytes(8).toString("hex")}`;
    codes.set(code, { provider, redirect });
    const to = new URL(redirect);
    to.searchParams.set("code", code);
    to.searchParams.set("state", q.get("state") ?? "");
    return { status: 302, headers: { location: to.toString() } };
  }

  function verifyAssertion(tenant: string, form: URLSearchParams, tokenUrl: string): string | undefined {
    if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") return "assertion type";
    const [h, p, sig] = (form.get("client_assertion") ?? "").split(".");
    if (!sig) return "no assertion";
    const head = b64urlJson(h);
    const claims = b64urlJson(p);
    const pem = certs.get(`${tenant}/${form.get("client_id")}`);
    if (!pem) return "no certificate registered for this application";
    const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ""), "base64");
    if (head.alg !== "RS256" || head.x5t !== createHash("sha1").update(der).digest("base64url"))
      return "x5t does not match the certificate";
    if (!createVerify("RSA-SHA256").update(`${h}.${p}`).verify(pem, sig, "base64url")) return "bad signature";
    if (claims.aud !== tokenUrl || claims.iss !== form.get("client_id") || claims.sub !== claims.iss) return "bad claims";
    if (claims.exp * 1000 < Date.now()) return "expired assertion";
    return undefined;
  }

  function token(provider: StandinProvider, r: Req, tenant?: string): Reply {
    const form = new URLSearchParams(r.body);
    const grant = form.get("grant_type") ?? "";
    grants.set(`${provider}:${grant}`, (grants.get(`${provider}:${grant}`) ?? 0) + 1);
    if (grant === "client_credentials" && provider === "ms") {
      const why = verifyAssertion(tenant ?? "", form, `${base}${r.path}`);
      if (why) return bad(401, "invalid_client", `AADSTS700027: client assertion rejected: ${why}`);
      if (!form.get("scope")?.endsWith("/.default")) return bad(400, "invalid_scope", "scope must be <resource>/.default");
      return { status: 200, json: issue(provider, false) };
    }
    if (form.get("client_id") !== CLIENT.id || form.get("client_secret") !== CLIENT.secret)
      return bad(401, "invalid_client", "bad client credentials");
    if (grant === "authorization_code") {
      const c = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      if (!c || c.provider !== provider) return bad(400, "invalid_grant", "unknown or used code");
      if (c.redirect !== form.get("redirect_uri")) return bad(400, "invalid_grant", "redirect_uri does not match");
      return { status: 200, json: issue(provider, true) };
    }
    if (grant === "refresh_token") {
      const rt = form.get("refresh_token") ?? "";
      if (refresh.get(rt) !== provider) return bad(400, "invalid_grant", "unknown refresh token");
      // Graph rotates refresh tokens; the others keep theirs.
      if (provider === "ms") refresh.delete(rt);
      return { status: 200, json: issue(provider, provider === "ms") };
    }
    return bad(400, "unsupported_grant_type", grant);
  }

  function route(r: Req): Reply {
    const p = r.path;
    if (p === "/google/auth") return authorize("google", r);
    if (p === "/google/token" && r.method === "POST") return token("google", r);
    if (/^\/ms\/([^/]+)\/oauth2\/v2\.0\/authorize$/.test(p)) return authorize("ms", r);
    const msToken = /^\/ms\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(p);
    if (msToken && r.method === "POST") return token("ms", r, msToken[1]);
    if (p === "/dropbox/oauth2/authorize") return authorize("dropbox", r);
    if (p === "/dropbox/oauth2/token" && r.method === "POST") return token("dropbox", r);
    if (p === "/box/authorize") return authorize("box", r);
    if (p === "/box/oauth2/token" && r.method === "POST") return token("box", r);
    if (/^\/(graph-dl|box-dl)\//.test(p)) return handleApi(r, trees, base);
    const provider = p.startsWith("/google/drive/")
      ? "google"
      : p.startsWith("/graph/")
        ? "ms"
        : p.startsWith("/dropbox/2/") || p.startsWith("/dropbox-content/")
          ? "dropbox"
          : p.startsWith("/box/2.0/")
            ? "box"
            : undefined;
    if (!provider) return { status: 404, json: { error: "not_found" } };
    const at = /^Bearer (.+)$/.exec(r.headers.authorization ?? "")?.[1];
    if (!at || access.get(at) !== provider)
      return { status: 401, json: { error: "invalid_token", message: "expired or unknown access token" } };
    return handleApi({ ...r, provider }, trees, base);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      let out: Reply;
      try {
        out = route({
          method: req.method ?? "GET",
          url,
          path: url.pathname,
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      } catch (e) {
        out = { status: 400, json: { error: "bad_request", message: (e as Error).message } };
      }
      const body = out.json !== undefined ? JSON.stringify(out.json) : (out.text ?? "");
      res.writeHead(out.status, {
        "content-type": out.json !== undefined ? "application/json" : "application/octet-stream",
        ...out.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    trees,
    grants,
    env: {
      KBOX_DRIVE_CLIENT_ID: CLIENT.id,
      KBOX_DRIVE_CLIENT_SECRET: CLIENT.secret,
      KBOX_DRIVE_AUTH_URL: `${base}/google/auth`,
      KBOX_DRIVE_TOKEN_URL: `${base}/google/token`,
      KBOX_DRIVE_API_URL: `${base}/google/drive/v3`,
      KBOX_DIRECTORY_CLIENT_ID: CLIENT.id,
      KBOX_DIRECTORY_CLIENT_SECRET: CLIENT.secret,
      KBOX_DIRECTORY_LOGIN_URL: `${base}/ms`,
      KBOX_DIRECTORY_API_URL: `${base}/graph/v1.0`,
      KBOX_FILESHARE_CLIENT_ID: CLIENT.id,
      KBOX_FILESHARE_CLIENT_SECRET: CLIENT.secret,
      KBOX_FILESHARE_AUTH_URL: `${base}/dropbox/oauth2/authorize`,
      KBOX_FILESHARE_TOKEN_URL: `${base}/dropbox/oauth2/token`,
      KBOX_FILESHARE_API_URL: `${base}/dropbox/2`,
      KBOX_FILESHARE_CONTENT_URL: `${base}/dropbox-content/2`,
      KBOX_FILEBOX_CLIENT_ID: CLIENT.id,
      KBOX_FILEBOX_CLIENT_SECRET: CLIENT.secret,
      KBOX_FILEBOX_AUTH_URL: `${base}/box/authorize`,
      KBOX_FILEBOX_TOKEN_URL: `${base}/box/oauth2/token`,
      KBOX_FILEBOX_API_URL: `${base}/box/2.0`,
    },
    async consent(authorizeUrl) {
      const res = await fetch(authorizeUrl, { redirect: "manual" });
      const loc = res.headers.get("location");
      if (res.status !== 302 || !loc) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
      const u = new URL(loc);
      return { code: u.searchParams.get("code")!, state: u.searchParams.get("state")!, redirect: `${u.origin}${u.pathname}` };
    },
    revokeAccessTokens: () => access.clear(),
    registerCertificate: (tenant, clientId, certPem) => certs.set(`${tenant}/${clientId}`, certPem),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
