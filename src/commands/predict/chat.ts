import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { printNdjson } from "../../cli/output.js";
import * as api from "../../client/routes/predict.js";

type Opts = { json?: boolean; quiet?: boolean; context?: string[]; model?: string; system?: string; kb?: string };

/** `kbox predict chat`: answer a question over given contexts (Predict Chat), streamed. */
export async function runPredictChat(ctx: Context, question: string, o: Opts): Promise<void> {
  if (!question.trim()) throw usageError("the question is empty");
  const client = await ctx.client(o);
  const body = {
    question,
    query_context: Object.fromEntries((o.context ?? []).map((c, i) => [`c${i + 1}`, c])),
    ...(o.system ? { system: o.system } : {}),
  };
  let failed: string | undefined;
  let wrote = false;
  for await (const line of client.stream(api.predictChat, { body, query: { model: o.model } })) {
    const chunk = (line as { chunk: Record<string, unknown> }).chunk;
    if (o.json) printNdjson(ctx.io, line);
    else if (chunk.type === "text") {
      ctx.io.stdout.write(String(chunk.text));
      wrote = true;
    } else if (chunk.type === "meta") ctx.status(`tokens: ${chunk.input_tokens} in, ${chunk.output_tokens} out`, o);
    if (chunk.type === "status" && chunk.code !== "0") failed = String(chunk.details ?? `status ${chunk.code}`);
  }
  if (wrote) ctx.io.stdout.write("\n");
  if (failed) throw new CliError(failed, EXIT.failure);
}

export function predictChatCommand(ctx: Context): Command {
  return new Command("chat")
    .description("Answer a question over the contexts you give (Predict Chat), streamed")
    .argument("<question>", "the question")
    .option("-c, --context <text>", "a context passage, repeatable", (v: string, acc: string[] = []) => [...acc, v])
    .option("--model <model>", "generative model (see `kbox predict models`)")
    .option("--system <prompt>", "system prompt")
    .option("--json", "print the wire's NDJSON chunks")
    .addHelpText("after", '\nExample:\n  kbox predict chat "When does the vault open?" -c "The vault opens at noon."')
    .action(async (q: string, _o, c: Command) => runPredictChat(ctx, q, ctx.opts(c)));
}
