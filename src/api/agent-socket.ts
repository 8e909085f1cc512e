/**
 * The WebSocket interaction: the JS SDK's default way to ask a retrieval agent. A GET with
 * `Upgrade: websocket` (the token in `eph-token`); after the handshake the client sends
 * `{question, operation: 0, headers}` and reads AragAnswer messages; `{question: "", operation: 1}`
 * stops the interaction. `from_cursor` (the last seqid seen + 1) resumes a stream cut abnormally.
 */
import { z } from "zod";
import { AGENT_KB, SessionParams } from "./agents.js";
import { route } from "./route.js";

const flag = (dflt: boolean) =>
  z
    .enum(["true", "false", "True", "False", "1", "0"])
    .default(dflt ? "true" : "false")
    .transform((v) => v === "true" || v === "True" || v === "1");

export const SocketQuery = z.object({
  "eph-token": z.string().optional(),
  workflow_id: z.string().min(1).default("default"),
  /** Resume: replay this session's messages from this seqid, then follow the interaction live. */
  from_cursor: z.coerce.number().int().min(0).optional(),
  /** Keep the socket open after an answer for further questions (default: close with 1000). */
  keep_open: flag(false),
  /** A session id the agent does not know is created (its slug and name are the id). */
  create_session_if_not_exists: flag(true),
});
export type SocketQuery = z.infer<typeof SocketQuery>;

const Upgraded = z.null();

export const interactSocket = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/session/:session/ws",
  params: SessionParams,
  query: SocketQuery,
  response: Upgraded,
  kb: AGENT_KB,
  role: "READER",
  summary: "Ask the agent over a WebSocket (the JS SDK's default); 426 without Upgrade: websocket",
});
export const interactSocketWorkflow = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id/session/:session/ws",
  params: SessionParams.extend({ workflow_id: z.string().min(1) }),
  query: SocketQuery.omit({ workflow_id: true }),
  response: Upgraded,
  kb: AGENT_KB,
  role: "READER",
  summary: "Ask the agent through one workflow over a WebSocket",
});
