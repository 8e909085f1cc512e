import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir, userInfo } from "node:os";
import { getRequestListener } from "@hono/node-server";
import { type KboxPaths, kboxPaths } from "../src/api/paths.js";
import { VERSION } from "../src/api/version.js";
import { createApp } from "./http/app.js";
import type { ConnInfo } from "./http/auth.js";
import { acquirePidLock, releasePidLock } from "./lifecycle/lock.js";
import { createLogger } from "./lifecycle/logger.js";
import { createServices, type Services } from "./services.js";

export interface DaemonOptions {
  env?: NodeJS.ProcessEnv;
  /** `host:port` or `port` for the optional TCP listener (loopback when no host is given). */
  listen?: string;
  trustRolesHeader?: boolean;
  foreground?: boolean;
}

export interface RunningDaemon {
  paths: KboxPaths;
  services: Services;
  /** TCP address when listening on TCP. */
  tcp?: { host: string; port: number };
  /** Stop accepting, drain in-flight requests and queued work, remove socket and pid. */
  stop: () => Promise<void>;
  stopped: Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * Idle keep-alive connections stay open longer than clients keep them (Node's agent: 5 s), so a
 * client never sends on a socket the server is closing at that moment.
 */
function keepAlive(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

export function parseListen(spec: string): { host: string; port: number } {
  const m = /^(?:\[?([^\]]*?)\]?:)?(\d+)$/.exec(spec.trim());
  if (!m) throw new Error(`--listen wants host:port or port, got ${JSON.stringify(spec)}`);
  const port = Number(m[2]);
  if (port > 65535) throw new Error(`port out of range: ${port}`);
  return { host: m[1] || "127.0.0.1", port };
}

function listen(server: Server, target: string | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    const done = () => {
      server.off("error", reject);
      resolve();
    };
    if (typeof target === "string") server.listen(target, done);
    else server.listen(target.port, target.host, done);
  });
}

/** Start kboxd: take the lock, open the store, serve the socket (and TCP when asked). */
export async function startDaemon(opts: DaemonOptions = {}): Promise<RunningDaemon> {
  const paths = kboxPaths(opts.env ?? process.env, {
    home: homedir(),
    tmp: tmpdir(),
    uid: process.getuid?.() ?? userInfo().username,
  });
  mkdirSync(paths.runtime, { recursive: true, mode: 0o700 });
  chmodSync(paths.runtime, 0o700);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  const log = createLogger(paths.logs, opts.foreground ?? false);
  const lock = acquirePidLock(paths.pid);
  if (!lock.ok) throw new Error(`kboxd is already running (pid ${lock.pid})`);
  const tcpTarget = opts.listen ? parseListen(opts.listen) : undefined;
  if (opts.trustRolesHeader && tcpTarget && !LOOPBACK_HOSTS.has(tcpTarget.host)) {
    releasePidLock(paths.pid);
    throw new Error("--trust-roles-header is allowed only on a loopback listener");
  }

  let stopResolve!: () => void;
  const stopped = new Promise<void>((r) => {
    stopResolve = r;
  });
  let stopping: Promise<void> | undefined;
  const servers: Server[] = [];
  const info = {
    version: VERSION,
    started: new Date().toISOString(),
    dataDir: paths.data,
    listen: [] as string[],
    requestStop: () => void stop(),
    log,
    env: opts.env ?? process.env,
    tcp: Boolean(tcpTarget),
  };
  let services: Services;
  try {
    services = await createServices(info);
  } catch (e) {
    releasePidLock(paths.pid);
    throw e;
  }
  const app = createApp(services, { trustRolesHeader: opts.trustRolesHeader ?? false, log });
  const listener = (transport: ConnInfo["transport"]) =>
    getRequestListener((req, env) => {
      const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming;
      const conn: ConnInfo = { transport, remoteAddress: incoming?.socket?.remoteAddress };
      return app.fetch(req, { ...env, conn });
    });

  async function stop(): Promise<void> {
    if (stopping) return stopping;
    stopping = (async () => {
      log("stopping: draining requests and queued work");
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      await services.close();
      rmSync(paths.socket, { force: true });
      releasePidLock(paths.pid);
      log("stopped");
      stopResolve();
    })();
    return stopping;
  }

  try {
    rmSync(paths.socket, { force: true }); // a stale socket from a killed daemon; we hold the lock
    const unix = keepAlive(createServer(listener("unix")));
    const umask = process.umask(0o177);
    try {
      await listen(unix, paths.socket);
    } finally {
      process.umask(umask);
    }
    chmodSync(paths.socket, 0o600);
    servers.push(unix);
    info.listen.push(`unix:${paths.socket}`);
    let tcp: RunningDaemon["tcp"];
    if (tcpTarget) {
      const server = keepAlive(createServer(listener("tcp")));
      await listen(server, tcpTarget);
      const addr = server.address() as AddressInfo;
      tcp = { host: tcpTarget.host, port: addr.port };
      servers.push(server);
      info.listen.push(`http://${tcpTarget.host.includes(":") ? `[${tcpTarget.host}]` : tcpTarget.host}:${addr.port}`);
    }
    log(`kboxd ${VERSION} pid ${process.pid} listening on ${info.listen.join(", ")}`);
    return { paths, services, tcp, stop, stopped };
  } catch (e) {
    await stop();
    throw e;
  }
}
