import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the stand-in answers one chat-completions request. */
export interface Script {
  /** Text pieces to stream (or the whole content when not streaming). */
  chunks: string[];
  reasoning?: string[];
  /** Destroy the connection after this many chunks. */
  failAfter?: number;
  /** Delay between chunks, ms. */
  delayMs?: number;
  status?: number;
  /** Tool calls to answer instead of (or after) the text; streamed in two argument fragments each. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

/**
 * A local OpenAI-compatible chat-completions server (a real HTTP server on 127.0.0.1:0) standing in
 * for Ollama/vLLM/a hosted endpoint. It records requests and notices clients that hang up early.
 */
export class OpenAiStandIn {
  readonly requests: Record<string, any>[] = [];
  /** Requests whose client went away before the stream ended. */
  aborted = 0;
  script: (body: Record<string, any>) => Script = () => ({ chunks: ["Hello", " world."] });
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OpenAiStandIn> {
    let self!: OpenAiStandIn;
    const server = createServer((req, res) => void self.handle(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    self = new OpenAiStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return self;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const c of req) raw += c;
    const body = raw ? JSON.parse(raw) : {};
    this.requests.push({ path: req.url, headers: req.headers, ...body });
    const s = this.script(body);
    if (s.status && s.status !== 200) {
      res
        .writeHead(s.status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "stand-in refused" } }));
      return;
    }
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "x",
          object: "chat.completion",
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: s.chunks.join("") || null,
                ...(s.toolCalls?.length
                  ? {
                      tool_calls: s.toolCalls.map((t, i) => ({
                        id: `call_${i}`,
                        type: "function",
                        function: { name: t.name, arguments: JSON.stringify(t.arguments) },
                      })),
                    }
                  : {}),
              },
              finish_reason: s.toolCalls?.length ? "tool_calls" : "stop",
            },
          ],
          usage: { prompt_tokens: 11, completion_tokens: 7 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    let finished = false;
    res.on("close", () => {
      if (!finished) this.aborted++;
    });
    const send = (delta: Record<string, unknown>) =>
      res.write(
        `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: body.model, choices: [{ index: 0, delta }] })}\n\n`,
      );
    for (const r of s.reasoning ?? []) send({ reasoning_content: r });
    for (let i = 0; i < s.chunks.length; i++) {
      if (res.destroyed) return;
      if (s.failAfter !== undefined && i >= s.failAfter) {
        // Let the chunks already written reach the client, then drop the connection mid-stream.
        await new Promise((r) => setTimeout(r, 50));
        res.socket?.destroy();
        return;
      }
      send({ content: s.chunks[i] });
      if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
    }
    for (const [index, t] of (s.toolCalls ?? []).entries()) {
      const args = JSON.stringify(t.arguments);
      const half = Math.floor(args.length / 2);
      send({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: t.name, arguments: "" } }] });
      send({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
      send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
    }
    res.write(
      `data: ${JSON.stringify({ id: "x", choices: [], usage: { prompt_tokens: 11, completion_tokens: s.chunks.length } })}\n\n`,
    );
    res.write("data: [DONE]\n\n");
    finished = true;
    res.end();
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}
