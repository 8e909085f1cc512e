/** Interaction audit downloads: a request names a month (and a session); its file is made when fetched. */
import { randomUUID } from "node:crypto";
import type { DownloadRequest } from "../../src/api/agent-audit.js";
import { notFound } from "../errors.js";
import type { AgentTables, InteractionDoc } from "./tables.js";

const COLUMNS: (keyof InteractionDoc)[] = [
  "at",
  "id",
  "session_id",
  "workflow_id",
  "who",
  "question",
  "rephrased",
  "answer",
  "drivers",
  "generator",
  "seconds",
];

function csvCell(v: unknown): string {
  const s = Array.isArray(v) ? v.join(" ") : String(v ?? "");
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The month before this one (the spec's default period). */
function pastMonth(now = new Date()): { year: number; month: number } {
  const m = now.getUTCMonth(); // 0-based: the past month's 1-based number
  return m === 0 ? { year: now.getUTCFullYear() - 1, month: 12 } : { year: now.getUTCFullYear(), month: m };
}

export class AuditService {
  constructor(private readonly tables: AgentTables) {}

  async request(
    agentId: string,
    accept: string | undefined,
    q: { session_id?: string | null; year?: number | null; month?: number | null },
  ): Promise<DownloadRequest> {
    const a = await this.tables.open(agentId);
    const def = pastMonth();
    const query = {
      year: q.year ?? (q.month ? new Date().getUTCFullYear() : def.year),
      month: q.month ?? def.month,
      ...(q.session_id ? { session_id: q.session_id } : {}),
    };
    const id = randomUUID().replace(/-/g, "");
    const req: DownloadRequest = {
      id,
      type: "interactions",
      status: "ready",
      download_url: `/api/v1/agent/${a.kb.uuid}/audit/download_request/${id}/file`,
      query,
      format: accept?.trim().startsWith("application/x-ndjson") ? "application/x-ndjson" : "text/csv",
      created: new Date().toISOString(),
    };
    await a.downloads.put(id, req);
    return req;
  }

  async list(agentId: string): Promise<DownloadRequest[]> {
    return [...(await this.tables.open(agentId)).downloads.values()].sort((x, y) => y.created.localeCompare(x.created));
  }

  async status(agentId: string, id: string): Promise<DownloadRequest> {
    const r = (await this.tables.open(agentId)).downloads.get(id);
    if (!r) throw notFound("Download request not found");
    return r;
  }

  async delete(agentId: string, id: string): Promise<void> {
    const a = await this.tables.open(agentId);
    if (!a.downloads.has(id)) throw notFound("Download request not found");
    await a.downloads.delete(id);
  }

  /** The file of a request: the interactions of its month (and session), oldest first. */
  async file(agentId: string, id: string): Promise<Response> {
    const a = await this.tables.open(agentId);
    const r = a.downloads.get(id);
    if (!r) throw notFound("Download request not found");
    const { year, month, session_id } = r.query as { year: number; month: number; session_id?: string };
    const prefix = `${year}-${String(month).padStart(2, "0")}`;
    const rows = [...a.interactions.values()]
      .filter((i) => i.at.startsWith(prefix) && (!session_id || i.session_id === session_id))
      .sort((x, y) => x.at.localeCompare(y.at));
    const body =
      r.format === "application/x-ndjson"
        ? rows.map((i) => `${JSON.stringify(i)}\n`).join("")
        : [COLUMNS.join(","), ...rows.map((i) => COLUMNS.map((c) => csvCell(i[c])).join(","))].join("\n") + "\n";
    const ext = r.format === "text/csv" ? "csv" : "ndjson";
    return new Response(body, {
      headers: {
        "content-type": `${r.format}; charset=utf-8`,
        "content-disposition": `attachment; filename="interactions-${prefix}.${ext}"`,
      },
    });
  }
}
