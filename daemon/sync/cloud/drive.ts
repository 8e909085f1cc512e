/**
 * drive_oauth: a Google-Drive-style API (v3). Drives: `GET /drives` (shared drives) beside the
 * user's own ("my-drive"); folders and files: `GET /files?q='<id>' in parents`, paged by
 * nextPageToken; bytes: `GET /files/{id}?alt=media`; native documents are exported as text/plain.
 */
import type { BrowseQuery, BrowseResult } from "../../../src/api/sync.js";
import { badRequest } from "../../errors.js";
import { json } from "./oauth.js";
import type { ApiCall, CloudApi, CloudFile, Place } from "./types.js";

const FOLDER = "application/vnd.google-apps.folder";
const DOC = "application/vnd.google-apps.document";
const MY_DRIVE = "my-drive";

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  md5Checksum?: string;
  modifiedTime?: string;
  size?: string;
  version?: string;
  webViewLink?: string;
}
interface FileList {
  files: DriveFile[];
  nextPageToken?: string;
}

export class DriveApi implements CloudApi {
  constructor(
    private readonly api: string,
    private readonly call: ApiCall,
  ) {}

  private url(path: string, q: Record<string, string | undefined>): string {
    const u = new URL(`${this.api.replace(/\/+$/, "")}${path}`);
    for (const [k, v] of Object.entries(q)) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  }

  /** One page of a folder's children (folders only, or everything). */
  private async children(drive: string | undefined, folder: string, foldersOnly: boolean, pageToken?: string) {
    const shared = drive && drive !== MY_DRIVE;
    const q = `'${folder.replace(/['\\]/g, "\\$&")}' in parents and trashed = false${foldersOnly ? ` and mimeType = '${FOLDER}'` : ""}`;
    const url = this.url("/files", {
      q,
      pageSize: "1000",
      pageToken,
      fields: "nextPageToken,files(id,name,mimeType,md5Checksum,modifiedTime,size,version,webViewLink)",
      supportsAllDrives: "true",
      includeItemsFromAllDrives: "true",
      ...(shared ? { corpora: "drive", driveId: drive } : {}),
    });
    return json<FileList>(await this.call(url), `listing folder ${folder}`);
  }

  private rootOf(place: Place): string {
    if (place.folder_id) return place.folder_id;
    if (place.sync_root_path) throw badRequest("drive_oauth addresses folders by folder_id (from Browse Storage), not by path");
    return place.drive_id && place.drive_id !== MY_DRIVE ? place.drive_id : "root";
  }

  async browse(q: BrowseQuery): Promise<BrowseResult> {
    if (q.site_search || q.site_id)
      throw badRequest("drive_oauth has no sites: browse its drives (no drive_id) or folders (drive_id)");
    if (q.path) throw badRequest("drive_oauth addresses folders by folder_id, not by path");
    if (!q.drive_id && !q.folder_id) {
      const page = await json<{ drives: { id: string; name: string }[]; nextPageToken?: string }>(
        await this.call(this.url("/drives", { pageSize: "100", pageToken: q.page_token ?? undefined })),
        "listing drives",
      );
      const mine = q.page_token ? [] : [{ id: MY_DRIVE, name: "My Drive", drive_type: "personal", web_url: null }];
      return {
        drives: [...mine, ...page.drives.map((d) => ({ id: d.id, name: d.name, drive_type: "shared", web_url: null }))],
        folders: [],
        next_page_token: page.nextPageToken ?? null,
      };
    }
    const folder = this.rootOf(q);
    const page = await this.children(q.drive_id ?? undefined, folder, true, q.page_token ?? undefined);
    return {
      folders: page.files.map((f) => ({ id: f.id, name: f.name, path: f.name, web_url: f.webViewLink ?? null })),
      next_page_token: page.nextPageToken ?? null,
    };
  }

  async *files(place: Place, signal?: AbortSignal): AsyncIterable<CloudFile> {
    const queue: [string, string][] = [[this.rootOf(place), ""]];
    while (queue.length) {
      const [folder, prefix] = queue.shift()!;
      let token: string | undefined;
      do {
        if (signal?.aborted) throw new Error("cancelled");
        const page = await this.children(place.drive_id ?? undefined, folder, false, token);
        for (const f of page.files) {
          const path = `${prefix}${f.name}`;
          if (f.mimeType === FOLDER) queue.push([f.id, `${path}/`]);
          else if (f.mimeType === DOC)
            yield {
              id: f.id,
              path: `${path}.txt`,
              name: `${f.name}.txt`,
              modified: date(f),
              size: 0,
              hash: `v:${f.version ?? f.modifiedTime}`,
              ref: "export",
            };
          else if (!f.mimeType.startsWith("application/vnd.google-apps."))
            yield {
              id: f.id,
              path,
              name: f.name,
              modified: date(f),
              size: Number(f.size ?? 0),
              hash: `md5:${f.md5Checksum ?? f.version}`,
            };
        }
        token = page.nextPageToken;
      } while (token);
    }
  }

  download(f: CloudFile): Promise<Response> {
    const id = encodeURIComponent(f.id);
    return this.call(
      f.ref === "export"
        ? this.url(`/files/${id}/export`, { mimeType: "text/plain" })
        : this.url(`/files/${id}`, { alt: "media", supportsAllDrives: "true" }),
    );
  }
}

const date = (f: DriveFile) => new Date(f.modifiedTime ?? 0);
