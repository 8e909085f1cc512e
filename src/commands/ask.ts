import { Command } from "commander";
import type { Context } from "../cli/context.js";
import { CliError, EXIT, usageError } from "../cli/errors.js";
import { collect, intFlag } from "../cli/options.js";
import { printJson, printNdjson, styles } from "../cli/output.js";
import type { KboxClient } from "../client/client.js";
import type { AskItem, ChatMessage } from "../client/routes/ask.js";
import * as api from "../client/routes/ask.js";
import { ndjson } from "../client/transport.js";
import { FootnoteNumberer, LineWrapper, markCitations, sourceLines, sourcesOf, wrapLines } from "../tui/answer.js";
import { type FindOptions, findRequest } from "./find.js";

export interface AskOptions extends FindOptions {
  sync?: boolean;
  model?: string;
  citations?: string;
  prompt?: string;
  maxTokens?: string;
  rag?: string[];
  agenticConfig?: string;
}

/** How much a question must lean on the conversation (0..1, the daemon's estimate) to be rephrased with it. */
export const FOLLOW_UP_THRESHOLD = 0.5;

const CITATIONS: Record<string, api.AskBody["citations"]> = { footnotes: "llm_footnotes", default: "default", none: false };

/** The ask body for a question, the flags (find's flags included) and the conversation so far. */
export function askRequest(question: string, o: AskOptions, history: ChatMessage[] = []): api.AskBody {
  const body = { ...findRequest(question, o, false), query: question } as api.AskBody;
  delete (body as { highlight?: boolean }).highlight;
  const mode = o.citations ?? "footnotes";
  if (!(mode in CITATIONS)) throw usageError(`--citations must be footnotes, default or none, not ${JSON.stringify(mode)}`);
  body.citations = CITATIONS[mode];
  if (o.model) body.generative_model = o.model;
  if (o.prompt) body.prompt = o.prompt;
  if (o.maxTokens !== undefined) body.max_tokens = intFlag("--max-tokens", o.maxTokens, 1);
  if (o.agenticConfig) body.agentic_config_id = o.agenticConfig;
  if (o.rag?.length) {
    try {
      body.rag_strategies = o.rag.map((r) => (r.startsWith("{") ? JSON.parse(r) : { name: r }));
    } catch (e) {
      throw usageError(`--rag is not JSON: ${(e as Error).message}`);
    }
  }
  if (history.length) {
    body.chat_history = history;
    // The daemon rephrases with the conversation only a question that leans on it ("when does it
    // open?"); a question that stands on its own is searched as asked.
    body.rephrase = true;
    body.chat_history_relevance_threshold = FOLLOW_UP_THRESHOLD;
  }
  return body;
}

/** Stream an ask: call `onText` with display text (footnotes renumbered) as it arrives; returns every item. */
export async function streamAsk(
  client: KboxClient,
  kbid: string,
  body: api.AskBody,
  onItem: (item: AskItem, text: string) => void,
  signal?: AbortSignal,
) {
  const numberer = new FootnoteNumberer();
  const items: AskItem[] = [];
  let answer = "";
  const res = await client.exchange(api.askKb, {
    params: { kbid },
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
    signal,
  });
  // The answer's id for feedback (`kbox feedback <id> good|bad`, /good and /bad in `kbox chat`).
  const learningId = String(res.headers[api.ASK_HEADERS.learningId.toLowerCase()] ?? "") || undefined;
  for await (const line of ndjson(res)) {
    const item = (line as { item: AskItem }).item;
    items.push(item);
    let text = "";
    if (item.type === "answer") text = numberer.push(item.text);
    else text = numberer.flush();
    answer += text;
    onItem(item, text);
  }
  const rest = numberer.flush();
  answer += rest;
  if (rest) onItem({ type: "answer", text: "" }, rest);
  return { items, answer, sources: sourcesOf(items, numberer.order), learningId };
}

export async function runAsk(
  ctx: Context,
  question: string,
  o: AskOptions,
  history: ChatMessage[] = [],
  onLearningId?: (id: string) => void,
): Promise<string> {
  if (!question.trim()) throw usageError("the question is empty");
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const body = askRequest(question, o, history);
  if (o.sync)
    return printSync(ctx, await client.call(api.askKb, { params: { kbid }, body, headers: { "x-synchronous": "true" } }), o);
  const st = styles(ctx.io);
  // On a terminal the answer wraps at word boundaries and source lines fit its width; piped, lines are left whole.
  const columns = ctx.io.stdout.isTTY ? ctx.io.stdout.columns || 80 : undefined;
  const wrap = columns ? new LineWrapper(columns) : undefined;
  let failed: string | undefined;
  const r = await streamAsk(client, kbid, body, (item, text) => {
    if (o.json) printNdjson(ctx.io, { item });
    else if (text) ctx.io.stdout.write(wrap ? wrap.push(text) : text);
    if (item.type === "retrieval" && item.results.rephrased_query && !o.json)
      ctx.status(`searched: ${item.results.rephrased_query}`, o);
    if (item.type === "error") failed = item.error;
    if (item.type === "status" && item.code === "-1") failed ??= item.details ?? "generation failed";
  });
  if (!o.json) {
    ctx.io.stdout.write(`${wrap?.flush() ?? ""}\n`);
    if (r.sources.length)
      ctx.io.stdout.write(
        `\n${st.bold("Sources")}\n${sourceLines(r.sources, (columns ?? 102) - 2)
          .map((l) => `  ${st.dim(l)}`)
          .join("\n")}\n`,
      );
  }
  if (failed) throw new CliError(`the answer failed: ${failed}`, EXIT.failure);
  if (r.learningId) onLearningId?.(r.learningId);
  // On a terminal, how to rate the answer; piped output stays the answer alone.
  if (r.learningId && !o.json && ctx.io.stdout.isTTY && !onLearningId)
    ctx.status(st.dim(`rate this answer: kbox feedback ${r.learningId} good|bad [why]`), o);
  return r.answer;
}

function printSync(ctx: Context, res: unknown, o: AskOptions): string {
  if (o.json) {
    printJson(ctx.io, res);
    return "";
  }
  const r = res as api.SyncAskResponse;
  const items: AskItem[] = [
    { type: "retrieval", results: r.retrieval_results as never, best_matches: r.retrieval_best_matches },
    ...(Object.keys(r.citation_footnote_to_context).length
      ? [{ type: "footnote_citations" as const, footnote_to_context: r.citation_footnote_to_context }]
      : []),
    { type: "citations", citations: r.citations },
  ];
  const numberer = new FootnoteNumberer();
  let answer = numberer.push(r.answer) + numberer.flush();
  const sources = sourcesOf(
    items.filter((i) => i.type !== "citations" || !numberer.order.length),
    numberer.order,
  );
  if (!numberer.order.length) answer = markCitations(answer, r.citations, sources);
  const columns = ctx.io.stdout.isTTY ? ctx.io.stdout.columns || 80 : undefined;
  const text = r.answer_json ? JSON.stringify(r.answer_json, null, 2) : answer;
  ctx.io.stdout.write(`${columns && !r.answer_json ? wrapLines(text, columns).join("\n") : text}\n`);
  if (sources.length)
    ctx.io.stdout.write(
      `\nSources\n${sourceLines(sources, (columns ?? 102) - 2)
        .map((l) => `  ${l}`)
        .join("\n")}\n`,
    );
  if (r.status === "error") throw new CliError(`the answer failed: ${r.error_details ?? "error"}`, EXIT.failure);
  return answer;
}

/** Options ask shares with chat. */
export function withAskOptions(cmd: Command): Command {
  return cmd
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--model <name>", "generative model: extractive, openai:<model>[@url], gguf:<path>, predict:<model>[@zone]")
    .option("--filter <json>", "a filter_expression as JSON")
    .option("--label <labelset[/label]>", "only resources with this label (repeatable)", collect)
    .option("--path <dir>", "only resources whose origin path is under <dir>")
    .option("--features <list>", "retrieval: keyword,semantic (default both)")
    .option("--top-k <n>", "paragraphs to retrieve (1-200)")
    .option("--config <name>", "a stored search configuration of kind ask")
    .option("--agentic-config <id>", "apply an agentic configuration (kbox kb agentic-config)")
    .option("--citations <mode>", "footnotes (numbered inline, default), default (post-hoc) or none")
    .option(
      "--rag <strategy>",
      'a rag strategy name or JSON, e.g. full_resource or \'{"name":"neighbouring_paragraphs","before":1,"after":1}\' (repeatable)',
      collect,
    )
    .option("--prompt <text>", "a user prompt with {context} and {question}")
    .option("--max-tokens <n>", "answer token limit");
}

export function askCommand(ctx: Context): Command {
  return withAskOptions(
    new Command("ask")
      .description("Ask a question: a streamed answer with numbered citations and its sources")
      .argument("<question>", "what to ask"),
  )
    .option("--sync", "wait for the whole answer (x-synchronous)")
    .option("--json", "print the wire's NDJSON items (with --sync: the JSON response)")
    .addHelpText(
      "after",
      `\nExamples:\n  kbox ask "When do we ship?"\n  kbox ask "Summarise the plan" --model openai:llama3@http://127.0.0.1:11434/v1 --label topic/planning\n  kbox ask "Who owns billing?" --json | jq -c 'select(.item.type=="citations")'`,
    )
    .action(async (question: string, _o, cmd: Command) => {
      await runAsk(ctx, question, ctx.opts<AskOptions>(cmd));
    });
}
