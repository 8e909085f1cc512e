/**
 * The generator interface: every way kbox produces an answer (an OpenAI-compatible endpoint, a
 * local GGUF model, a zone's predict chat, the offline extractive answerer) streams the same chunks.
 */

export interface ChatMessage {
  /** `tool`: the result of a tool call the model asked for (OpenAI-compatible models only). */
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** The tool calls of an assistant turn. */
  tool_calls?: ToolCall[];
  /** The call a `tool` turn answers, and the tool's name. */
  tool_call_id?: string;
  name?: string;
}

/** A tool the model may call: a function's name, description and JSON-schema parameters. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** Whether and which tool the model must call (`forced` names one). */
export interface ToolChoice {
  type: "auto" | "none" | "required" | "forced";
  name?: string;
}

/** A tool call as the model made it (OpenAI's shape; `arguments` is JSON text). */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One piece of the retrieval context, as the prompt shows it. */
export interface ContextPiece {
  /** Paragraph id (or a synthetic key such as `extra_context/0`). */
  id: string;
  text: string;
  /** Footnote key for `llm_footnotes` (`block-AA`). */
  block?: string;
  /** The title of the paragraph's resource (the extractive answerer matches names in it). */
  title?: string;
}

/** A JSON schema the answer must follow (answer_json_schema / response_format). */
export interface JsonSchemaSpec {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export interface GenerateRequest {
  /** The rendered prompt, system first; LLM generators send it as is. */
  messages: ChatMessage[];
  /** The question as asked; the extractive answerer scores against it. */
  question: string;
  /** The standalone query retrieval used (the question rephrased with the chat history), when it differs. */
  retrievalQuery?: string;
  /** The context paragraphs in prompt order. */
  context: ContextPiece[];
  maxTokens?: number;
  seed?: number;
  jsonSchema?: JsonSchemaSpec;
  reasoning?: boolean;
  /** Tools the model may call, and the choice; only OpenAI-compatible generators call tools. */
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  /** Ask for footnotes `[block-AA]` after the sentences they support. */
  footnotes?: boolean;
  signal?: AbortSignal;
}

export type GenChunk =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "json"; object: Record<string, unknown> }
  | { type: "tools"; calls: ToolCall[] }
  | { type: "usage"; input: number; output: number };

export type GeneratorKind = "extractive" | "openai" | "gguf" | "predict";

/** Something that answers: streams chunks for a prompt. */
export interface Generator {
  /** The model name as requests spell it (`extractive`, `openai:gpt-4o-mini`, `gguf:/m.gguf`). */
  readonly id: string;
  readonly kind: GeneratorKind;
  generate(req: GenerateRequest): AsyncIterable<GenChunk>;
  close?(): Promise<void>;
}

/** The model failed (unreachable, bad status, broken stream); the ask stream turns it into an error item. */
export class GenerationError extends Error {}

/** Generator kinds that pass tools to their model and return its tool calls. */
export const TOOL_CALLING: readonly GeneratorKind[] = ["openai"];

/** Rough token count (4 characters a token), for budgets and metadata when a model reports none. */
export function approxTokens(text: string): number {
  return text ? Math.max(1, Math.ceil(text.length / 4)) : 0;
}
