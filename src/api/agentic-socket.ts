/**
 * The agentic ask socket: ask with an agentic configuration over a WebSocket (the zone's
 * `WS /kb/{kbid}/ask`). After the handshake the client sends `{question, operation: 0, headers}`
 * and reads AragAnswer messages, ending with operation 3 (done) or 4 (error);
 * `{question: "", operation: 1}` stops the answer.
 */
import { z } from "zod";
import { BoolString } from "./common.js";
import { route } from "./route.js";

export const AgenticSocketQuery = z.object({
  "eph-token": z.string().optional(),
  agentic_config_id: z.string().min(1),
  search_configuration: z.string().min(1).optional(),
  /** Security groups the answer may read from (repeatable). */
  groups: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((g) => (g === undefined ? [] : [g].flat())),
  /** Keep the socket open after an answer for further questions (default: close with 1000). */
  keep_open: BoolString.default(false),
});
export type AgenticSocketQuery = z.infer<typeof AgenticSocketQuery>;

export const agenticAskSocket = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/ask",
  params: z.object({ kbid: z.string() }),
  query: AgenticSocketQuery,
  response: z.null(),
  role: "READER",
  summary: "Ask with an agentic configuration over a WebSocket; 400 unknown configuration, 426 without Upgrade: websocket",
});
