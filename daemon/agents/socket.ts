/**
 * The WebSocket interaction (the JS SDK's default). Each session keeps the messages of its latest
 * interactions in memory, numbered by a seqid that grows across them: an interaction runs to its end
 * even when its socket drops, and a socket opened with `from_cursor` (the last seqid seen + 1)
 * replays what it missed and follows the rest live. The question a resuming client sends again is
 * not asked twice.
 */
import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import type { SocketQuery } from "../../src/api/agent-socket.js";
import { type AragAnswer, InteractionRequest } from "../../src/api/agents.js";
import type { Principal } from "../auth/principal.js";
import { KboxError, notFound } from "../errors.js";
import type { AgentConfigService } from "./config.js";
import type { InteractionService } from "./interact.js";
import { EPHEMERAL, SessionService } from "./sessions.js";
import { AgentTables } from "./tables.js";

/** Messages a session keeps for resuming (its latest interactions). */
const KEEP_MESSAGES = 2000;
/** How long a session's messages stay resumable after its last interaction. */
const KEEP_IDLE_MS = 3600_000;

/** One interaction, running apart from the sockets that follow it. */
interface Run {
  question: string;
  done: boolean;
  abort: AbortController;
  listeners: Set<(m: AragAnswer) => void>;
  finished: Promise<void>;
}

interface SessionLog {
  next: number;
  /** When its last interaction ended: logs idle longer than KEEP_IDLE_MS are dropped. */
  touched: number;
  messages: AragAnswer[];
  current?: Run;
}

export interface SocketTarget {
  agentId: string;
  /** The session's id (EPHEMERAL: none). */
  session: string;
  workflowId: string;
}

const failure = (detail: string): AragAnswer => ({ exception: { detail }, operation: 4 });

export class AgentSockets {
  private readonly logs = new Map<string, SessionLog>();
  private readonly runs = new Set<Run>();

  constructor(
    private readonly config: AgentConfigService,
    private readonly interactions: InteractionService,
  ) {}

  /** Before the handshake: the agent, the workflow and the session (created when asked), else the HTTP error. */
  async resolve(agentId: string, sessionRef: string, workflowId: string, create: boolean): Promise<SocketTarget> {
    const agent = await this.config.open(agentId);
    AgentTables.workflow(agent, workflowId);
    if (sessionRef === EPHEMERAL || agent.kb.mode === "agent_no_memory")
      return { agentId: agent.kb.uuid, session: EPHEMERAL, workflowId };
    try {
      return { agentId: agent.kb.uuid, session: SessionService.find(agent, sessionRef).id, workflowId };
    } catch (e) {
      if (!create || !(e instanceof KboxError) || e.status !== 404) throw e;
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(sessionRef))
        throw notFound("Session not found (a new session's id: letters, digits, _ -)");
      const now = new Date().toISOString();
      await agent.sessions.put(sessionRef, {
        id: sessionRef,
        slug: sessionRef,
        name: sessionRef,
        summary: "",
        data: "",
        format: "PLAIN",
        created: now,
        modified: now,
        history: [],
      });
      return { agentId: agent.kb.uuid, session: sessionRef, workflowId };
    }
  }

  /** Serve an open socket: replay from the cursor, then answer its questions. */
  serve(ws: WebSocket, t: SocketTarget, q: Omit<SocketQuery, "workflow_id">, principal: Principal): void {
    // An ephemeral session is one socket's: nothing to resume from elsewhere.
    const key = t.session === EPHEMERAL ? `${t.agentId}/${randomUUID()}` : `${t.agentId}/${t.session}`;
    const now = Date.now();
    for (const [k, l] of this.logs) if ((!l.current || l.current.done) && now - l.touched > KEEP_IDLE_MS) this.logs.delete(k);
    let log = this.logs.get(key);
    if (!log) {
      log = { next: 1, touched: now, messages: [] };
      this.logs.set(key, log);
    }
    const send = (m: AragAnswer) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(JSON.stringify(m));
      if ((m.operation === 3 || m.operation === 4) && !q.keep_open) ws.close(1000);
    };
    let following: Run | undefined;
    const follow = (run: Run) => {
      following = run;
      run.listeners.add(send);
    };
    ws.on("close", () => {
      following?.listeners.delete(send);
      if (t.session === EPHEMERAL) this.logs.delete(key);
    });

    let resent: string | undefined;
    if (q.from_cursor !== undefined) {
      const first = log.messages[0]?.seqid ?? log.next;
      if (q.from_cursor < first || q.from_cursor > log.next) {
        send(failure(`Cannot resume from cursor ${q.from_cursor}: this session's messages are ${first} to ${log.next - 1}`));
        ws.close(1000);
        return;
      }
      for (const m of log.messages) if ((m.seqid ?? 0) >= q.from_cursor) send(m);
      if (log.current && !log.current.done) {
        follow(log.current);
        resent = log.current.question;
      }
    }

    ws.on("message", (data) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        return send(failure("A message is one JSON object: {question, operation, headers}"));
      }
      // Answers to agent requests (kbox makes none) are ignored.
      if ("request_id" in msg && !("question" in msg)) return;
      const parsed = InteractionRequest.safeParse({ ...msg, streaming: true });
      if (!parsed.success) return send(failure(`Bad message: ${parsed.error.issues.map((i) => i.message).join("; ")}`));
      const req = parsed.data;
      if (req.operation === 1) {
        following?.abort.abort();
        ws.close(1000);
        return;
      }
      // The question a resuming client sends again: it is already being answered.
      if (resent !== undefined && req.question === resent) {
        resent = undefined;
        return;
      }
      resent = undefined;
      if (log.current && !log.current.done) return send(failure("This session is answering another question: wait for it"));
      const run = this.start(log, t, req, principal);
      follow(run);
    });
  }

  private start(log: SessionLog, t: SocketTarget, req: InteractionRequest, principal: Principal): Run {
    const run: Run = {
      question: req.question,
      done: false,
      abort: new AbortController(),
      listeners: new Set(),
      finished: Promise.resolve(),
    };
    log.current = run;
    const publish = (m: AragAnswer) => {
      const out = { ...m, seqid: log.next++ };
      log.messages.push(out);
      if (log.messages.length > KEEP_MESSAGES) log.messages.splice(0, log.messages.length - KEEP_MESSAGES);
      for (const l of [...run.listeners]) l(out);
    };
    run.finished = (async () => {
      try {
        const p = await this.interactions.prepare(t.agentId, t.session, t.workflowId, req, {
          principal,
          signal: run.abort.signal,
        });
        for await (const m of this.interactions.run(p)) publish(m);
      } catch (e) {
        const detail = e instanceof KboxError ? e.message : `The interaction failed: ${(e as Error).message}`;
        publish(failure(detail));
      } finally {
        run.done = true;
        log.touched = Date.now();
        this.runs.delete(run);
      }
    })();
    this.runs.add(run);
    return run;
  }

  /** The daemon stops: interactions are aborted and awaited. */
  async close(): Promise<void> {
    const runs = [...this.runs];
    for (const r of runs) r.abort.abort();
    await Promise.all(runs.map((r) => r.finished));
  }
}
