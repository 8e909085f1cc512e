import type { Command } from "commander";
import type { Context } from "../cli/context.js";
import { type CommandEntry, composeProgram, entriesFor } from "../cli/program.js";

export type { CommandEntry };

/**
 * Every top-level noun or verb, in help order. Modules are imported only when their command runs,
 * so `kbox kb list` never loads ink, react or the code of other commands.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "backup",
    summary: "Back up and restore knowledge boxes",
    load: async (ctx) => (await import("./backup/index.js")).backupCommand(ctx),
  },
  {
    name: "task",
    summary: "Tasks on a knowledge box: labeler, synthetic questions, ask, model migration, guard",
    load: async (ctx) => (await import("./task/index.js")).taskCommand(ctx),
  },
  {
    name: "dataset",
    summary: "Datasets: create, list, delete, generate partitions from a knowledge box",
    load: async (ctx) => (await import("./dataset/index.js")).datasetCommand(ctx),
  },
  {
    name: "guardrail",
    summary: "Guardrail policies of the account: create, list, show, update, delete, check",
    load: async (ctx) => (await import("./guardrail/index.js")).guardrailCommand(ctx),
  },
  {
    name: "daemon",
    summary: "Start, stop and inspect the background daemon kboxd",
    load: async (ctx) => (await import("./daemon/index.js")).daemonCommand(ctx),
  },
  {
    name: "kb",
    summary: "Create, list, inspect and select knowledge boxes",
    load: async (ctx) => (await import("./kb/index.js")).kbCommand(ctx),
  },
  {
    name: "agent",
    summary: "Retrieval agents: plan, retrieve from several knowledge boxes and answer, in sessions",
    load: async (ctx) => (await import("./agent/index.js")).agentCommand(ctx),
  },
  {
    name: "account",
    summary: "Accounts of the zone: list, show, create, update, delete",
    load: async (ctx) => (await import("./account/index.js")).accountCommand(ctx),
  },
  {
    name: "invite",
    summary: "Redeem an invitation to a knowledge box or an account",
    load: async (ctx) => (await import("./invite/index.js")).inviteCommand(ctx),
  },
  {
    name: "token",
    summary: "Short-lived tokens: ephemeral, agent, secure",
    load: async (ctx) => (await import("./token/index.js")).tokenCommand(ctx),
  },
  {
    name: "api",
    summary: "Call any operation of a zone with the profile's credentials (as gh api)",
    load: async (ctx) => (await import("./request/index.js")).apiCommand(ctx),
  },
  {
    name: "models",
    summary: "Embedding and reranking models: list, pull from the hub, use, add an endpoint, remove",
    load: async (ctx) => (await import("./models/index.js")).modelsCommand(ctx),
  },
  {
    name: "nua",
    summary: "The understanding API: clients and NUA keys, processing files, URLs and texts",
    load: async (ctx) => (await import("./nua/index.js")).nuaCommand(ctx),
  },
  {
    name: "predict",
    summary: "Predict: chat over contexts, embed, analyse queries, summarize, rerank, rephrase, score answers, list models",
    load: async (ctx) => (await import("./predict/index.js")).predictCommand(ctx),
  },
  {
    name: "resource",
    summary: "Create, list, inspect, change and delete resources",
    load: async (ctx) => (await import("./resource/index.js")).resourceCommand(ctx),
  },
  {
    name: "sa",
    summary: "Service accounts and API keys for TCP and remote clients",
    load: async (ctx) => (await import("./sa/index.js")).saCommand(ctx),
  },
  {
    name: "profile",
    summary: "Manage profiles: the local daemon (default) or remote zones with an API key",
    load: async (ctx) => (await import("./profile/index.js")).profileCommand(ctx),
  },
  {
    name: "auth",
    summary: "Log in to zones: store, inspect and forget credentials; personal access tokens",
    load: async (ctx) => (await import("./auth/index.js")).authCommand(ctx),
  },
  {
    name: "config",
    summary: "Read and change kbox settings (config.json in the config dir)",
    load: async (ctx) => (await import("./config/commands.js")).configCommand(ctx),
  },
  {
    name: "completion",
    summary: "Print a shell completion script (bash, zsh or fish)",
    needsTree: true,
    load: async (ctx) => (await import("./completion.js")).completionCommand(ctx),
  },
  {
    name: "doctor",
    summary: "Check the daemon, data dir, models, keyring and LanceDB tables; exits 1 when something is broken",
    load: async (ctx) => (await import("./doctor.js")).doctorCommand(ctx),
  },
  {
    name: "__complete",
    summary: "Completion candidates (used by the completion scripts)",
    hidden: true,
    load: async (ctx) => (await import("./completion.js")).completeCommand(ctx),
  },
  {
    name: "find",
    summary: "Find paragraphs: keyword, semantic and hybrid search with filters",
    load: async (ctx) => (await import("./find.js")).findCommand(ctx),
  },
  {
    name: "activity",
    summary: "What people searched and asked, and what changed: list, show, download, metrics",
    load: async (ctx) => (await import("./activity/index.js")).activityCommand(ctx),
  },
  {
    name: "quality",
    summary: "Answer quality: relevance and groundedness scores, and their trend",
    load: async (ctx) => (await import("./quality/index.js")).qualityCommand(ctx),
  },
  {
    name: "feedback",
    summary: "Say whether an answer was good or bad (by its learning id)",
    load: async (ctx) => (await import("./feedback.js")).feedbackCommand(ctx),
  },
  {
    name: "ask",
    summary: "Ask a question: a streamed answer with numbered citations and its sources",
    load: async (ctx) => (await import("./ask.js")).askCommand(ctx),
  },
  {
    name: "chat",
    summary: "An interactive ask session: streamed answers, sources, follow-up questions",
    load: async (ctx) => (await import("./chat.js")).chatCommand(ctx),
  },
  {
    name: "mcp",
    summary: "Serve a knowledge box to MCP clients (Claude Desktop, Claude Code, Cursor) over stdio",
    load: async (ctx) => (await import("./mcp.js")).mcpCommand(ctx),
  },
  {
    name: "catalog",
    summary: "List resources by title, status and labels",
    load: async (ctx) => (await import("./catalog.js")).catalogCommand(ctx),
  },
  {
    name: "search-config",
    summary: "Stored search configurations (named find or ask parameters)",
    load: async (ctx) => (await import("./search-config/index.js")).searchConfigCommand(ctx),
  },
  {
    name: "labelset",
    summary: "Labelsets: the labels a knowledge box offers",
    load: async (ctx) => (await import("./labelset/index.js")).labelsetCommand(ctx),
  },
  {
    name: "strategy",
    summary: "Split and extract strategies: how fields that name them are cut into paragraphs",
    load: async (ctx) => (await import("./strategy/index.js")).strategyCommand(ctx),
  },
  {
    name: "sync",
    summary: "Keep folders and sitemaps in sync with a knowledge box",
    load: async (ctx) => (await import("./sync/index.js")).syncCommand(ctx),
  },
  {
    name: "watch",
    summary: "Keep a folder indexed: adds a folder sync (once) that the daemon watches live",
    load: async (ctx) => (await import("./watch.js")).watchCommand(ctx),
  },
  {
    name: "add",
    summary: "Add files, folders (recursively) and URLs to a knowledge box",
    load: async (ctx) => (await import("./add.js")).addCommand(ctx),
  },
  {
    name: "upload",
    summary: "Upload a file (resumable TUS chunks; run it again to resume an interrupted upload)",
    load: async (ctx) => (await import("./upload.js")).uploadCommand(ctx),
  },
];

/** The top-level commands a run of `argv` needs (every one without argv: help, docs, completions). */
export function commandsFor(argv: readonly string[] | undefined): readonly CommandEntry[] {
  return entriesFor(COMMANDS, argv);
}

/**
 * The kbox program: the CLI library's root command over this table. With `argv`, only the
 * top-level command it runs is loaded; without, the whole tree (help, docs, completions).
 */
export function buildProgram(ctx: Context, argv?: readonly string[]): Promise<Command> {
  return composeProgram(ctx, COMMANDS, argv);
}
