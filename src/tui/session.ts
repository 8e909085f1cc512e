import type { AskItem, ChatMessage } from "../client/routes/ask.js";
import type { Source } from "./answer.js";

/** A knowledge box the chat can switch to. */
export interface KbRef {
  slug: string;
  uuid: string;
}

/** Everything the chat UI needs from outside; the command supplies it (the UI makes no network calls). */
export interface ChatSession {
  kbs(): Promise<KbRef[]>;
  ask(
    kb: KbRef,
    question: string,
    history: ChatMessage[],
    filters: { label?: string },
    onText: (text: string, item: AskItem) => void,
    signal: AbortSignal,
  ): Promise<{ answer: string; sources: Source[]; items: AskItem[]; learningId?: string }>;
  /** Say whether an answer (by its learning id) was good; it lands on the ask's activity row. */
  feedback?(kb: KbRef, learningId: string, good: boolean, text?: string): Promise<void>;
  copy(text: string): void;
  kb: KbRef;
  model?: string;
}

/** One question and its answer. */
export interface Turn {
  /** Stable key for rendering. */
  id: number;
  question: string;
  answer: string;
  sources: Source[];
  rephrased?: string | null;
  error?: string;
  done: boolean;
  /** The answer's id for feedback (/good, /bad). */
  learningId?: string;
}

/** The conversation as chat_history for the next question. */
export function historyOf(turns: Turn[]): ChatMessage[] {
  return turns
    .filter((t) => t.done && !t.error)
    .flatMap((t): ChatMessage[] => [
      { author: "USER", text: t.question },
      { author: "NUCLIA", text: t.answer },
    ]);
}
