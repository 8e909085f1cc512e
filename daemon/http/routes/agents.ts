import type { Hono } from "hono";
import * as audit from "../../../src/api/agent-audit.js";
import * as sock from "../../../src/api/agent-socket.js";
import * as api from "../../../src/api/agents.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";
import { notUpgraded, takeUpgrade } from "../upgrade.js";

/** A change answers 200 with JSON null, as the service does. */
const done = async (p: Promise<void>): Promise<null> => {
  await p;
  return null;
};

/** Retrieval agents: sessions, interaction, audit downloads, export and import (daemon/agents). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const a = s.agents;
  mount(app, api.listSessions, async ({ params, query }) => a.sessions.list(params.agent_id, query.page, query.size));
  mount(app, api.createSession, async ({ params, body }) => a.sessions.create(params.agent_id, body));
  mount(app, api.getSession, async ({ params }) => a.sessions.get(params.agent_id, params.session));
  mount(app, api.patchSession, async ({ params, body }) => done(a.sessions.patch(params.agent_id, params.session, body)));
  mount(app, api.deleteSession, async ({ params }) => done(a.sessions.delete(params.agent_id, params.session)));
  mount(app, { session: api.interact, workflow: api.interactWorkflow }, async ({ params, query, body, principal, signal }) => {
    const wf = "workflow_id" in params ? params.workflow_id : (query as { workflow_id: string }).workflow_id;
    const p = await a.interactions.prepare(params.agent_id, params.session, wf, body, { principal, signal });
    return body.streaming ? a.interactions.run(p) : a.interactions.whole(p);
  });
  mount(
    app,
    { session: sock.interactSocket, workflow: sock.interactSocketWorkflow },
    async ({ params, query, principal, req }) => {
      const accept = takeUpgrade(req);
      const wf = "workflow_id" in params ? params.workflow_id : (query as { workflow_id: string }).workflow_id;
      const create = accept !== undefined && query.create_session_if_not_exists;
      const target = await a.sockets.resolve(params.agent_id, params.session, wf, create);
      if (!accept) throw notUpgraded();
      a.sockets.serve(await accept(), target, query, principal);
      return null;
    },
  );
  mount(app, audit.requestAuditDownload, async ({ params, headers, body }) =>
    a.audit.request(params.agent_id, headers.accept, body),
  );
  mount(app, audit.listAuditDownloads, async ({ params }) => a.audit.list(params.agent_id));
  mount(app, audit.auditDownloadStatus, async ({ params }) => a.audit.status(params.agent_id, params.request_id));
  mount(app, audit.deleteAuditDownload, async ({ params }) => done(a.audit.delete(params.agent_id, params.request_id)));
  mount(app, audit.auditDownloadFile, async ({ params }) => a.audit.file(params.agent_id, params.request_id));
  mount(app, audit.exportAgent, async ({ params, body }) => a.transfer.export(params.agent_id, body.passphrase));
  mount(app, audit.exportDownload, async ({ params }) => a.transfer.download(params.agent_id, params.export_id));
  mount(app, audit.importAgent, async ({ params, req }) => done(a.transfer.import(params.agent_id, req)));
  mount(
    app,
    { post: audit.agentMcpPost, get: audit.agentMcpGet, delete: audit.agentMcpDelete },
    async ({ params, req, principal }) => a.mcp.handle(params.agent_id, params.session, req, principal),
  );
}
