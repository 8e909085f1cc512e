/** Retrieval agents: interaction audit downloads, export and import, and the session's MCP handlers. */
import { z } from "zod";
import { AGENT_KB, AgentParams, Done, SessionParams } from "./agents.js";
import { route } from "./route.js";

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const DownloadRequest = z.object({
  id: z.string(),
  type: z.literal("interactions"),
  status: z.enum(["pending", "ready"]),
  download_url: z.string().nullable(),
  query: z.record(z.string(), z.unknown()),
  format: z.enum(["text/csv", "application/x-ndjson"]),
  created: z.string(),
});
export type DownloadRequest = z.infer<typeof DownloadRequest>;
const DownloadParams = AgentParams.extend({ request_id: z.string() });

export const requestAuditDownload = route({
  method: "POST",
  path: "/api/v1/agent/:agent_id/audit/interactions/download",
  params: AgentParams,
  headers: z.object({ accept: z.string().optional() }),
  body: z.object({
    session_id: opt(z.string()),
    year: opt(z.number().int().min(1970).max(9999)),
    month: opt(z.number().int().min(1).max(12)),
  }),
  response: DownloadRequest,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Request a download of the interactions of a month (CSV or NDJSON)",
});
export const listAuditDownloads = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/audit/download_requests",
  params: AgentParams,
  response: z.array(DownloadRequest),
  kb: AGENT_KB,
  role: "OWNER",
  summary: "List interaction download requests",
});
export const auditDownloadStatus = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/audit/download_request/:request_id/status",
  params: DownloadParams,
  response: DownloadRequest,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "One download request",
});
export const deleteAuditDownload = route({
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/audit/download_request/:request_id",
  params: DownloadParams,
  response: Done,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Delete a download request",
});
/** kbox's own: the file a download request's `download_url` names. */
export const auditDownloadFile = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/audit/download_request/:request_id/file",
  params: DownloadParams,
  response: z.string(),
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Download the interactions a request names (CSV or NDJSON)",
});

export const Passphrase = z.string().min(16, "The passphrase must hold at least 16 characters");
/** Instead of an e-mailed link, the answer names the download (kept one hour, in memory). */
export const exportAgent = route({
  method: "POST",
  path: "/api/v1/agent/:agent_id/export",
  params: AgentParams,
  body: z.object({ passphrase: Passphrase }),
  response: z.object({ id: z.string(), download_url: z.string(), expires: z.string() }),
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Export the agent's configuration, encrypted with a passphrase",
});
export const exportDownload = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/export/:export_id",
  params: AgentParams.extend({ export_id: z.string() }),
  response: z.string(),
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Download an export (encrypted bytes)",
});
/** multipart/form-data: file, passphrase, overwrite ("true"/"false"). */
export const importAgent = route({
  method: "POST",
  path: "/api/v1/agent/:agent_id/import",
  params: AgentParams,
  bodyKind: "raw",
  response: Done,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Import an exported configuration (fails on a configured agent unless overwrite)",
});

const MCP_PATH = "/api/v1/agent/:agent_id/session/:session/mcp";
/** The agent session as an MCP server (streamable HTTP): tools ask_agent and session_history. */
export const agentMcpPost = route({
  method: "POST",
  path: MCP_PATH,
  params: SessionParams,
  bodyKind: "raw",
  kb: AGENT_KB,
  role: "READER",
  summary: "MCP (streamable HTTP): JSON-RPC messages to the agent session's MCP server",
});
export const agentMcpGet = route({
  method: "GET",
  path: MCP_PATH,
  params: SessionParams,
  kb: AGENT_KB,
  role: "READER",
  summary: "MCP (streamable HTTP): the session's stream of server messages",
});
export const agentMcpDelete = route({
  method: "DELETE",
  path: MCP_PATH,
  params: SessionParams,
  kb: AGENT_KB,
  role: "READER",
  summary: "MCP (streamable HTTP): end the MCP session",
});
