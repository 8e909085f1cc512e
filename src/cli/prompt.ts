import { createInterface } from "node:readline";
import type { Context, GlobalOptions } from "./context.js";
import { CliError, EXIT } from "./errors.js";

/** Destructive verbs: `--yes`, or a y/N prompt when stdin and stdout are TTYs; otherwise refuse. */
export async function confirm(ctx: Context, opts: GlobalOptions, question: string): Promise<void> {
  if (opts.yes) return;
  const { stdin, stdout } = ctx.io;
  if (!stdin.isTTY || !stdout.isTTY)
    throw new CliError(`refusing to ${question} without --yes`, EXIT.usage, "add --yes to confirm");
  ctx.io.stderr.write(`${question}? [y/N] `);
  const answer = await readLine(stdin);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError("cancelled", EXIT.failure);
}

/** Read all of stdin (for `--api-key -` and similar). */
export async function readStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of ctx.io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString("utf8");
}

/** One line of input (empty at end of input); the prompt itself goes through ctx.io, not readline. */
async function readLine(input: NodeJS.ReadableStream): Promise<string> {
  const rl = createInterface({ input, terminal: false });
  try {
    for await (const line of rl) return line;
    return "";
  } finally {
    rl.close();
  }
}
