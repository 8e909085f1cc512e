// Generated from src/api/agent-audit.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agent-audit.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agent-audit.js";
import type { Routed } from "../client.js";

export type * from "../../api/agent-audit.js";

export const agentMcpDelete: Routed<typeof api.agentMcpDelete> = {
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/session/:session/mcp",
  stream: false,
};
export const agentMcpGet: Routed<typeof api.agentMcpGet> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/session/:session/mcp",
  stream: false,
};
export const agentMcpPost: Routed<typeof api.agentMcpPost> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/session/:session/mcp",
  stream: false,
};
export const auditDownloadFile: Routed<typeof api.auditDownloadFile> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/audit/download_request/:request_id/file",
  stream: false,
};
export const auditDownloadStatus: Routed<typeof api.auditDownloadStatus> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/audit/download_request/:request_id/status",
  stream: false,
};
export const deleteAuditDownload: Routed<typeof api.deleteAuditDownload> = {
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/audit/download_request/:request_id",
  stream: false,
};
export const exportAgent: Routed<typeof api.exportAgent> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/export",
  stream: false,
};
export const exportDownload: Routed<typeof api.exportDownload> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/export/:export_id",
  stream: false,
};
export const importAgent: Routed<typeof api.importAgent> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/import",
  stream: false,
};
export const listAuditDownloads: Routed<typeof api.listAuditDownloads> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/audit/download_requests",
  stream: false,
};
export const requestAuditDownload: Routed<typeof api.requestAuditDownload> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/audit/interactions/download",
  stream: false,
};
