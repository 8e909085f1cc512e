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
