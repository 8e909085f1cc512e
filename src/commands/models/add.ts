import { Command, Option } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as models from "../../client/routes/models.js";

export interface ModelsAddOptions {
  url: string;
  model?: string;
  apiKey?: string;
  dim?: string;
  queryPrefix?: string;
  passagePrefix?: string;
  check?: boolean;
  use?: boolean;
  json?: boolean;
  quiet?: boolean;
}

export async function runModelsAdd(ctx: Context, name: string, opts: ModelsAddOptions): Promise<void> {
  if (!/^(openai|predict):/.test(name))
    throw usageError(`model name must be openai:<name> or predict:<name>, got ${JSON.stringify(name)}`);
  const dim = opts.dim === undefined ? undefined : Number(opts.dim);
  if (dim !== undefined && !(Number.isInteger(dim) && dim > 0))
    throw usageError(`--dim wants a positive integer, got ${JSON.stringify(opts.dim)}`);
  const client = await ctx.client(opts);
  const res = await client.call(models.addModel, {
    body: {
      name,
      url: opts.url,
      model: opts.model,
      api_key: opts.apiKey ?? ctx.env.embeddingsApiKey,
      dim,
      query_prefix: opts.queryPrefix,
      passage_prefix: opts.passagePrefix,
      check: opts.check,
    },
  });
  if (opts.use) await client.call(models.useModel, { body: { name: res.name } });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(
    `added ${res.name} (${res.dim || "?"} dims, vectorset ${res.vectorset})${opts.use ? ", now the default" : ""}`,
    opts,
  );
}

export function modelsAddCommand(ctx: Context): Command {
  return (
    new Command("add")
      .description("Configure a remote embedder: an OpenAI-compatible /v1/embeddings endpoint, or a zone's Predict Sentences")
      .argument("<name>", "openai:<name> or predict:<name>")
      .requiredOption("--url <url>", "OpenAI-compatible: base URL ending in /v1; predict: the zone URL")
      .option("--model <model>", "the model the endpoint should run (required for openai:)")
      // Not commander's .env(), which reads the process's environment: runModelsAdd falls back to the context's.
      .option("--api-key <key>", "API key (sent as a bearer token) (env: KBOX_EMBEDDINGS_API_KEY)")
      .option("--dim <n>", "vector dimension (else discovered with one call)")
      .option("--query-prefix <text>", "text put before queries")
      .option("--passage-prefix <text>", "text put before passages")
      .option("--no-check", "save without calling the endpoint")
      .option("--use", "make it the default embedder")
      .option("--json", "print the wire response")
      .addHelpText(
        "after",
        "\nExamples:\n  kbox models add openai:nomic --url http://localhost:11434/v1 --model nomic-embed-text --use\n  kbox models add predict:zone --url https://europe-1.example.cloud --api-key $KEY",
      )
      .action(async (name: string, _o, cmd: Command) => runModelsAdd(ctx, name, ctx.opts<ModelsAddOptions>(cmd)))
  );
}
