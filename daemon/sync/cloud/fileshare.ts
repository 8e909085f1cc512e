/**
 * fileshare_oauth: a Dropbox-style API (v2). No drives; folders and files by path (or `id:`):
 * `POST /files/list_folder` then `/files/list_folder/continue` with the cursor while has_more;
 * bytes: `POST {content}/files/download` with the `Dropbox-API-Arg` header.
 */
import type { BrowseQuery, BrowseResult } from "../../../src/api/sync.js";
import { badRequest } from "../../errors.js";
import { json } from "./oauth.js";
import type { ApiCall, CloudApi, CloudFile, Place } from "./types.js";

interface Entry {
  ".tag": "file" | "folder" | "deleted";
  id: string;
  name: string;
  path_display?: string;
  path_lower?: string;
  content_hash?: string;
  rev?: string;
  server_modified?: string;
  size?: number;
}
interface ListResult {
  entries: Entry[];
  cursor: string;
  has_more: boolean;
}

const rootPath = (p?: string | null) => {
  const v = (p ?? "").trim();
  if (!v || v === "/") return "";
  return v.startsWith("id:") ? v : `/${v.replace(/^\/+|\/+$/g, "")}`;
};

export class FileshareApi implements CloudApi {
  constructor(
    private readonly api: string,
    private readonly content: string,
    private readonly call: ApiCall,
  ) {}

  private async rpc<T>(endpoint: string, body: unknown, what: string): Promise<T> {
    const res = await this.call(`${this.api.replace(/\/+$/, "")}${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return json<T>(res, what);
  }

  private list(path: string, recursive: boolean, cursor?: string): Promise<ListResult> {
    return cursor
      ? this.rpc<ListResult>("/files/list_folder/continue", { cursor }, `listing ${path || "/"}`)
      : this.rpc<ListResult>("/files/list_folder", { path, recursive, limit: 2000 }, `listing ${path || "/"}`);
  }

  async browse(q: BrowseQuery): Promise<BrowseResult> {
    if (q.drive_id) throw badRequest("fileshare_oauth has no drives and must not be given drive_id");
    if (q.site_search || q.site_id) throw badRequest("fileshare_oauth has no sites");
    const path = rootPath(q.path ?? q.folder_id);
    const r = await this.list(path, false, q.page_token ?? undefined);
    return {
      folders: r.entries
        .filter((e) => e[".tag"] === "folder")
        .map((e) => ({ id: e.id, name: e.name, path: e.path_display ?? e.name, web_url: null })),
      next_page_token: r.has_more ? r.cursor : null,
    };
  }

  async *files(place: Place, signal?: AbortSignal): AsyncIterable<CloudFile> {
    if (place.drive_id) throw badRequest("fileshare_oauth has no drives and must not be given drive_id");
    const path = rootPath(place.folder_id ?? place.sync_root_path);
    // Paths below the root are made relative to the root's own display path (an id: root has one too).
    let base = "";
    if (path) base = (await this.rpc<Entry>("/files/get_metadata", { path }, `reading ${path}`)).path_lower ?? "";
    let r = await this.list(path, true);
    for (;;) {
      for (const e of r.entries) {
        if (e[".tag"] !== "file") continue;
        const lower = e.path_lower ?? "";
        const rel = (e.path_display ?? e.name).slice(lower.startsWith(`${base}/`) ? base.length + 1 : 1);
        yield {
          id: e.id,
          path: rel,
          name: e.name,
          modified: new Date(e.server_modified ?? 0),
          size: e.size ?? 0,
          hash: e.content_hash ?? e.rev ?? "",
        };
      }
      if (!r.has_more) return;
      if (signal?.aborted) throw new Error("cancelled");
      r = await this.list(path, true, r.cursor);
    }
  }

  download(f: CloudFile): Promise<Response> {
    return this.call(`${this.content.replace(/\/+$/, "")}/files/download`, {
      method: "POST",
      // Header values are ASCII: non-ASCII is escaped as the API documents.
      headers: {
        "dropbox-api-arg": JSON.stringify({ path: f.id }).replace(
          /[\u007f-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
        ),
      },
    });
  }
}
