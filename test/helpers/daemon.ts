import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DaemonOptions, type RunningDaemon, startDaemon } from "../../daemon/server.js";
import { kboxPaths } from "../../src/api/paths.js";
import { bufferIO } from "../../src/cli/io.js";
import { KboxClient } from "../../src/client/client.js";
import { hello } from "../../src/client/connect.js";
import { main } from "../../src/main.js";
import { NO_HUB } from "./no-hub.js";

/** Daemon settings for tests that run offline: no automatic model download (keyword retrieval unless a test registers an embedder). */
export const OFFLINE: NodeJS.ProcessEnv = { KBOX_MODELS_AUTOPULL: "0" };

/** A fresh KBOX_HOME under the temp dir (short, so socket paths stay under the 108-byte limit). */
export function tempHome(prefix = "kbox-t-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestDaemon {
  home: string;
  env: NodeJS.ProcessEnv;
  daemon: RunningDaemon;
  client: KboxClient;
  /** Run the real CLI in-process against this daemon. */
  cli: (
    args: string[],
    opts?: { tty?: boolean; stdin?: string; env?: NodeJS.ProcessEnv; columns?: number },
  ) => Promise<{ code: number; stdout: string; stderr: string }>;
  /** TCP base URL when started with `listen`. */
  url?: string;
  stop: () => Promise<void>;
}

/** A request outside the generated routes (a JSON body, if any): its status and parsed JSON answer. */
export async function rawJson(
  client: KboxClient,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const res = await client.raw({
    method,
    path,
    headers: body ? { "content-type": "application/json", ...headers } : headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  let text = "";
  for await (const c of res.body) text += c;
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Start the real daemon in this process on a temp KBOX_HOME; `stop()` drains it and removes the home. */
export async function startTestDaemon(
  opts: Omit<DaemonOptions, "env"> & {
    home?: string;
    keepHome?: boolean;
    /** Daemon settings (KBOX_INGEST_RETRY_DEADLINE...; see docs/settings.md), also seen by `cli`. */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<TestDaemon> {
  const home = opts.home ?? tempHome();
  const env = { KBOX_HOME: home, NO_COLOR: "1", ...NO_HUB, ...opts.env } as NodeJS.ProcessEnv;
  const daemon = await startDaemon({ ...opts, env });
  const client = new KboxClient({ kind: "unix", socket: daemon.paths.socket });
  const url = daemon.tcp ? `http://127.0.0.1:${daemon.tcp.port}` : undefined;
  return {
    home,
    env,
    daemon,
    client,
    url,
    cli: (args, o = {}) => runCli(args, { ...env, ...o.env }, o),
    stop: async () => {
      await daemon.stop();
      if (!opts.keepHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Run the CLI in-process with buffers for stdout and stderr. */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  o: { tty?: boolean; stdin?: string; columns?: number } = {},
) {
  const b = bufferIO({ env, tty: o.tty, stdin: o.stdin, columns: o.columns });
  const code = await main(args, b.io);
  return { code, stdout: b.stdout(), stderr: b.stderr() };
}

/** Start kboxd as a real child process (for kill -9 and signal tests); `env` adds daemon settings. */
export async function spawnTestDaemon(
  home: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; client: KboxClient }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "../../bin/kboxd.ts"), ...args], {
    env: { ...process.env, ...env, KBOX_HOME: home },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const client = new KboxClient({ kind: "unix", socket: kboxPaths({ KBOX_HOME: home }).socket });
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`kboxd exited ${child.exitCode}: ${stderr}`);
    if (await hello(client)) return { child, client };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`kboxd did not answer: ${stderr}`);
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}
