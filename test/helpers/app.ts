import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { type AppOptions, createApp } from "../../daemon/http/app.js";
import type { ConnInfo, HttpEnv } from "../../daemon/http/auth.js";
import type { Log } from "../../daemon/lifecycle/logger.js";
import { createServices, type Services } from "../../daemon/services.js";
import { loadSettings } from "../../daemon/settings/index.js";
import type { KbRole } from "../../src/api/accounts.js";
import { VERSION } from "../../src/api/version.js";

/** How one portless request arrives: from the socket's owner (default), or over TCP with a key or the roles header. */
export interface RequestOptions {
  /** JSON-encoded unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
  /** A service-account token, sent as `X-NUCLIA-SERVICEACCOUNT: Bearer <key>` over TCP. */
  key?: string;
  /** `X-NUCLIADB-ROLES`, over loopback TCP (the app trusts it when started with trustRolesHeader). */
  roles?: string;
  /** Over TCP even without a key (default: TCP when a key or roles are given, else the Unix socket). */
  tcp?: boolean;
}

/** The daemon's app and services on a temp data dir, answering requests without a socket or a port. */
export interface PortlessApp {
  app: Hono<HttpEnv>;
  services: Services;
  /** What the daemon logged. */
  logs: string[];
  request(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  /** A new service account's key: on every knowledge box, or on one. */
  key(role: KbRole, kbid?: string): Promise<string>;
  close(): Promise<void>;
}

/** Build the services on a fresh data dir and the app over them, as Hono's own tests do (`app.request`). */
export async function startPortlessApp(opts: Partial<Omit<AppOptions, "log">> = {}): Promise<PortlessApp> {
  const home = mkdtempSync(join(tmpdir(), "kbox-app-"));
  const logs: string[] = [];
  const push = (msg: string) => void logs.push(msg);
  const log: Log = Object.assign(push, { debug: push, info: push, warn: push, error: push });
  // As a daemon with a TCP listener: private link targets refused, no model pulled on demand.
  const settings = loadSettings({ env: { KBOX_HOME: home, KBOX_MODELS_AUTOPULL: "0", KBOX_LINKS_ALLOW_PRIVATE: "0" } });
  const services = await createServices(settings, {
    version: VERSION,
    started: new Date().toISOString(),
    dataDir: settings.paths.data,
    listen: [],
    requestStop: () => undefined,
    log,
  });
  const app = createApp(services, { trustRolesHeader: false, ...opts, log });
  return {
    app,
    services,
    logs,
    request: (method, path, o = {}) => {
      const headers = new Headers(o.headers);
      const body = o.body === undefined || typeof o.body === "string" ? o.body : JSON.stringify(o.body);
      if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
      if (o.key !== undefined) headers.set("x-nuclia-serviceaccount", `Bearer ${o.key}`);
      if (o.roles !== undefined) headers.set("x-nucliadb-roles", o.roles);
      const tcp = o.tcp ?? (o.key !== undefined || o.roles !== undefined);
      const conn: ConnInfo = tcp ? { transport: "tcp", remoteAddress: "127.0.0.1" } : { transport: "unix" };
      return Promise.resolve(app.request(path, { method, headers, body: body as string | undefined }, { conn }));
    },
    key: async (role, kbid) => {
      const scope = kbid ?? null;
      const account = services.accounts.default.id;
      const { id } = await services.auth.create(account, scope, `${role} ${kbid ?? "*"}`, role);
      const expires = new Date(Date.now() + 86400e3).toISOString();
      return (await services.auth.createKey(account, scope, id, expires)).token;
    },
    close: async () => {
      await services.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
