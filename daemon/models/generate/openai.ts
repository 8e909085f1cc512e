import { KboxError } from "../../errors.js";
import { type FetchPolicy, guardedFetch } from "../../net/outbound.js";
import { errorMessage, sseData } from "./sse.js";
import { type GenChunk, type GenerateRequest, GenerationError, type Generator, type ToolCall, type ToolChoice } from "./types.js";

/** Where an OpenAI-compatible endpoint lives and how to authenticate to it. */
export interface OpenAiEndpoint {
  /** Base URL (`http://127.0.0.1:11434/v1`) or the full `/chat/completions` URL. */
  url: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** What the daemon may reach (daemon/net/outbound.ts). */
  policy: FetchPolicy;
}

/** The chat-completions URL of an endpoint base. */
export function completionsUrl(base: string): string {
  const u = base.replace(/\/+$/, "");
  return u.endsWith("/chat/completions") ? u : `${u}/chat/completions`;
}

interface StreamDelta {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

/** Any OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp server, vLLM, a hosted one, another kbox). */
export class OpenAiGenerator implements Generator {
  readonly kind = "openai" as const;
  readonly id: string;

  constructor(private readonly ep: OpenAiEndpoint) {
    this.id = `openai:${ep.model}`;
  }

  /** The request body kbox sends; exported so the benchmark can call the endpoint with the same prompt. */
  body(req: GenerateRequest): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.ep.model,
      messages: req.messages,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (req.maxTokens) body.max_tokens = req.maxTokens;
    if (req.seed !== undefined) body.seed = req.seed;
    if (req.jsonSchema) {
      body.response_format = {
        type: "json_schema",
        json_schema: { name: req.jsonSchema.name, description: req.jsonSchema.description, schema: req.jsonSchema.parameters },
      };
    }
    if (req.reasoning) body.reasoning_effort = "medium";
    if (req.tools?.length) {
      body.tools = req.tools.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      if (req.toolChoice) body.tool_choice = openAiToolChoice(req.toolChoice);
    }
    return body;
  }

  async *generate(req: GenerateRequest): AsyncIterable<GenChunk> {
    const res = await this.post(req);
    if (!res.body) throw new GenerationError("model endpoint sent no body");
    let text = "";
    let usage: GenChunk | undefined;
    // Streamed tool calls arrive in pieces by index: the id and name first, the arguments in fragments.
    const calls: ToolCall[] = [];
    try {
      for await (const data of sseData(res.body, req.signal)) {
        const d = parse(data);
        if (d.error)
          throw new GenerationError(`model error: ${typeof d.error === "string" ? d.error : (d.error.message ?? "unknown")}`);
        const delta = d.choices?.[0]?.delta;
        const reasoning = delta?.reasoning_content ?? delta?.reasoning;
        if (reasoning) yield { type: "reasoning", text: reasoning };
        if (delta?.content) {
          text += delta.content;
          if (!req.jsonSchema) yield { type: "text", text: delta.content };
        }
        for (const t of delta?.tool_calls ?? []) {
          const i = t.index ?? calls.length;
          calls[i] ??= { id: t.id ?? `call_${i}`, type: "function", function: { name: "", arguments: "" } };
          if (t.id) calls[i].id = t.id;
          if (t.function?.name) calls[i].function.name += t.function.name;
          if (t.function?.arguments) calls[i].function.arguments += t.function.arguments;
        }
        if (d.usage) usage = { type: "usage", input: d.usage.prompt_tokens ?? 0, output: d.usage.completion_tokens ?? 0 };
      }
    } catch (e) {
      if (req.signal?.aborted) return;
      if (e instanceof GenerationError) throw e;
      throw new GenerationError(`model stream failed: ${(e as Error).message}`);
    }
    if (req.signal?.aborted) return;
    const made = calls.filter(Boolean);
    if (made.length) yield { type: "tools", calls: made };
    else if (req.jsonSchema) yield { type: "json", object: parseObject(text) };
    if (usage) yield usage;
  }

  private async post(req: GenerateRequest): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...this.ep.headers,
    };
    if (this.ep.apiKey) headers.authorization = `Bearer ${this.ep.apiKey}`;
    let res: Response;
    try {
      res = await guardedFetch(
        completionsUrl(this.ep.url),
        { method: "POST", headers, body: JSON.stringify(this.body(req)), signal: req.signal, maxRedirects: 0 },
        this.ep.policy,
      );
    } catch (e) {
      if (e instanceof KboxError) throw new GenerationError(e.message);
      throw new GenerationError(`cannot reach model endpoint ${this.ep.url}: ${(e as Error).cause ?? (e as Error).message}`);
    }
    if (!res.ok) {
      const detail = await errorMessage(res);
      throw new GenerationError(`model endpoint answered ${res.status}${detail ? `: ${detail}` : ""}`);
    }
    return res;
  }
}

/** Predict Chat's tool choice as OpenAI's `tool_choice`. */
function openAiToolChoice(c: ToolChoice): unknown {
  if (c.type === "forced") return { type: "function", function: { name: c.name } };
  return c.type;
}

function parse(data: string): StreamDelta {
  try {
    return JSON.parse(data) as StreamDelta;
  } catch {
    throw new GenerationError(`model sent invalid JSON in its stream: ${data.slice(0, 200)}`);
  }
}

/** Models sometimes wrap JSON in a code fence; take the outermost object. */
export function parseObject(text: string): Record<string, unknown> {
  const s = text.indexOf("{");
  const e = text.lastIndexOf("}");
  try {
    const v = JSON.parse(s >= 0 && e > s ? text.slice(s, e + 1) : text);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new GenerationError("model did not answer with a JSON object for answer_json_schema");
}
