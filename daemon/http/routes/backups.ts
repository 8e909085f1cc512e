import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Hono } from "hono";
import * as api from "../../../src/api/backups.js";
import type { BackupDoc } from "../../backup/types.js";
import { badRequest } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

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

/** Backups, exports and imports; which knowledge box a backup id names is checked by its route's scope. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createBackup, async ({ body }) => ({ id: (await s.backups.create(body.kb_id)).id }));
  mount(app, api.listBackups, async ({ sees }) =>
    s.backups
      .list()
      .filter((d) => sees(d.kb_id))
      .map((d) => s.backups.record(d)),
  );
  mount(app, api.getBackup, async ({ params }) => s.backups.record(s.backups.get(params.backup_id, "backup")));
  mount(app, api.deleteBackup, async ({ params }) => {
    await s.backups.delete(params.backup_id, "backup");
    return undefined;
  });
  mount(app, api.downloadBackup, async ({ params }) => download(s.backups.archive(params.backup_id, "backup")));
  mount(app, api.restoreBackup, async ({ params, body }) => ({
    id: (await s.backups.restore(params.backup_id, body.slug, body.title)).uuid,
  }));

  mount(app, api.setSchedule, async ({ params, body }) => s.backupSchedules.set(params.kbid, body.interval_seconds, body.keep));
  mount(app, api.getSchedule, async ({ params }) => s.backupSchedules.require(params.kbid));
  mount(app, api.deleteSchedule, async ({ params }) => {
    await s.backupSchedules.remove(s.kbs.require(params.kbid).uuid);
    return undefined;
  });

  mount(app, api.startExport, async ({ params }) => ({
    export_id: (await s.backups.create(params.kbid, { kind: "export" })).id,
  }));
  mount(app, api.exportStatus, async ({ params }) => s.backups.exportStatus(params.kbid, params.export_id));
  mount(app, api.downloadExport, async ({ params }) => {
    s.backups.exportOf(params.kbid, params.export_id);
    return download(s.backups.archive(params.export_id, "export"));
  });
  mount(app, api.importIntoKb, async ({ params, req }) => {
    const { id, kb } = await s.backups.importInto(params.kbid, bodyStream(req));
    return { import_id: id, kbid: kb.uuid, slug: kb.slug };
  });
  mount(app, api.importStatus, async ({ params }) => s.backups.importStatus(params.kbid, params.import_id));
  mount(app, api.importNewKb, async ({ query, req }) => {
    const kb = await s.backups.importNew(bodyStream(req), query);
    return { kbid: kb.uuid, slug: kb.slug };
  });
}
