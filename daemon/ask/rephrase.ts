import type { ChatMessage } from "../../src/api/ask.js";
import { STOPWORDS, terms, words } from "../models/generate/text.js";
import type { Generator, ChatMessage as GenMessage } from "../models/generate/types.js";

// Words that point back at the conversation. "that" only where it stands for a thing ("is that free?",
// "about that"), not as a conjunction or relative pronoun ("a file that contains"); "one" only as
// "which one", "the other one"; "there" not in "is there", "there are".
const ANAPHORA =
  /\b(it|its|this|these|those|they|them|their|he|him|his|she|her|the same|above|former|latter)\b|(^|\b(is|was|does|do|did|about|of|with|for|use|in|on|to|like|than)\s+)that\b|\b(which|the other|that|another|the first|the second|the last)\s+ones?\b|\bthere\b(?!\s+(is|are|was|were|be)\b)/i;
/** Openings of a follow-up that continues the previous question ("and the price?", "what about Paris?"). */
const CONTINUATION = /^\s*(and|but|also|or|so|then|what about|how about|same for|and what about)\b/i;

/**
 * How much a question leans on the conversation before it, 0..1: pronouns, continuations ("what
 * about…") and questions with no topic word of their own ("and when?") lean a lot; a
 * self-contained question ("How do I create a tar archive?") barely, even after an unrelated turn.
 */
export function historyRelevance(question: string, history: ChatMessage[]): number {
  if (!history.length) return 0;
  const q = terms(question);
  const bare = question.replace(/\b(is|are|was|were)\s+there\b/gi, "");
  let score = 0.1;
  if (ANAPHORA.test(bare)) score += 0.6;
  if (CONTINUATION.test(question)) score += 0.6;
  if (q.length === 0) score += 0.6;
  else if (q.length <= 2) score += 0.2;
  const hist = new Set(history.flatMap((m) => terms(m.text)));
  if (q.length && q.filter((t) => hist.has(t)).length / q.length >= 0.5) score += 0.1;
  return Math.min(1, score);
}

/** Should the query be rephrased with the history? (threshold 0: always; 1: never) */
export function shouldRephrase(
  question: string,
  history: ChatMessage[],
  rephrase: boolean | undefined,
  threshold: number | null | undefined,
): boolean {
  if (!history.length) return false;
  if (threshold != null) return threshold < 1 && historyRelevance(question, history) >= threshold;
  return rephrase === true;
}

/**
 * A standalone query for retrieval: the follow-up plus the topic words of the latest user turns it
 * leans on (the ones it does not already say), most recent first.
 */
export function rephraseQuery(question: string, history: ChatMessage[]): string {
  const have = new Set(terms(question));
  const extra: string[] = [];
  for (const m of [...history].reverse()) {
    if (m.author !== "USER") continue;
    for (const w of words(m.text)) {
      if (STOPWORDS.has(w) || w.length < 3) continue;
      const t = terms(w)[0];
      if (!t || have.has(t)) continue;
      have.add(t);
      extra.push(w);
    }
    if (extra.length >= 3) break;
  }
  const base = question.trim().replace(/[?.!\s]+$/, "");
  return extra.length ? `${base} ${extra.slice(0, 8).join(" ")}` : question.trim();
}

const REPHRASE_PROMPT =
  "Rewrite the last question of the conversation as one standalone search query that needs no conversation to be " +
  "understood. Reply with the query only.\n\nQuestion: {question}";

/**
 * Rephrase with a model (an agentic configuration's rephrase section): its prompt with `{question}`
 * (the question is appended when the prompt has no placeholder) and `{history}`; the history also
 * goes before it as messages when the prompt does not place it. The model's reply, trimmed, is the query.
 */
export async function modelRephrase(
  generator: Generator,
  prompt: string | undefined,
  question: string,
  history: ChatMessage[],
  signal?: AbortSignal,
): Promise<string> {
  let user = prompt ?? REPHRASE_PROMPT;
  const conversation = history.map((m) => `${m.author === "USER" ? "User" : "Assistant"}: ${m.text}`).join("\n");
  const placesHistory = /\{\{?history\}?\}/.test(user);
  user = user.replace(/\{\{?history\}?\}/g, () => conversation);
  user = /\{\{?question\}?\}/.test(user) ? user.replace(/\{\{?question\}?\}/g, () => question) : `${user}\n\n${question}`;
  const messages: GenMessage[] = [
    ...(placesHistory
      ? []
      : history.map((m): GenMessage => ({ role: m.author === "USER" ? "user" : "assistant", content: m.text }))),
    { role: "user", content: user },
  ];
  let out = "";
  for await (const c of generator.generate({ messages, question, context: [], maxTokens: 256, signal }))
    if (c.type === "text") out += c.text;
  const q = out
    .trim()
    .replace(/^["'“]+|["'”]+$/g, "")
    .trim();
  return q || question;
}
