import { createInterface } from "node:readline";
import { Command } from "commander";
import type { Context } from "../cli/context.js";
import type { ChatMessage } from "../client/routes/ask.js";
import { sendFeedback } from "../client/routes/feedback.js";
import { listKbs } from "../client/routes/kbs.js";
import type { ChatSession } from "../tui/session.js";
import { type AskOptions, askRequest, runAsk, streamAsk, withAskOptions } from "./ask.js";

/** The session the TUI drives: asks through the client, lists KBs, copies with OSC 52. */
export async function chatSession(ctx: Context, o: AskOptions): Promise<ChatSession> {
  const client = await ctx.client(o);
  const uuid = await ctx.kbid(o);
  const kbs = async () => (await client.call(listKbs)).kbs;
  const slug = (await kbs()).find((k) => k.uuid === uuid)?.slug ?? uuid;
  return {
    kb: { slug, uuid },
    model: o.model,
    kbs,
    ask: (kb, question, history, filters, onText, signal) => {
      const body = askRequest(question, { ...o, label: filters.label ? [filters.label] : o.label }, history);
      return streamAsk(client, kb.uuid, body, (item, text) => onText(text, item), signal);
    },
    feedback: async (kb, ident, good, text) => {
      await client.call(sendFeedback, { params: { kbid: kb.uuid }, body: { ident, good, task: "CHAT", feedback: text } });
    },
    // OSC 52: the terminal (and tmux) puts it on the system clipboard, even over ssh.
    copy: (text) => void ctx.io.stdout.write(`\x1b]52;c;${Buffer.from(text).toString("base64")}\x07`),
  };
}

/** Without a terminal: one question a line on stdin, answers streamed to stdout, history kept. */
async function plainChat(ctx: Context, o: AskOptions): Promise<void> {
  const history: ChatMessage[] = [];
  // The client is made before readline starts: lines (and the end) read while awaiting would be lost.
  const client = await ctx.client(o);
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  let last: string | undefined;
  for await (const line of rl) {
    const q = line.trim();
    if (!q) continue;
    const rate = /^\/(good|bad)\b\s*(.*)$/.exec(q);
    if (rate) {
      if (!last) ctx.status("no answer to rate yet", o);
      else {
        const body = { ident: last, good: rate[1] === "good", task: "CHAT" as const, feedback: rate[2] || undefined };
        await client.call(sendFeedback, { params: { kbid: await ctx.kbid(o) }, body });
        ctx.status(`feedback recorded: ${rate[1]}`, o);
      }
      continue;
    }
    const answer = await runAsk(ctx, q, o, history, (id) => {
      last = id;
    });
    ctx.io.stdout.write("\n");
    history.push({ author: "USER", text: q }, { author: "NUCLIA", text: answer });
  }
}

export async function runChat(ctx: Context, o: AskOptions): Promise<void> {
  if (!ctx.io.stdin.isTTY || !ctx.io.stdout.isTTY) return plainChat(ctx, o);
  const s = await chatSession(ctx, o);
  // ink and react load only here, so every other command starts fast.
  const [{ render }, { createElement }, { ChatApp }] = await Promise.all([
    import("ink"),
    import("react"),
    import("../tui/chat-app.js"),
  ]);
  const app = render(createElement(ChatApp, { session: s }), {
    stdout: ctx.io.stdout as NodeJS.WriteStream,
    stdin: ctx.io.stdin as NodeJS.ReadStream,
    exitOnCtrlC: true,
  });
  await app.waitUntilExit();
}

export function chatCommand(ctx: Context): Command {
  return withAskOptions(
    new Command("chat").description("An interactive ask session: streamed answers, sources, follow-up questions"),
  )
    .addHelpText(
      "after",
      "\nIn the session: type a question and Enter. A follow-up that leans on the conversation (\"when does it open?\")\nis searched with the previous question's topic, shown as `searched: …`; a question of its own is searched as asked.\nAnswered turns scroll up like a shell's output.\n  /kb <slug>  switch knowledge box (a new conversation)   /filter <labelset/label>|off   /copy (or Ctrl+Y)   /good, /bad <why>  rate the last answer\n  /clear  new conversation   /help   Esc stop   Ctrl+C quit\nPiped (no terminal): one question a line on stdin, answers on stdout (`searched: …` on stderr).\n\nExamples:\n  kbox chat --kb notes\n  printf 'When do we ship?\\nWho approves it?\\n' | kbox chat",
    )
    .action(async (_o, cmd: Command) => runChat(ctx, ctx.opts<AskOptions>(cmd)));
}
