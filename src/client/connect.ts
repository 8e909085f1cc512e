import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as daemonApi from "../api/daemon.js";
import type { KboxPaths } from "../api/paths.js";
import { PROTOCOL_VERSION } from "../api/version.js";
import { KboxClient } from "./client.js";
import { UnreachableError } from "./errors.js";

export interface ConnectOptions {
  /** Start a daemon when none answers (never for `status` and `stop`). */
  autostart: boolean;
  /** Told about a start or restart, for a status line on stderr. */
  notice?: (msg: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** How to run kboxd: the built script next to this file, or the TypeScript source under tsx. */
export function daemonCommand(env: NodeJS.ProcessEnv = process.env): { cmd: string; args: string[] } {
  if (env.KBOX_DAEMON_BIN) return { cmd: process.execPath, args: [env.KBOX_DAEMON_BIN] };
  const js = fileURLToPath(new URL("../../bin/kboxd.js", import.meta.url));
  if (existsSync(js)) return { cmd: process.execPath, args: [js] };
  const ts = fileURLToPath(new URL("../../bin/kboxd.ts", import.meta.url));
  return { cmd: process.execPath, args: ["--import", "tsx", ts] };
}

/** Start a detached daemon that outlives this process, with its output in the log dir. */
export function spawnDaemon(paths: KboxPaths, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): number | undefined {
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const out = openSync(join(paths.logs, "kboxd.out"), "a", 0o600);
  const { cmd, args } = daemonCommand(env);
  const child = spawn(cmd, [...args, ...extraArgs], { detached: true, stdio: ["ignore", out, out], env });
  child.unref();
  return child.pid;
}

/** The daemon's hello, or undefined when nothing answers on the socket. */
export async function hello(client: KboxClient): Promise<daemonApi.Hello | undefined> {
  try {
    return await client.call(daemonApi.hello, {});
  } catch (e) {
    if (e instanceof UnreachableError) return undefined;
    throw e;
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** Wait until the socket no longer answers. */
export async function waitGone(client: KboxClient, timeoutMs = 15_000): Promise<boolean> {
  const r = await waitFor(async () => ((await hello(client)) ? undefined : true), timeoutMs);
  return r === true;
}

/**
 * A client for the local daemon: says hello, starts a daemon when none answers (if allowed),
 * and restarts one whose protocol differs from ours.
 */
export async function connectLocal(paths: KboxPaths, opts: ConnectOptions): Promise<KboxClient> {
  const client = new KboxClient({ kind: "unix", socket: paths.socket });
  let h = await hello(client);
  if (h && h.protocol !== PROTOCOL_VERSION) {
    opts.notice?.(`restarting kboxd ${h.version} (protocol ${h.protocol}, this kbox speaks ${PROTOCOL_VERSION})`);
    await client.call(daemonApi.shutdown, {}).catch(() => undefined);
    await waitGone(client);
    h = undefined;
  }
  if (h) return client;
  if (!opts.autostart) throw new UnreachableError("kboxd is not running", "start it with `kbox daemon start`");
  opts.notice?.("starting kboxd…");
  spawnDaemon(paths, [], opts.env);
  h = await waitFor(() => hello(client), 20_000);
  if (!h) throw new UnreachableError("kboxd did not start", `see ${join(paths.logs, "kboxd.log")} and kboxd.out`);
  return client;
}
