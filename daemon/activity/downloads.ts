import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { z } from "zod";
import type { ActivityDownload, ActivityRow, DOWNLOAD_FORMATS, DownloadRequest, EventType } from "../../src/api/activity.js";
import { notFound } from "../errors.js";
import { KbDocs } from "../kbs/kb-docs.js";
import type { KbService } from "../kbs/service.js";
import type { Log } from "../lifecycle/logger.js";
import { matching, shown } from "./queries.js";
import type { ActivityService } from "./service.js";

type Format = (typeof DOWNLOAD_FORMATS)[number];
type Stored = ActivityDownload & { file?: string; error?: string };

/** One CSV value: text as is, numbers and booleans printed, objects as JSON; quoted when it must be. */
function csvValue(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as CSV: a header of every member any row has (id and date first), one line a row. */
export function toCsv(rows: ActivityRow[]): string {
  const cols = ["id", "date"];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  return [cols.join(","), ...rows.map((r) => cols.map((c) => csvValue(r[c])).join(","))].join("\r\n") + "\r\n";
}

export const toNdjson = (rows: ActivityRow[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join("");

/** Activity log downloads: a request is answered at once (202), its file written in the background. */
export class ActivityDownloads {
  private readonly docs: KbDocs<Stored>;

  constructor(
    private readonly kbs: KbService,
    private readonly activity: ActivityService,
    private readonly log: Log,
  ) {
    this.docs = new KbDocs(kbs, "activity_downloads");
  }

  async request(
    kbid: string,
    event: EventType,
    format: Format,
    body: z.output<typeof DownloadRequest>,
    urlBase: string,
  ): Promise<ActivityDownload> {
    const kb = this.kbs.require(kbid, "Knowledge Box not found");
    const request_id = randomUUID().replace(/-/g, "");
    const rec: Stored = {
      request_id,
      download_type: "activity",
      download_format: format,
      event_type: event,
      requested_at: new Date().toISOString(),
      kb_id: kb.uuid,
      download_url: null,
    };
    const table = await this.docs.of(kb.uuid);
    await table.put(request_id, rec);
    setImmediate(
      () => void this.produce(kb.uuid, rec, body, `${urlBase}/api/v1/kb/${kb.uuid}/activity/download_file/${request_id}`),
    );
    return publicOf(rec);
  }

  private async produce(kbid: string, rec: Stored, body: z.output<typeof DownloadRequest>, url: string): Promise<void> {
    const table = await this.docs.of(kbid);
    try {
      const rows = (await matching(this.activity, kbid, rec.event_type, body)).map((r) => shown(r.doc, body.show));
      const text = rec.download_format === "text/csv" ? toCsv(rows) : toNdjson(rows);
      const { store } = await this.kbs.open(kbid);
      const file = `activity-downloads/${rec.request_id}.${rec.download_format === "text/csv" ? "csv" : "ndjson"}`;
      await store.blobs.write(file, Buffer.from(text));
      await table.put(rec.request_id, { ...rec, file, download_url: url, rows: rows.length });
    } catch (e) {
      this.log.warn(`activity: download ${rec.request_id} failed: ${(e as Error).message}`);
      await table.put(rec.request_id, { ...rec, error: (e as Error).message }).catch(() => undefined);
    }
  }

  async status(kbid: string, id: string): Promise<ActivityDownload> {
    const rec = (await this.docs.of(kbid)).get(id);
    if (!rec) throw notFound(`No download request ${id}`);
    return publicOf(rec);
  }

  /** The file of a ready download. */
  async file(kbid: string, id: string): Promise<Response> {
    const rec = (await this.docs.of(kbid)).get(id);
    if (!rec?.file) throw notFound(rec ? `Download ${id} is not ready yet` : `No download request ${id}`);
    const { store } = await this.kbs.open(kbid);
    const ext = rec.download_format === "text/csv" ? "csv" : "ndjson";
    return new Response(Readable.toWeb(store.blobs.read(rec.file)) as ReadableStream, {
      headers: {
        "content-type": rec.download_format,
        "content-disposition": `attachment; filename="activity-${rec.event_type}-${rec.request_id}.${ext}"`,
      },
    });
  }
}

function publicOf(rec: Stored): ActivityDownload {
  const { file: _f, error: _e, ...out } = rec;
  return out;
}
