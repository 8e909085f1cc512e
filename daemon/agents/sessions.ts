/** An agent's sessions: records shaped as resources, with the interaction history as a conversation. */
import { randomUUID } from "node:crypto";
import type { SessionBody, SessionRecord } from "../../src/api/agents.js";
import { badRequest, conflict, notFound } from "../errors.js";
import type { Agent, AgentTables, HistoryTurn, SessionDoc } from "./tables.js";

/** The session id that runs an interaction without a session (nothing remembered). */
export const EPHEMERAL = "ephemeral";

export function sessionRecord(s: SessionDoc): SessionRecord {
  const messages = s.history.flatMap((t, i) => [
    { ident: `${i}-q`, who: "USER", timestamp: t.at, content: { text: t.question, format: "PLAIN" } },
    { ident: `${i}-a`, who: "AGENT", timestamp: t.at, content: { text: t.answer, format: "MARKDOWN" } },
  ]);
  return {
    id: s.id,
    slug: s.slug,
    title: s.name,
    summary: s.summary,
    created: s.created,
    modified: s.modified,
    data: {
      texts: { data: { value: { body: s.data, format: s.format } } },
      conversations: { history: { value: { messages } } },
    },
  };
}

export class SessionService {
  constructor(private readonly tables: AgentTables) {}

  private async memoryAgent(agentId: string): Promise<Agent> {
    const a = await this.tables.open(agentId);
    if (a.kb.mode === "agent_no_memory")
      throw badRequest("This agent has no memory (mode agent_no_memory): it keeps no sessions");
    return a;
  }

  /** A session by id or slug, or 404. */
  static find(a: Agent, ref: string): SessionDoc {
    const s = a.sessions.get(ref) ?? [...a.sessions.values()].find((x) => x.slug === ref);
    if (!s) throw notFound("Session not found");
    return s;
  }

  async create(agentId: string, body: SessionBody) {
    const a = await this.memoryAgent(agentId);
    if ([...a.sessions.values()].some((s) => s.slug === body.slug))
      throw conflict(`A session with slug ${body.slug} already exists`);
    const id = randomUUID().replace(/-/g, "");
    const now = new Date().toISOString();
    await a.sessions.put(id, { ...body, id, created: now, modified: now, history: [] });
    return { uuid: id, elapsed: null, seqid: a.sessions.size };
  }

  async list(agentId: string, page: number, size: number) {
    const a = await this.tables.open(agentId);
    const all = [...a.sessions.values()].sort((x, y) => y.created.localeCompare(x.created));
    const slice = all.slice(page * size, (page + 1) * size);
    return { resources: slice.map(sessionRecord), pagination: { page, size, last: (page + 1) * size >= all.length } };
  }

  async get(agentId: string, ref: string) {
    return sessionRecord(SessionService.find(await this.tables.open(agentId), ref));
  }

  async patch(agentId: string, ref: string, patch: Partial<SessionBody>): Promise<void> {
    const a = await this.tables.open(agentId);
    const s = SessionService.find(a, ref);
    if (patch.slug && patch.slug !== s.slug && [...a.sessions.values()].some((x) => x.slug === patch.slug))
      throw conflict(`A session with slug ${patch.slug} already exists`);
    const next = { ...s, modified: new Date().toISOString() };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as Record<string, unknown>)[k] = v;
    await a.sessions.put(s.id, next);
  }

  async delete(agentId: string, ref: string): Promise<void> {
    const a = await this.tables.open(agentId);
    await a.sessions.delete(SessionService.find(a, ref).id);
  }

  /** Add a turn to a session's history. */
  static async remember(a: Agent, id: string, turn: HistoryTurn): Promise<void> {
    const s = a.sessions.get(id);
    if (!s) return;
    await a.sessions.put(id, { ...s, modified: turn.at, history: [...s.history, turn] });
  }
}
