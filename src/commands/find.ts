import { Command } from "commander";
import type { z } from "zod";
import type { Context } from "../cli/context.js";
import { usageError } from "../cli/errors.js";
import { collect, intFlag, numberFlag } from "../cli/options.js";
import { printJson, styles } from "../cli/output.js";
import * as api from "../client/routes/find.js";

export interface FindOptions {
  kb?: string;
  topK?: string;
  page?: string;
  filter?: string;
  label?: string[];
  path?: string;
  type?: string[];
  features?: string;
  config?: string;
  vectorset?: string;
  showHidden?: boolean;
  minScore?: string;
  json?: boolean;
}

/** Common file types by extension, for `--type`. */
const TYPES: Record<string, [string, string?]> = {
  pdf: ["application", "pdf"],
  html: ["text", "html"],
  md: ["text", "markdown"],
  txt: ["text", "plain"],
  csv: ["text", "csv"],
  json: ["application", "json"],
  docx: ["application", "vnd.openxmlformats-officedocument.wordprocessingml.document"],
  pptx: ["application", "vnd.openxmlformats-officedocument.presentationml.presentation"],
  xlsx: ["application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
  image: ["image"],
  audio: ["audio"],
  video: ["video"],
};

/** The find request for the flags: `--filter` JSON and the shorthand flags are AND-ed. */
export function findRequest(query: string, o: FindOptions, highlight: boolean): z.input<typeof api.FindBody> {
  const field: unknown[] = [];
  let fe: Record<string, unknown> | undefined;
  if (o.filter) {
    try {
      fe = JSON.parse(o.filter);
    } catch (e) {
      throw usageError(`--filter is not JSON: ${(e as Error).message}`);
    }
  }
  for (const l of o.label ?? []) {
    const [labelset, ...rest] = l.split("/");
    if (!labelset) throw usageError(`--label ${JSON.stringify(l)} is not labelset[/label]`);
    field.push({ prop: "label", labelset, ...(rest.length ? { label: rest.join("/") } : {}) });
  }
  if (o.path) field.push({ prop: "origin_path", prefix: o.path });
  if (o.type?.length) {
    field.push({
      or: o.type.map((t) => {
        const [type, subtype] = TYPES[t.toLowerCase()] ?? (t.includes("/") ? (t.split("/") as [string, string]) : [t]);
        const m = { type, ...(subtype ? { subtype } : {}) };
        return {
          or: [
            { prop: "resource_mimetype", ...m },
            { prop: "field_mimetype", ...m },
          ],
        };
      }),
    });
  }
  if (field.length) {
    const own = fe?.field ? [fe.field, ...field] : field;
    fe = { ...fe, field: own.length === 1 ? own[0] : { and: own } };
  }
  const body: z.input<typeof api.FindBody> = { query, highlight };
  if (fe) body.filter_expression = fe as never;
  if (o.topK !== undefined) body.top_k = intFlag("--top-k", o.topK, 1, 200);
  if (o.page !== undefined) body.page_number = intFlag("--page", o.page, 0);
  if (o.features) body.features = o.features.split(",").map((f) => f.trim()) as never;
  if (o.config) body.search_configuration = o.config;
  if (o.vectorset) body.vectorset = o.vectorset;
  if (o.showHidden) body.show_hidden = true;
  if (o.minScore !== undefined) body.min_score = numberFlag("--min-score", o.minScore);
  return body;
}

/** Paragraphs of a response in rank order, with their resource and field. */
export function ranked(r: api.FindResponse) {
  const rows: { rid: string; title: string; field: string; p: api.FindParagraph }[] = [];
  for (const [rid, res] of Object.entries(r.resources)) {
    for (const [field, f] of Object.entries(res.fields)) {
      for (const p of Object.values(f.paragraphs)) rows.push({ rid, title: String(res.title ?? res.slug ?? rid), field, p });
    }
  }
  return rows.sort((a, b) => a.p.order - b.p.order);
}

export async function runFind(ctx: Context, query: string, o: FindOptions): Promise<void> {
  const kbid = await ctx.kbid(o);
  const tty = Boolean(ctx.io.stdout.isTTY);
  const client = await ctx.client(o);
  const res = await client.call(api.find, { params: { kbid }, body: findRequest(query, o, tty && !o.json) });
  if (o.json) return printJson(ctx.io, res);
  const rows = ranked(res);
  if (!tty) {
    for (const { rid, field, p, title } of rows)
      ctx.io.stdout.write(
        `${[p.score.toFixed(4), rid, field, p.id, title, p.text].map((c) => c.replace(/[\t\n]/g, " ")).join("\t")}\n`,
      );
    return;
  }
  const st = styles(ctx.io);
  if (!rows.length) ctx.status("no results");
  for (const [i, { title, field, p }] of rows.entries()) {
    const text = p.text.replace(/<mark>(.*?)<\/mark>/g, (_, w: string) => st.mark(w));
    ctx.io.stdout.write(
      `${st.bold(`${i + 1}. ${title}`)}  ${st.dim(`${field} · ${p.score_type} ${p.score.toFixed(4)}`)}\n   ${text.replace(/\n+/g, " ")}\n\n`,
    );
  }
  if (res.next_page) ctx.status(`more results: --page ${res.page_number + 1}`);
}

export function findCommand(ctx: Context): Command {
  return new Command("find")
    .description("Find paragraphs: keyword, semantic and hybrid search with filters")
    .argument("<query>", 'words; "quoted phrases" must match, -word must not')
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--top-k <n>", "results per page (1-200)")
    .option("--page <n>", "page number, from 0")
    .option("--filter <json>", "a filter_expression as JSON")
    .option("--label <labelset[/label]>", "only resources with this label (repeatable)", collect)
    .option("--path <dir>", "only resources whose origin path is under <dir>")
    .option("--type <ext|mime>", "only files of this type: pdf, docx, html, md, image/png ... (repeatable)", collect)
    .option("--features <list>", "keyword,semantic (default both)")
    .option("--config <name>", "a stored search configuration")
    .option("--vectorset <name>", "the vectorset for semantic search")
    .option("--min-score <n>", "minimum semantic score")
    .option("--show-hidden", "include hidden resources")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      `\nExamples:\n  kbox find "quarterly revenue" --label topic/finance --top-k 5\n  kbox find '"exact phrase" -draft' --path /reports --type pdf\n  kbox find revenue --filter '{"field":{"prop":"origin_tag","tag":"q3"}}' --json | jq '.best_matches'`,
    )
    .action(async (query: string, _o, cmd: Command) => runFind(ctx, query, ctx.opts<FindOptions>(cmd)));
}
