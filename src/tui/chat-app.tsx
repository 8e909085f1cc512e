import { Box, Static, Text, useApp, useInput, useStdout } from "ink";
import { useRef, useState } from "react";
import type { AskItem } from "../client/routes/ask.js";
import { fit, sourceLines, wrapLines } from "./answer.js";
import { type ChatSession, historyOf, type KbRef, type Turn } from "./session.js";

const HELP =
  "Enter ask · /kb <slug> · /filter <labelset/label>|off · /copy · /good · /bad <why> · /clear · Esc stop · Ctrl+C quit";
const COMMANDS = ["kb", "filter", "copy", "good", "bad", "clear", "help", "quit", "exit"];

/** What has been said, printed once above the live part (the terminal scrolls it). */
type Entry = { id: number; turn: Turn } | { id: number; note: string; color?: string };

let nextId = 1;
const note = (text: string, color?: string): Entry => ({ id: nextId++, note: text, color });

/**
 * The interactive ask session. Finished turns go to ink's <Static> (written once, then part of the
 * terminal's scrollback, so a conversation of any length scrolls as a shell's output does); only
 * the answer being streamed, the input line and the status line are redrawn, and they are kept
 * shorter than the window, so the redraw never has to reach above its top (what garbled the screen).
 */
export function ChatApp({ session }: { session: ChatSession }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const width = stdout.columns || 80;
  const rows = stdout.rows || 24;
  // The box and filter live in refs too: a line entered right after `/kb` or `/filter` (a paste, fast
  // typing) is handled before the next render, and must use the new ones.
  const [kb, setKbState] = useState<KbRef>(session.kb);
  const [label, setLabelState] = useState<string | undefined>();
  const kbRef = useRef(kb);
  const labelRef = useRef(label);
  const setKb = (k: KbRef) => {
    kbRef.current = k;
    setKbState(k);
  };
  const setLabel = (l: string | undefined) => {
    labelRef.current = l;
    setLabelState(l);
  };
  const [log, setLog] = useState<Entry[]>(() => [note(header(session.kb, session.model), "banner")]);
  const [current, setCurrent] = useState<Turn | undefined>();
  // The conversation the next question follows (cleared by /clear and /kb).
  const turns = useRef<Turn[]>([]);
  const [input, setInputState] = useState("");
  // Keystrokes can arrive faster than renders: keep the line in a ref so Enter sees all of it.
  const line = useRef("");
  const setInput = (next: string | ((s: string) => string)) => {
    line.current = typeof next === "function" ? next(line.current) : next;
    setInputState(line.current);
  };
  const [notice, setNotice] = useState(HELP);
  const busy = useRef<AbortController | undefined>(undefined);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const print = (...entries: Entry[]) => setLog((l) => [...l, ...entries]);

  const ask = async (question: string) => {
    const history = historyOf(turns.current);
    let turn: Turn = { id: nextId++, question, answer: "", sources: [], done: false };
    const update = (patch: Partial<Turn>) => {
      turn = { ...turn, ...patch };
      setCurrent(turn);
    };
    setCurrent(turn);
    const ac = new AbortController();
    busy.current = ac;
    try {
      const r = await session.ask(
        kbRef.current,
        question,
        history,
        { label: labelRef.current },
        (text: string, item: AskItem) => {
          if (item.type === "retrieval") update({ rephrased: item.results.rephrased_query });
          if (text) update({ answer: turn.answer + text });
        },
        ac.signal,
      );
      const failed = r.items.find((i): i is Extract<AskItem, { type: "error" }> => i.type === "error");
      update({ answer: r.answer, sources: r.sources, done: true, error: failed?.error, learningId: r.learningId });
    } catch (e) {
      update({ done: true, error: ac.signal.aborted ? "stopped" : (e as Error).message });
    } finally {
      busy.current = undefined;
    }
    if (!turn.error) turns.current = [...turns.current, turn];
    print({ id: turn.id, turn });
    setCurrent(undefined);
  };

  const command = async (text: string) => {
    const [cmd = "", ...rest] = text.slice(1).trim().split(/\s+/);
    const arg = rest.join(" ");
    if (cmd === "quit" || cmd === "exit") return exit();
    if (cmd === "help") return setNotice(HELP);
    if (cmd === "clear") {
      turns.current = [];
      print(note("── new conversation (follow-ups start afresh) ──", "gray"));
      return setNotice("conversation cleared");
    }
    if (cmd === "copy") {
      const last = turns.current.at(-1);
      if (!last) return setNotice("nothing to copy yet");
      session.copy(last.answer);
      return setNotice("answer copied to the clipboard");
    }
    if (cmd === "good" || cmd === "bad") {
      const last = turns.current.at(-1);
      if (!last?.learningId || !session.feedback) return setNotice("no answer to rate yet");
      try {
        await session.feedback(kbRef.current, last.learningId, cmd === "good", arg || undefined);
      } catch (e) {
        return setNotice(`feedback failed: ${(e as Error).message}`);
      }
      return setNotice(`feedback recorded: ${cmd}${arg ? ` (${arg})` : ""}`);
    }
    if (cmd === "filter") {
      setLabel(arg && arg !== "off" ? arg : undefined);
      return setNotice(arg && arg !== "off" ? `filter: label ${arg}` : "filter off");
    }
    if (cmd === "kb") {
      let all: KbRef[];
      try {
        all = await session.kbs();
      } catch (e) {
        return setNotice(`cannot list knowledge boxes: ${(e as Error).message}`);
      }
      const names = all.map((k) => k.slug).join(", ");
      if (!arg) return setNotice(`knowledge boxes: ${names} (now ${kbRef.current.slug})`);
      const next = all.find((k) => k.slug === arg || k.uuid === arg);
      if (!next) return print(note(`no knowledge box "${arg}"; there are: ${names}`, "red"));
      setKb(next);
      turns.current = [];
      print(note(`── switched to ${next.slug} (a new conversation) ──`, "cyan"));
      return setNotice(`kb ${next.slug}`);
    }
    const near = COMMANDS.filter((c) => cmd && c.startsWith(cmd.slice(0, 1)));
    print(note(`unknown command /${cmd}${near.length ? ` (try ${near.map((c) => `/${c}`).join(", ")})` : ""}; ${HELP}`, "red"));
  };

  useInput((ch, key) => {
    if (key.escape) {
      busy.current?.abort();
      return;
    }
    // A pasted line (or keys typed faster than they are read) arrives as one chunk with its newline:
    // ink reports it as text, not as Enter, so the newline is looked for here.
    const newline = !key.return && ch ? ch.search(/[\r\n]/) : -1;
    if (newline >= 0) setInput((s) => s + ch.slice(0, newline));
    if (key.return || newline >= 0) {
      const text = line.current.trim();
      // A line entered while an answer streams stays in the input until it has finished.
      if (busy.current) return;
      setInput("");
      if (!text) return;
      // In order: a question typed right after `/kb other` goes to the other box.
      chain.current = chain.current.then(() => (text.startsWith("/") ? command(text) : ask(text))).catch(() => undefined);
      return;
    }
    if (key.backspace || key.delete) return setInput((s) => s.slice(0, -1));
    if (key.ctrl && ch === "y") return void command("/copy");
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return;
    if (ch) setInput((s) => s + ch);
  });

  // The live part: at most rows - 3 lines of the turn being answered (its latest lines), the input and status lines.
  const live = current ? turnLines(current, width).slice(-(rows - 3)) : [];
  const prompt = `ask> ${input}`;
  return (
    <>
      <Static items={log}>
        {(e) => (
          <Box key={e.id} flexDirection="column">
            {"turn" in e
              ? turnLines(e.turn, width).map((l) => <Line key={l.key} line={l} />)
              : numbered(wrapLines(e.note, width).map((text) => ({ text }))).map((l) => (
                  <Text key={l.key} color={e.color === "banner" ? undefined : e.color} bold={e.color === "banner"}>
                    {l.text}
                  </Text>
                ))}
          </Box>
        )}
      </Static>
      <Box flexDirection="column">
        {live.map((l) => (
          <Line key={l.key} line={l} />
        ))}
        <Text>
          <Text color="cyan">{"ask> "}</Text>
          {fit(prompt, width - 1).slice(5)}
          <Text inverse> </Text>
        </Text>
        <Text dimColor>
          {fit(
            busy.current ? "answering… (Esc to stop)" : `${kb.slug}${label ? ` · label ${label}` : ""} · ${notice}`,
            width - 1,
          )}
        </Text>
      </Box>
    </>
  );
}

function header(kb: KbRef, model?: string): string {
  return `kbox chat · kb ${kb.slug}${model ? ` · ${model}` : ""} · /help for commands`;
}

/** A line of the transcript and how it is drawn. */
interface Styled {
  text: string;
  style?: "question" | "searched" | "error" | "heading" | "source";
  /** Its line number in the turn: lines are only ever appended, so it is a stable React key. */
  key?: number;
}

const numbered = (lines: Styled[]): Styled[] => lines.map((l, key) => ({ ...l, key }));

/** The lines of one turn at `width` columns: question, what was searched, the answer, sources. */
function turnLines(t: Turn, width: number): Styled[] {
  const out: Styled[] = wrapLines(`› ${t.question}`, width).map((text) => ({ text, style: "question" as const }));
  if (t.rephrased)
    out.push(...wrapLines(`  searched: ${t.rephrased}`, width).map((text) => ({ text, style: "searched" as const })));
  out.push(...wrapLines(t.answer || (t.done ? "" : "…"), width).map((text) => ({ text })));
  if (t.error) out.push(...wrapLines(`error: ${t.error}`, width).map((text) => ({ text, style: "error" as const })));
  if (t.done && t.sources.length) {
    out.push({ text: "Sources", style: "heading" });
    out.push(...sourceLines(t.sources, width - 2).map((text) => ({ text: `  ${text}`, style: "source" as const })));
  }
  if (t.done) out.push({ text: "" });
  return numbered(out);
}

function Line({ line }: { line: Styled }) {
  const s = line.style;
  return (
    <Text
      color={s === "question" ? "green" : s === "error" ? "red" : undefined}
      dimColor={s === "searched" || s === "source"}
      bold={s === "heading"}
    >
      {line.text || " "}
    </Text>
  );
}
