import type { AskBody, ChatMessage as WireMessage } from "../../src/api/ask.js";
import { NO_ANSWER } from "../models/generate/extractive.js";
import type { ChatMessage, ContextPiece } from "../models/generate/types.js";

const SYSTEM =
  "You are a helpful assistant. Answer questions using only the context you are given, in the language of the question. " +
  `If the context does not contain the answer, reply exactly: ${NO_ANSWER}`;

const USER = "Answer the question based only on the context below.\n\nContext:\n{context}\n\nQuestion: {question}\nAnswer:";

/** The context as the prompt shows it: one block per piece, with its footnote key when asked. */
export function renderContext(pieces: ContextPiece[]): string {
  return pieces.map((p) => (p.block ? `[${p.block}] ${p.text}` : p.text)).join("\n\n");
}

function fill(template: string, context: string, question: string): string {
  // Accept both the service's `{context}` and a doubled-brace spelling.
  return template.replace(/\{\{?context\}?\}/g, () => context).replace(/\{\{?question\}?\}/g, () => question);
}

/** Render system + history + user messages from the request's prompt (string or {system, user}) and the context. */
export function renderPrompt(
  body: AskBody,
  question: string,
  pieces: ContextPiece[],
  history: WireMessage[],
  footnotes: boolean,
): ChatMessage[] {
  const custom = typeof body.prompt === "string" ? { user: body.prompt } : (body.prompt ?? {});
  const context = renderContext(pieces);
  let system = custom.system ? fill(custom.system, context, question) : SYSTEM;
  if (body.prefer_markdown) system += " Format the answer in Markdown.";
  if (footnotes) system += " After each sentence that uses a context block, cite it with its key in brackets, e.g. [block-AA].";
  if (body.answer_json_schema) system += ` Answer with a JSON object that follows the schema "${body.answer_json_schema.name}".`;
  let user = custom.user ?? USER;
  if (!/\{\{?context\}?\}/.test(user) && !(custom.system && /\{\{?context\}?\}/.test(custom.system)))
    user = `Context:\n{context}\n\n${user}`;
  if (!/\{\{?question\}?\}/.test(user)) user = `${user}\n\nQuestion: {question}`;
  return [
    { role: "system", content: system },
    ...history.map((m): ChatMessage => ({ role: m.author === "USER" ? "user" : "assistant", content: m.text })),
    { role: "user", content: fill(user, context, question) },
  ];
}
