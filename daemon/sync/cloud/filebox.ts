/**
 * filebox_oauth: a Box-style API (2.0). No drives or sites: folders by id (`0` is the root),
 * `GET /folders/{id}/items?usemarker=true` paged by next_marker; bytes: `GET /files/{id}/content`
 * (a redirect to a download URL).
 */
import type { BrowseQuery, BrowseResult } from "../../../src/api/sync.js";
import { badRequest } from "../../errors.js";
import { json } from "./oauth.js";
import type { ApiCall, CloudApi, CloudFile, Place } from "./types.js";

interface Item {
  type: "file" | "folder" | "web_link";
  id: string;
  name: string;
  sha1?: string;
  etag?: string;
  size?: number;
  modified_at?: string;
}
interface Items {
  entries: Item[];
  next_marker?: string | null;
}

const FIELDS = "id,type,name,sha1,etag,size,modified_at";

export class FileboxApi implements CloudApi {
  constructor(
    private readonly api: string,
    private readonly call: ApiCall,
  ) {}

  private async items(folder: string, marker?: string): Promise<Items> {
    const u = new URL(`${this.api.replace(/\/+$/, "")}/folders/${encodeURIComponent(folder)}/items`);
    u.searchParams.set("fields", FIELDS);
    u.searchParams.set("limit", "1000");
    u.searchParams.set("usemarker", "true");
    if (marker) u.searchParams.set("marker", marker);
    return json<Items>(await this.call(u.toString()), `listing folder ${folder}`);
  }

  private rootOf(place: Place): string {
    if (place.sync_root_path && !place.folder_id)
      throw badRequest("filebox_oauth addresses folders by folder_id (0 is the root), not by path");
    return place.folder_id ?? "0";
  }

  async browse(q: BrowseQuery): Promise<BrowseResult> {
    if (q.site_search || q.site_id) throw badRequest("filebox_oauth has no sites");
    if (q.path) throw badRequest("filebox_oauth addresses folders by folder_id (0 is the root), not by path");
    const r = await this.items(q.folder_id ?? "0", q.page_token ?? undefined);
    return {
      folders: r.entries.filter((e) => e.type === "folder").map((e) => ({ id: e.id, name: e.name, path: e.name, web_url: null })),
      next_page_token: r.next_marker || null,
    };
  }

  async *files(place: Place, signal?: AbortSignal): AsyncIterable<CloudFile> {
    const queue: [string, string][] = [[this.rootOf(place), ""]];
    while (queue.length) {
      const [folder, prefix] = queue.shift()!;
      let marker: string | undefined;
      do {
        if (signal?.aborted) throw new Error("cancelled");
        const r = await this.items(folder, marker);
        for (const e of r.entries) {
          const path = `${prefix}${e.name}`;
          if (e.type === "folder") queue.push([e.id, `${path}/`]);
          else if (e.type === "file")
            yield {
              id: e.id,
              path,
              name: e.name,
              modified: new Date(e.modified_at ?? 0),
              size: e.size ?? 0,
              hash: e.sha1 ?? e.etag ?? "",
            };
        }
        marker = r.next_marker || undefined;
      } while (marker);
    }
  }

  download(f: CloudFile): Promise<Response> {
    return this.call(`${this.api.replace(/\/+$/, "")}/files/${encodeURIComponent(f.id)}/content`);
  }
}
