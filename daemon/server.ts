import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { KboxPaths } from "../src/api/paths.js";
import { VERSION } from "../src/api/version.js";
import { createApp } from "./http/app.js";
import type { ConnInfo } from "./http/auth.js";
import { createUpgrades } from "./http/upgrade.js";
import { acquirePidLock, releasePidLock } from "./lifecycle/lock.js";
import { createLogger } from "./lifecycle/logger.js";
import { createServices, type Services } from "./services.js";
import { applyNativeSettings, type DaemonOptions, loadSettings } from "./settings/index.js";

export type { DaemonOptions } from "./settings/index.js";

export interface RunningDaemon {
  paths: KboxPaths;
  services: Services;
  /** TCP address when listening on TCP. */
  tcp?: { host: string; port: number };
  /** Stop accepting, drain in-flight requests and queued work, remove socket and pid. */
  stop: () => Promise<void>;
  stopped: Promise<void>;
}

/**
 * Idle keep-alive connections stay open longer than clients keep them (Node's agent: 5 s), so a
 * client never sends on a socket the server is closing at that moment.
 */
function keepAlive(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
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

/**
 * Start kboxd: read its settings (a bad one stops it here, named), take the lock, open the store,
 * serve the socket (and TCP when asked).
 */
export async function startDaemon(opts: DaemonOptions = {}): Promise<RunningDaemon> {
  const settings = loadSettings(opts);
  const { paths, listen: tcpTarget } = settings;
  mkdirSync(paths.runtime, { recursive: true, mode: 0o700 });
  chmodSync(paths.runtime, 0o700);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  const log = createLogger(paths.logs, settings.foreground, settings.logLevel, settings.logRotateBytes);
  const lock = acquirePidLock(paths.pid);
  if (!lock.ok) throw new Error(`kboxd is already running (pid ${lock.pid})`);
  applyNativeSettings(settings);

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
  };
  let services: Services;
  try {
    services = await createServices(settings, info);
  } catch (e) {
    releasePidLock(paths.pid);
    throw e;
  }
  const app = createApp(services, { trustRolesHeader: settings.trustRolesHeader, log });
  const listener = (transport: ConnInfo["transport"]) =>
    getRequestListener((req, env) => {
      const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming;
      const conn: ConnInfo = { transport, remoteAddress: incoming?.socket?.remoteAddress };
      return app.fetch(req, { ...env, conn });
    });
  // WebSocket routes (the agent interaction socket) go through the same app.
  const upgrades = (transport: ConnInfo["transport"]) =>
    createUpgrades(
      (req, env) => app.fetch(req, env),
      (incoming) => ({ conn: { transport, remoteAddress: incoming.socket.remoteAddress } satisfies ConnInfo }),
    );
  const sockets: ReturnType<typeof createUpgrades>[] = [];
  const withUpgrades = (server: Server, transport: ConnInfo["transport"]): Server => {
    const u = upgrades(transport);
    sockets.push(u);
    server.on("upgrade", u.listener);
    return server;
  };

  async function stop(): Promise<void> {
    if (stopping) return stopping;
    stopping = (async () => {
      log("stopping: draining requests and queued work");
      const drained = Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      // MCP sessions hold a server stream open (GET) until they end: end them, or the drain never finishes.
      await services.mcp.close();
      for (const u of sockets) u.close();
      await services.agents.sockets.close();
      await drained;
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
    const unix = withUpgrades(keepAlive(createServer(listener("unix"))), "unix");
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
      const server = withUpgrades(keepAlive(createServer(listener("tcp"))), "tcp");
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
