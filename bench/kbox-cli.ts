import { spawn } from "node:child_process";

/** Run a kbox CLI (`cli`: node's arguments before kbox's own) with `env`; resolves with its exit code and stdout. */
export function runCli(cli: string[], env: NodeJS.ProcessEnv, argv: string[]): Promise<{ code: number; stdout: string }> {
  const child = spawn(process.execPath, [...cli, ...argv], { env, stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  return new Promise((resolve) => child.once("exit", (c) => resolve({ code: c ?? 1, stdout })));
}

/** `NAME=VALUE` arguments (a bench's `--env`) as an environment. */
export function envOf(kvs: string[]): Record<string, string> {
  return Object.fromEntries(kvs.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
}

/** The environment of a bench's CLI runs on `home`: no automatic model pull, no colour, then `extra`. */
export function benchEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, KBOX_HOME: home, KBOX_MODELS_AUTOPULL: "0", NO_COLOR: "1", ...extra };
}
