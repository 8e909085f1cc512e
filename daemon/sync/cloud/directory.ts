/**
 * directory_oauth and directory_certificate_credentials: a Microsoft-Graph-style API. Sites
 * (`/sites/{host}:/{path}`, `/sites?search=`), a site's drives (`/sites/{id}/drives`, `/me/drives`),
 * drive items (`/drives/{id}/items/{item}/children`, `/drives/{id}/root:/{path}:/children`), paged by
 * `@odata.nextLink`; bytes: `/drives/{id}/items/{item}/content` (a redirect to a download URL).
 */
import type { BrowseQuery, BrowseResult } from "../../../src/api/sync.js";
import { badRequest } from "../../errors.js";
import { json } from "./oauth.js";
import type { ApiCall, CloudApi, CloudFile, Place } from "./types.js";

interface Item {
  id: string;
  name: string;
  webUrl?: string;
  size?: number;
  eTag?: string;
  cTag?: string;
  lastModifiedDateTime?: string;
  folder?: unknown;
  file?: { hashes?: { sha1Hash?: string; quickXorHash?: string } };
}
interface Page<T> {
  value: T[];
  "@odata.nextLink"?: string;
}

/** Certificate connections see at most this many sites in a search (the spec's rule). */
const SITE_SEARCH_MAX = 50;
const SITE_ID = /^[^,\s/]+,[0-9a-f-]{36},[0-9a-f-]{36}$/i;

export class DirectoryApi implements CloudApi {
  private readonly api: string;

  constructor(
    api: string,
    private readonly call: ApiCall,
    /** App-only (certificate) tokens: no `me`, sites found by search. */
    private readonly certificate: boolean,
  ) {
    this.api = api.replace(/\/+$/, "");
  }

  /** A next link is followed only on the API's own origin (a page token is the caller's input). */
  private page<T>(pathOrToken: string, what: string): Promise<Page<T>> {
    const url = pathOrToken.startsWith("/") ? `${this.api}${pathOrToken}` : pathOrToken;
    if (!url.startsWith(`${this.api}/`)) throw badRequest("page_token is not a page of this connection's API");
    return this.call(url).then((r) => json<Page<T>>(r, what));
  }

  private driveBase(driveId?: string | null): string {
    if (driveId) return `/drives/${encodeURIComponent(driveId)}`;
    if (this.certificate)
      throw badRequest("directory_certificate_credentials needs drive_id (from Browse Storage): it has no personal drive");
    return "/me/drive";
  }

  private folderBase(place: Place): string {
    const base = this.driveBase(place.drive_id);
    if (place.folder_id) return `${base}/items/${encodeURIComponent(place.folder_id)}`;
    const path = (place.sync_root_path ?? "").replace(/^\/+|\/+$/g, "");
    return path ? `${base}/root:/${path.split("/").map(encodeURIComponent).join("/")}:` : `${base}/root`;
  }

  async resolveSite(siteUrl: string) {
    if (this.certificate) throw badRequest("Resolve Site is unsupported for certificate connections: use site_search");
    if (/^(me|onedrive)$/i.test(siteUrl.trim())) return { id: "me", name: "OneDrive", web_url: null };
    if (!URL.canParse(siteUrl)) throw badRequest("site_url is a site's URL (https://host/sites/name), me or onedrive");
    const u = new URL(siteUrl);
    const path = u.pathname.replace(/\/+$/, "");
    const s = await json<{ id: string; displayName?: string; name?: string; webUrl?: string }>(
      await this.call(`${this.api}/sites/${u.hostname}${path ? `:${path}` : ""}`),
      `resolving site ${siteUrl}`,
    );
    return { id: s.id, name: s.displayName ?? s.name ?? s.id, web_url: s.webUrl ?? null };
  }

  async browse(q: BrowseQuery): Promise<BrowseResult> {
    if (q.site_search) {
      if (!this.certificate)
        throw badRequest("site_search is valid only for certificate-authenticated connections: use Resolve Site");
      const p = await this.page<{ id: string; displayName?: string; name?: string; webUrl?: string }>(
        `/sites?search=${encodeURIComponent(q.site_search)}&$top=${SITE_SEARCH_MAX}`,
        "searching sites",
      );
      const sites = p.value
        .slice(0, SITE_SEARCH_MAX)
        .map((s) => ({ id: s.id, name: s.displayName ?? s.name ?? s.id, web_url: s.webUrl ?? null }));
      return { sites, next_page_token: null };
    }
    if (q.drive_id) {
      const base = this.folderBase({ drive_id: q.drive_id, folder_id: q.folder_id, sync_root_path: q.path });
      const p = await this.page<Item>(q.page_token ?? `${base}/children?$top=200`, "listing folders");
      const parent = (q.path ?? "").replace(/^\/+|\/+$/g, "");
      return {
        folders: p.value
          .filter((i) => i.folder)
          .map((i) => ({ id: i.id, name: i.name, path: parent ? `${parent}/${i.name}` : i.name, web_url: i.webUrl ?? null })),
        next_page_token: p["@odata.nextLink"] ?? null,
      };
    }
    if (q.site_id) {
      const me = q.site_id.toLowerCase() === "me";
      if (me && this.certificate) throw badRequest("site_id me is the signed-in user's drive: certificate connections have none");
      if (!me && !SITE_ID.test(q.site_id)) throw badRequest("site_id has the form hostname,site-collection-id,web-id (or me)");
      const p = await this.page<{ id: string; name: string; driveType?: string; webUrl?: string }>(
        q.page_token ?? (me ? "/me/drives" : `/sites/${encodeURIComponent(q.site_id)}/drives`),
        "listing drives",
      );
      return {
        drives: p.value.map((d) => ({ id: d.id, name: d.name, drive_type: d.driveType ?? null, web_url: d.webUrl ?? null })),
        next_page_token: p["@odata.nextLink"] ?? null,
      };
    }
    throw badRequest(
      this.certificate
        ? "Browse a certificate connection with site_search, site_id or drive_id"
        : "Browsing a site-based connection needs a site_id from Resolve Site (me for the personal drive), or a drive_id",
    );
  }

  async *files(place: Place, signal?: AbortSignal): AsyncIterable<CloudFile> {
    const drive = this.driveBase(place.drive_id);
    const queue: [string, string][] = [[this.folderBase(place), ""]];
    while (queue.length) {
      const [folder, prefix] = queue.shift()!;
      let next: string | undefined = `${folder}/children?$top=200`;
      while (next) {
        if (signal?.aborted) throw new Error("cancelled");
        const p: Page<Item> = await this.page<Item>(next, `listing ${prefix || "/"}`);
        for (const i of p.value) {
          const path = `${prefix}${i.name}`;
          if (i.folder) queue.push([`${drive}/items/${encodeURIComponent(i.id)}`, `${path}/`]);
          else if (i.file)
            yield {
              id: i.id,
              path,
              name: i.name,
              modified: new Date(i.lastModifiedDateTime ?? 0),
              size: i.size ?? 0,
              hash: i.file.hashes?.sha1Hash ?? i.file.hashes?.quickXorHash ?? i.cTag ?? i.eTag ?? "",
              ref: drive,
            };
        }
        next = p["@odata.nextLink"];
      }
    }
  }

  download(f: CloudFile): Promise<Response> {
    return this.call(`${this.api}${f.ref ?? this.driveBase()}/items/${encodeURIComponent(f.id)}/content`);
  }
}
