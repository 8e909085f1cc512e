import { Readable } from "node:stream";
import type { Hono } from "hono";
import * as api from "../../../src/api/tasks.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Tasks on knowledge boxes, their assets and the signed downloads of those. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const t = s.tasks;
  mount(app, api.listTasks, async ({ params, query }) => t.list(params.kb_uuid, query.count));
  mount(app, api.startTask, async ({ params, body, principal }) =>
    t.start(params.kb_uuid, body, principal.user ?? principal.credential ?? "kbox"),
  );
  mount(app, api.patchTask, async ({ params, body }) => t.patch(params.kb_uuid, params.task_id, body.parameters));
  mount(app, api.deleteTask, async ({ params, query }) => t.delete(params.kb_uuid, params.task_id, query.cleanup ?? false));
  mount(app, api.cleanupTask, async ({ params }) => t.cleanup(params.kb_uuid, params.task_id));
  mount(app, api.enableTask, async ({ params, body }) => t.enable(params.kb_uuid, params.task_id, body.enabled));
  mount(app, api.inspectTask, async ({ params }) => t.inspect(params.kb_uuid, params.task_id));
  mount(app, api.restartTask, async ({ params }) => t.restart(params.kb_uuid, params.task_id));
  mount(app, api.stopTask, async ({ params }) => t.stop(params.kb_uuid, params.task_id));
  mount(app, api.taskWorker, async ({ params }) => t.worker(params.kb_uuid, params.task_id));
  mount(app, api.listAssets, async ({ params }) => ({ assets: s.taskAssets.list(s.kbs.require(params.kb_uuid).uuid) }));
  mount(app, api.getAsset, async ({ params, req }) => ({
    url: new URL(s.taskAssets.signedPath(s.kbs.require(params.kb_uuid).uuid, params.asset_id), req.url).toString(),
  }));
  mount(app, api.downloadAsset, async ({ params }) => {
    const a = s.taskAssets.verify(params.token);
    const store = await s.store.kb(a.kbid);
    return new Response(Readable.toWeb(store.blobs.read(`assets/${a.id}`)) as unknown as ReadableStream, {
      headers: { "content-type": a.content_type, "content-disposition": `attachment; filename="${a.name.replace(/"/g, "")}"` },
    });
  });
}
