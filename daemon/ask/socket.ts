/**
 * The agentic ask socket: each question is an ask with the socket's agentic configuration (and
 * search configuration, security groups); its stream is sent as AragAnswer messages: a step for
 * the retrieval, the answer's text as it comes, the citations, then operation 3 (done), or 4 with
 * the error.
 */
import type { WebSocket } from "ws";
import type { AgenticSocketQuery } from "../../src/api/agentic-socket.js";
import type { AragAnswer } from "../../src/api/agents.js";
import type { AskBody } from "../../src/api/ask.js";
import type { Principal } from "../auth/principal.js";
import { KboxError } from "../errors.js";
import type { AskService } from "./service.js";

const bodyOf = (q: AgenticSocketQuery, question: string): AskBody =>
  ({
    query: question,
    agentic_config_id: q.agentic_config_id,
    search_configuration: q.search_configuration,
    security: q.groups.length ? { groups: q.groups } : undefined,
  }) as AskBody;

/** Before the handshake: the same 404 and 400 as POST ask with this configuration. */
export async function checkAgenticSocket(ask: AskService, kbid: string, q: AgenticSocketQuery, principal: Principal) {
  await ask.prepare(kbid, bodyOf(q, "check"), { principal });
}

/** Answer the socket's questions, one at a time. */
export function serveAgenticSocket(ws: WebSocket, ask: AskService, kbid: string, q: AgenticSocketQuery, principal: Principal) {
  let seqid = 1;
  let running: AbortController | undefined;
  const send = (m: AragAnswer) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify({ ...m, seqid: seqid++ }));
    if ((m.operation === 3 || m.operation === 4) && !q.keep_open) ws.close(1000);
  };
  const fail = (detail: string) => send({ exception: { detail }, operation: 4 });
  ws.on("close", () => running?.abort());
  ws.on("message", (data) => {
    let msg: { question?: unknown; operation?: unknown };
    try {
      msg = JSON.parse(String(data));
    } catch {
      return fail("A message is one JSON object: {question, operation, headers}");
    }
    if (msg.operation === 1) {
      running?.abort();
      ws.close(1000);
      return;
    }
    if (typeof msg.question !== "string" || !msg.question.trim()) return fail("A message needs a question");
    if (running) return fail("This socket is answering another question: wait for it");
    const abort = new AbortController();
    running = abort;
    void (async () => {
      try {
        const p = await ask.prepare(kbid, bodyOf(q, msg.question as string), { principal, signal: abort.signal });
        send({ operation: 2 });
        const started = Date.now();
        let answer = "";
        let citations: Record<string, unknown> | undefined;
        for await (const item of ask.run(p)) {
          if (item.type === "answer") {
            answer += item.text;
            send({ generated_text: item.text, operation: 0 });
          } else if (item.type === "retrieval") {
            const n = Object.keys(item.results.resources ?? {}).length;
            const query = item.results.rephrased_query ?? msg.question;
            const timeit = (Date.now() - started) / 1000;
            const value = `${n} resources for: ${query}`;
            send({ step: { module: "basic_ask", title: "retrieval", value, agent_path: "retrieval", timeit }, operation: 0 });
          } else if (item.type === "citations") citations = item.citations;
          else if (item.type === "error") throw new Error(item.error);
        }
        send({ answer, answer_citations: citations ? { metadata: citations } : undefined, operation: 0 });
        send({ operation: 3 });
      } catch (e) {
        fail(e instanceof KboxError ? e.message : `The answer failed: ${(e as Error).message}`);
      } finally {
        running = undefined;
      }
    })();
  });
}
