import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KboxPaths } from "../api/paths.js";
import { KboxClient } from "./client.js";
import { UnreachableError } from "./errors.js";
import * as daemonApi from "./routes/daemon.js";
import { PROTOCOL_VERSION } from "./routes/version.js";
import { httpTransport, type Target, type Transport } from "./transport.js";

export interface ConnectOptions {
  /** Start a daemon when none answers (never for `status` and `stop`). */
  autostart: boolean;
  /** Told about a start or restart, for a status line on stderr. */
  notice?: (msg: string) => void;
  /** The environment a started daemon inherits (the CLI's, as its env module read it). */
  env: NodeJS.ProcessEnv;
  /** How requests travel (default node:http; tests pass a fake). */
  transport?: (target: Target) => Transport;
}

/**
 * Node's flags for kboxd: a young generation of 32 MB semi-spaces (V8's default is 16). Ingestion
 * keeps each document's objects alive across a few commits, so with 16 MB most of them survived a
 * scavenge or two and were copied; at 32 the daemon spent about 7 % less CPU adding 10,000 notes
 * for about 30 MB more at the peak (bench/add.ts). Yours in NODE_OPTIONS win.
 */
export function daemonNodeFlags(env: NodeJS.ProcessEnv): string[] {
  return env.NODE_OPTIONS?.includes("--max-semi-space-size") ? [] : ["--max-semi-space-size=32"];
}

/** How to run kboxd: the built script next to this file, or the TypeScript source under tsx. */
export function daemonCommand(env: NodeJS.ProcessEnv): { cmd: string; args: string[] } {
  const flags = daemonNodeFlags(env);
  if (env.KBOX_DAEMON_BIN) return { cmd: process.execPath, args: [...flags, env.KBOX_DAEMON_BIN] };
  const js = fileURLToPath(new URL("../../bin/kboxd.js", import.meta.url));
  if (existsSync(js)) return { cmd: process.execPath, args: [...flags, js] };
  const ts = fileURLToPath(new URL("../../bin/kboxd.ts", import.meta.url));
  return { cmd: process.execPath, args: [...flags, "--import", "tsx", ts] };
}

/** Where Linux distributions put jemalloc (Debian/Ubuntu: the libjemalloc2 package). */
const JEMALLOC = [
  "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
  "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
  "/usr/lib64/libjemalloc.so.2",
  "/usr/lib/libjemalloc.so.2",
];

/** The system's jemalloc, if it has one. */
export function jemallocPath(): string | undefined {
  return JEMALLOC.find((p) => existsSync(p));
}

/**
 * The daemon's environment: with jemalloc preloaded when the system has it (KBOX_ALLOCATOR=system
 * opts out), else with glibc's malloc told to keep few arenas (GLIBC_MALLOC_ENV). Under glibc's
 * default settings the daemon's native memory (LanceDB's writers, many threads) fragments and keeps
 * growing through a long ingestion; with jemalloc it stays flat (bench/ingest).
 */
export function daemonEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== "linux" || env.LD_PRELOAD?.includes("jemalloc")) return env;
  const lib = env.KBOX_ALLOCATOR === "system" ? undefined : jemallocPath();
  if (!lib) return glibcEnv(env);
  // Freed pages go back to the system within a second, from a background thread (jemalloc's default
  // keeps them 10 s): a spike of a big commit or compaction does not linger in the daemon's memory.
  return { ...env, LD_PRELOAD: env.LD_PRELOAD ? `${lib}:${env.LD_PRELOAD}` : lib, MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF };
}

const JEMALLOC_CONF = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";

/**
 * glibc's malloc settings for a daemon without jemalloc (a fresh machine: no libjemalloc2 package, or
 * KBOX_ALLOCATOR=system). glibc gives each of LanceDB's many threads an arena of its own, up to eight
 * per core, and memory freed in one arena is not reused by another: two arenas keep the daemon's peak
 * near jemalloc's (bench/memory.ts, docs/benchmarks.md#memory). The user's own malloc settings win.
 */
export const GLIBC_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

function glibcEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.GLIBC_TUNABLES?.includes("glibc.malloc.") || Object.keys(GLIBC_MALLOC_ENV).some((k) => env[k] !== undefined))
    return env;
  return { ...env, ...GLIBC_MALLOC_ENV };
}

/** A daemon started in the background: its pid, and its exit code once it has exited (early death). */
export interface SpawnedDaemon {
  pid: number | undefined;
  exitCode: () => number | null | undefined;
}

/** Start a detached daemon that outlives this process, with its output in the log dir. */
export function spawnDaemon(paths: KboxPaths, extraArgs: string[], env: NodeJS.ProcessEnv): SpawnedDaemon {
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const out = openSync(join(paths.logs, "kboxd.out"), "a", 0o600);
  const { cmd, args } = daemonCommand(env);
  const child = spawn(cmd, [...args, ...extraArgs], { detached: true, stdio: ["ignore", out, out], env: daemonEnv(env) });
  closeSync(out);
  let code: number | null | undefined;
  child.once("exit", (c, signal) => {
    code = c ?? (signal ? 128 : null);
  });
  child.once("error", () => {
    code = 127;
  });
  child.unref();
  return { pid: child.pid, exitCode: () => code };
}

/** Wait for a freshly spawned daemon's hello; stop early when it exits instead. */
export async function waitStarted(
  client: KboxClient,
  child: SpawnedDaemon,
  timeoutMs = 20_000,
): Promise<daemonApi.Hello | undefined> {
  return waitFor(async () => {
    const h = await hello(client);
    if (h) return h;
    const code = child.exitCode();
    if (code !== undefined) throw new UnreachableError(`kboxd exited with code ${code} before answering`);
    return undefined;
  }, timeoutMs);
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

/** Wait until a process has exited (it may belong to another user: EPERM means alive). */
export async function waitExit(pid: number, timeoutMs = 15_000): Promise<boolean> {
  if (pid === process.pid) return true; // a daemon hosted in this very process (tests): nothing to wait for
  const gone = () => {
    try {
      process.kill(pid, 0);
      return undefined;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ESRCH" ? true : undefined;
    }
  };
  return (await waitFor(async () => gone(), timeoutMs)) === true;
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
  const target: Target = { kind: "unix", socket: paths.socket };
  const client = new KboxClient(target, (opts.transport ?? httpTransport)(target));
  let h = await hello(client);
  if (h && h.protocol !== PROTOCOL_VERSION) {
    opts.notice?.(`restarting kboxd ${h.version} (protocol ${h.protocol}, this kbox speaks ${PROTOCOL_VERSION})`);
    await client.call(daemonApi.shutdown, {}).catch(() => undefined);
    await waitGone(client);
    await waitExit(h.pid);
    h = undefined;
  }
  if (h) return client;
  if (!opts.autostart) throw new UnreachableError("kboxd is not running", "start it with `kbox daemon start`");
  opts.notice?.("starting kboxd…");
  const logs = `see ${join(paths.logs, "kboxd.log")} and kboxd.out`;
  const child = spawnDaemon(paths, [], opts.env);
  try {
    h = await waitStarted(client, child);
  } catch (e) {
    throw new UnreachableError((e as Error).message, logs);
  }
  if (!h) throw new UnreachableError("kboxd did not start", logs);
  return client;
}
