import { Box, Text, useApp, useInput, useStdout } from "ink";
import { useRef, useState } from "react";
import type { AskItem } from "../client/routes/ask.js";
import { sourceLines } from "./answer.js";
import { type ChatSession, historyOf, type KbRef, type Turn } from "./session.js";

const HELP = "Enter ask · /kb <slug> · /filter <labelset/label>|off · /copy · /clear · Esc stop · Ctrl+C quit";

/** The interactive ask session: conversation, sources of the last answer, input line. Fits 80×24. */
export function ChatApp({ session }: { session: ChatSession }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const width = stdout.columns || 80;
  const rows = stdout.rows || 24;
  const [kb, setKb] = useState<KbRef>(session.kb);
  const [label, setLabel] = useState<string | undefined>();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [input, setInputState] = useState("");
  // Keystrokes can arrive faster than renders: keep the line in a ref so Enter sees all of it.
  const line = useRef("");
  const setInput = (next: string | ((s: string) => string)) => {
    line.current = typeof next === "function" ? next(line.current) : next;
    setInputState(line.current);
  };
  const [notice, setNotice] = useState(HELP);
  const busy = useRef<AbortController | undefined>(undefined);

  const update = (i: number, patch: Partial<Turn>) => setTurns((ts) => ts.map((t, j) => (j === i ? { ...t, ...patch } : t)));

  const ask = async (question: string) => {
    const index = turns.length;
    const history = historyOf(turns);
    setTurns((ts) => [...ts, { id: Date.now() + Math.random(), question, answer: "", sources: [], done: false }]);
    const ac = new AbortController();
    busy.current = ac;
    let answer = "";
    try {
      const r = await session.ask(
        kb,
        question,
        history,
        { label },
        (text: string, item: AskItem) => {
          if (item.type === "retrieval") update(index, { rephrased: item.results.rephrased_query });
          if (!text) return;
          answer += text;
          update(index, { answer });
        },
        ac.signal,
      );
      const failed = r.items.find((i): i is Extract<AskItem, { type: "error" }> => i.type === "error");
      update(index, { answer: r.answer, sources: r.sources, done: true, error: failed?.error });
    } catch (e) {
      update(index, { done: true, error: ac.signal.aborted ? "stopped" : (e as Error).message });
    } finally {
      busy.current = undefined;
    }
  };

  const command = async (line: string) => {
    const [cmd, ...rest] = line.slice(1).trim().split(/\s+/);
    const arg = rest.join(" ");
    if (cmd === "quit" || cmd === "exit") return exit();
    if (cmd === "clear") return (setTurns([]), setNotice("conversation cleared"));
    if (cmd === "copy") {
      const last = turns.filter((t) => t.done).at(-1);
      if (!last) return setNotice("nothing to copy yet");
      session.copy(last.answer);
      return setNotice("answer copied to the clipboard");
    }
    if (cmd === "filter") {
      setLabel(arg && arg !== "off" ? arg : undefined);
      return setNotice(arg && arg !== "off" ? `filter: label ${arg}` : "filter off");
    }
    if (cmd === "kb") {
      const all = await session.kbs();
      const next = all.find((k) => k.slug === arg || k.uuid === arg);
      if (!next) return setNotice(`knowledge boxes: ${all.map((k) => k.slug).join(", ")}`);
      setKb(next);
      setTurns([]);
      return setNotice(`switched to ${next.slug}`);
    }
    setNotice(HELP);
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
      setInput("");
      if (!text || busy.current) return;
      if (text.startsWith("/")) void command(text);
      else void ask(text);
      return;
    }
    if (key.backspace || key.delete) return setInput((s) => s.slice(0, -1));
    if (key.ctrl && ch === "y") return void command("/copy");
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return;
    if (ch) setInput((s) => s + ch);
  });

  const last = turns.at(-1);
  const sources = last?.done ? sourceLines(last.sources, width - 4).slice(0, 4) : [];
  const convoRows = Math.max(3, rows - 5 - (sources.length ? sources.length + 1 : 0));
  return (
    <Box flexDirection="column" width={width} height={rows}>
      <Text wrap="truncate">
        <Text bold>kbox chat</Text> · kb <Text color="cyan">{kb.slug}</Text>
        {session.model ? ` · ${session.model}` : ""}
        {label ? ` · label ${label}` : ""}
      </Text>
      <Box flexDirection="column" height={convoRows} overflow="hidden" justifyContent="flex-end">
        {turns.slice(-3).map((t) => (
          <Box key={t.id} flexDirection="column">
            <Text color="green" wrap="truncate">
              {"› "}
              {t.question}
              {t.rephrased ? <Text dimColor>{`  (searched: ${t.rephrased})`}</Text> : ""}
            </Text>
            <Text wrap="wrap">{t.answer || (t.done ? "" : "…")}</Text>
            {t.error ? <Text color="red">{`error: ${t.error}`}</Text> : null}
          </Box>
        ))}
      </Box>
      {sources.length ? (
        <Box flexDirection="column">
          <Text bold>Sources</Text>
          {sources.map((s) => (
            <Text key={s} dimColor wrap="truncate">
              {s}
            </Text>
          ))}
        </Box>
      ) : null}
      <Text wrap="truncate">
        <Text color="cyan">{"ask> "}</Text>
        {input}
        <Text inverse> </Text>
      </Text>
      <Text dimColor wrap="truncate">
        {busy.current ? "answering… (Esc to stop)" : notice}
      </Text>
    </Box>
  );
}
