import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Hono } from "hono";
import * as api from "../../../src/api/backups.js";
import type { Principal } from "../../auth/service.js";
import type { BackupDoc } from "../../backup/types.js";
import { badRequest, forbidden, notFound } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** A key scoped to one knowledge box sees only that box's backups. */
function allowed(p: Principal, kbid: string): void {
  if (p.kbid && p.kbid !== kbid.toLowerCase()) throw forbidden();
}

function wire(s: Services, d: BackupDoc): api.Backup {
  const { id, account_id, started_at, finished_at, size, kb_data, status, error, scheduled, tables, paragraphs } = d;
  const progress = s.backups.progress(id);
  return { id, account_id, started_at, finished_at, size, kb_data, status, error, scheduled, tables, paragraphs, progress };
}

function download(d: BackupDoc): Response {
  const body = Readable.toWeb(createReadStream(d.path)) as unknown as ReadableStream;
  return new Response(body, {
    headers: {
      "content-type": "application/gzip",
      "content-length": String(d.size),
      "content-disposition": `attachment; filename="kbox-${d.kb_data.slug}-${d.id}.tar.gz"`,
    },
  });
}

function bodyStream(req: Request): Readable {
  if (!req.body) throw badRequest("The request body must be a kbox backup archive (.tar.gz)");
  return Readable.fromWeb(req.body as import("node:stream/web").ReadableStream);
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createBackup, async ({ body, principal }) => {
    allowed(principal, body.kb_id);
    return { id: (await s.backups.create(body.kb_id)).id };
  });
  mount(app, api.listBackups, async ({ principal }) =>
    s.backups
      .list()
      .filter((d) => !principal.kbid || d.kb_id === principal.kbid)
      .map((d) => wire(s, d)),
  );
  const mine = (id: string, p: Principal) => {
    const d = s.backups.get(id, "backup");
    allowed(p, d.kb_id);
    return d;
  };
  mount(app, api.getBackup, async ({ params, principal }) => wire(s, mine(params.backup_id, principal)));
  mount(app, api.deleteBackup, async ({ params, principal }) => {
    mine(params.backup_id, principal);
    await s.backups.delete(params.backup_id);
    return undefined;
  });
  mount(app, api.downloadBackup, async ({ params, principal }) => {
    mine(params.backup_id, principal);
    return download(s.backups.archive(params.backup_id, "backup"));
  });
  mount(app, api.restoreBackup, async ({ params, body, principal }) => {
    if (principal.kbid) throw forbidden();
    return { id: (await s.backups.restore(params.backup_id, body.slug, body.title)).uuid };
  });

  mount(app, api.setSchedule, async ({ params, body }) => s.backupSchedules.set(params.kbid, body.interval_seconds, body.keep));
  mount(app, api.getSchedule, async ({ params }) => {
    const kb = s.kbs.require(params.kbid);
    const sched = s.backupSchedules.get(kb.uuid);
    if (!sched) return Response.json({ detail: "No backup schedule for this knowledge box" }, { status: 404 });
    return sched;
  });
  mount(app, api.deleteSchedule, async ({ params }) => {
    await s.backupSchedules.remove(s.kbs.require(params.kbid).uuid);
    return undefined;
  });

  mount(app, api.startExport, async ({ params }) => ({
    export_id: (await s.backups.create(params.kbid, { kind: "export" })).id,
  }));
  const myExport = (kbid: string, id: string) => {
    const d = s.backups.get(id, "export");
    if (d.kb_id !== s.kbs.require(kbid).uuid) throw notFound(`Export ${id} not found`);
    return d;
  };
  mount(app, api.exportStatus, async ({ params }) => {
    const d = myExport(params.kbid, params.export_id);
    return { status: d.status, size: d.size, error: d.error, progress: s.backups.progress(d.id) };
  });
  mount(app, api.downloadExport, async ({ params }) => {
    myExport(params.kbid, params.export_id);
    return download(s.backups.archive(params.export_id, "export"));
  });
  mount(app, api.importIntoKb, async ({ params, req }) => {
    const { id, kb } = await s.backups.importInto(params.kbid, bodyStream(req));
    return { import_id: id, kbid: kb.uuid, slug: kb.slug };
  });
  mount(app, api.importStatus, async ({ params }) => ({ status: s.backups.importStatus(params.kbid, params.import_id) }));
  mount(app, api.importNewKb, async ({ query, req, principal }) => {
    if (principal.kbid) throw forbidden();
    const kb = await s.backups.importNew(bodyStream(req), query);
    return { kbid: kb.uuid, slug: kb.slug };
  });
}
