import { resolve } from "node:path";
import { Command, Option } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printNdjson } from "../../cli/output.js";
import { formatCount, type Progress, progress } from "../../cli/progress.js";
import * as models from "../../client/routes/models.js";

export interface ModelsPullOptions {
  revision?: string;
  from?: string;
  dtype?: "q8" | "fp32";
  pooling?: "cls" | "mean";
  queryPrefix?: string;
  passagePrefix?: string;
  reranker?: boolean;
  use?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Turn one pull event into progress-bar updates and status lines. */
function show(ctx: Context, p: Progress | undefined, e: models.PullEvent): void {
  if (e.type === "progress") p?.update(e.bytes, e.total_bytes || undefined);
  else if (e.type === "file" && e.status === "resuming") p?.log(`resuming ${e.path} at ${formatCount(e.offset ?? 0, true)}`);
  else if (e.type === "file" && e.status === "cached") p?.log(`${e.path} already downloaded`);
  else if (e.type === "file" && e.status === "done") p?.log(`${e.path} ${formatCount(e.size ?? 0, true)} ok`);
}

export async function runModelsPull(ctx: Context, id: string, opts: ModelsPullOptions): Promise<void> {
  const client = await ctx.client(opts);
  const body: models.PullModel = {
    id,
    revision: opts.revision,
    endpoint: ctx.env.hfEndpoint || undefined,
    from: opts.from ? resolve(ctx.io.cwd, opts.from) : undefined,
    dtype: opts.dtype,
    pooling: opts.pooling,
    kind: opts.reranker ? "reranker" : undefined,
    query_prefix: opts.queryPrefix,
    passage_prefix: opts.passagePrefix,
    use: opts.use,
  };
  let p: Progress | undefined;
  let result: models.ModelRecord | undefined;
  try {
    for await (const item of client.stream(models.pullModel, { body })) {
      const e = item as models.PullEvent;
      if (opts.json) printNdjson(ctx.io, e);
      if (e.type === "start") {
        ctx.status(
          `pulling ${e.id}@${e.revision}: ${e.files.length} files${e.total_bytes ? `, ${formatCount(e.total_bytes, true)}` : ""}`,
          opts,
        );
        p = progress(ctx, { label: "bytes", bytes: true, total: e.total_bytes || undefined, quiet: opts.quiet || opts.json });
      } else if (e.type === "error") throw new CliError(e.detail, EXIT.failure, "run the same pull again to resume");
      else if (e.type === "done") result = e.model;
      else show(ctx, p, e);
    }
  } finally {
    p?.done();
  }
  if (!result)
    throw new CliError("the daemon ended the pull without a result", EXIT.failure, "run the same pull again to resume");
  if (opts.json) return;
  ctx.io.stdout.write(`${result.name}\n`);
  ctx.status(
    `installed ${result.name} (${result.kind}${result.dim ? `, ${result.dim} dims` : ""})${result.default ? ", the default" : ""}`,
    opts,
  );
}

export function modelsPullCommand(ctx: Context): Command {
  return new Command("pull")
    .description("Download a model from the Hugging Face hub (KBOX_HF_ENDPOINT) into the cache, or import a local folder")
    .argument("<id>", "hub id (Xenova/bge-small-en-v1.5) or a known short name (bge-small-en-v1.5)")
    .option("--revision <rev>", "branch, tag or commit", "main")
    .option("--from <dir>", "import the repo files from a local folder instead of downloading")
    .addOption(new Option("--dtype <dtype>", "which ONNX weights to take").choices(["q8", "fp32"]))
    .addOption(new Option("--pooling <pooling>", "override pooling for an unknown model").choices(["cls", "mean"]))
    .option("--query-prefix <text>", "override the text put before queries")
    .option("--passage-prefix <text>", "override the text put before passages")
    .option("--reranker", "the model is a cross-encoder reranker")
    .option("--use", "make it the default once installed")
    .option("--json", "print the progress events as NDJSON")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox models pull bge-small-en-v1.5 --use\n  kbox models pull Xenova/multilingual-e5-small\n  KBOX_HF_ENDPOINT=https://hf-mirror.example kbox models pull ms-marco-MiniLM-L-6-v2\n  kbox models pull my/model --from ./exported-onnx-folder",
    )
    .action(async (id: string, _o, cmd: Command) => runModelsPull(ctx, id, ctx.opts<ModelsPullOptions>(cmd)));
}
