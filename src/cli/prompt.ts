import { createInterface } from "node:readline";
import type { Context, GlobalOptions } from "./context.js";
import { CliError, EXIT } from "./errors.js";

/** Destructive verbs: `--yes`, or a y/N prompt when stdin and stdout are TTYs; otherwise refuse. */
export async function confirm(ctx: Context, opts: GlobalOptions, question: string): Promise<void> {
  if (opts.yes) return;
  const { stdin, stdout } = ctx.io;
  if (!stdin.isTTY || !stdout.isTTY) throw new CliError(`refusing to ${question} without --yes`, EXIT.usage, "add --yes to confirm");
  const rl = createInterface({ input: stdin, output: ctx.io.stderr as NodeJS.WritableStream });
  const answer = await new Promise<string>((r) => rl.question(`${question}? [y/N] `, r));
  rl.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError("cancelled", EXIT.failure);
}

/** Read all of stdin (for `--api-key -` and similar). */
export async function readStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of ctx.io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString("utf8");
}
