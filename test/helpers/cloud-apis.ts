/**
 * The listing and download calls of the stand-in providers (cloud-standin.ts), as each provider
 * documents them: a Drive-style v3 (`/files?q='<id>' in parents`, `alt=media`, `/export`), a
 * Graph-style v1.0 (sites, drives, `items/{id}/children`, `root:/{path}:/children`, `/content`
 * redirecting to a download URL), a Dropbox-style v2 (`files/list_folder`, `/continue`,
 * `files/get_metadata`, content `files/download`) and a Box-style 2.0 (`folders/{id}/items` with
 * markers, `files/{id}/content` redirecting).
 */

import { PAGE, type Reply, type Req, type Trees } from "./cloud-standin.js";
import { type CloudNode, type CloudTree, md5, sha1 } from "./cloud-tree.js";

export const TEAM_SITE = {
  id: "contoso.example,11111111-1111-1111-1111-111111111111,22222222-2222-2222-2222-222222222222",
  displayName: "Team",
  webUrl: "https://contoso.example/sites/team",
};
/** Sites a search finds: more than the 50 a certificate connection may list. */
const SEARCH_SITES = Array.from({ length: 60 }, (_, i) => ({
  id: `contoso.example,${String(i).padStart(8, "0")}-0000-0000-0000-000000000000,${String(i).padStart(8, "0")}-1111-1111-1111-111111111111`,
  displayName: `Project ${i}`,
  webUrl: `https://contoso.example/sites/p${i}`,
}));
const SHARED_DRIVES = [1, 2, 3].map((i) => ({ id: `shared-${i}`, name: `Shared ${i}` }));

const page = <T>(all: T[], offset: number) => ({
  items: all.slice(offset, offset + PAGE),
  next: offset + PAGE < all.length ? offset + PAGE : undefined,
});
const notFound = (what: string): Reply => ({
  status: 404,
  json: { error: { code: "itemNotFound", message: `${what} not found` } },
});

function google(r: Req, t: CloudTree): Reply {
  const p = r.path.slice("/google/drive/v3".length);
  const q = r.url.searchParams;
  const off = Number(q.get("pageToken") ?? 0);
  if (p === "/drives") {
    const pg = page(SHARED_DRIVES, off);
    return { status: 200, json: { drives: pg.items, ...(pg.next ? { nextPageToken: String(pg.next) } : {}) } };
  }
  if (p === "/files") {
    const m =
      /^'((?:[^'\\]|\\.)*)' in parents and trashed = false( and mimeType = 'application\/vnd\.google-apps\.folder')?$/.exec(
        q.get("q") ?? "",
      );
    if (!m) return { status: 400, json: { error: { message: `unsupported q ${q.get("q")}` } } };
    const parent = m[1].replace(/\\(.)/g, "$1");
    const kids = t.children(parent).filter((n) => !m[2] || n.folder);
    const pg = page(kids, off);
    return { status: 200, json: { files: pg.items.map(gFile), ...(pg.next ? { nextPageToken: String(pg.next) } : {}) } };
  }
  const f = /^\/files\/([^/]+)(\/export)?$/.exec(p);
  const n = f && t.nodes.get(decodeURIComponent(f[1]));
  if (!n || n.folder) return notFound("file");
  if (f[2])
    return n.name.endsWith(".gdoc")
      ? { status: 200, text: n.content }
      : { status: 403, json: { error: { message: "exportOnlyForNativeDocs" } } };
  if (q.get("alt") === "media") return { status: 200, text: n.content };
  return { status: 200, json: gFile(n) };
}
const gFile = (n: CloudNode) => ({
  id: n.id,
  name: n.name.replace(/\.gdoc$/, ""),
  mimeType: n.folder
    ? "application/vnd.google-apps.folder"
    : n.name.endsWith(".gdoc")
      ? "application/vnd.google-apps.document"
      : "text/plain",
  modifiedTime: n.modified.toISOString(),
  version: String(n.version),
  ...(n.folder || n.name.endsWith(".gdoc") ? {} : { md5Checksum: md5(n.content), size: String(Buffer.byteLength(n.content)) }),
});

function ms(r: Req, trees: Trees, base: string): Reply {
  const api = `${base}/graph/v1.0`;
  let p = decodeURIComponent(r.path.slice("/graph/v1.0".length)).replace(/^\/me\/drive(?=\/|$)/, "/drives/drive-me");
  const off = Number(r.url.searchParams.get("$skiptoken") ?? 0);
  const paged = (all: unknown[]) => {
    const pg = page(all, off);
    const next = new URL(`${api}${r.path.slice("/graph/v1.0".length)}`);
    for (const [k, v] of r.url.searchParams) next.searchParams.set(k, v);
    next.searchParams.set("$skiptoken", String(pg.next));
    return { status: 200, json: { value: pg.items, ...(pg.next ? { "@odata.nextLink": next.toString() } : {}) } };
  };
  if (p === "/me/drives")
    return paged([{ id: "drive-me", name: "OneDrive", driveType: "personal", webUrl: "https://my.example/" }]);
  if (p === "/sites" && r.url.searchParams.has("search")) return { status: 200, json: { value: SEARCH_SITES } };
  if (p === "/sites/contoso.example:/sites/team") return { status: 200, json: TEAM_SITE };
  if (p.startsWith("/sites/") && p.endsWith("/drives")) {
    if (p !== `/sites/${TEAM_SITE.id}/drives`) return notFound("site");
    return paged([
      { id: "drive-team", name: "Documents", driveType: "documentLibrary", webUrl: `${TEAM_SITE.webUrl}/Shared` },
      { id: "drive-archive", name: "Archive", driveType: "documentLibrary", webUrl: `${TEAM_SITE.webUrl}/Archive` },
      { id: "drive-wiki", name: "Wiki", driveType: "documentLibrary", webUrl: `${TEAM_SITE.webUrl}/Wiki` },
    ]);
  }
  const d = /^\/drives\/([^/]+)(\/.*)$/.exec(p);
  const t = d && (d[1] === "drive-me" ? trees.msMe : d[1] === "drive-team" ? trees.msTeam : undefined);
  if (!d || !t) return notFound("drive");
  p = d[2];
  const byPath = /^\/root:(\/.*):\/children$/.exec(p);
  const byId = /^\/items\/([^/]+)\/children$/.exec(p);
  const content = /^\/items\/([^/]+)\/content$/.exec(p);
  let folder: CloudNode | undefined;
  if (p === "/root/children") folder = t.nodes.get(t.rootId);
  else if (byPath) folder = t.at(byPath[1]);
  else if (byId) folder = t.nodes.get(byId[1]);
  else if (content) {
    const m = content;
    const n = t.nodes.get(m[1]);
    return n && !n.folder
      ? { status: 302, headers: { location: `${base}/graph-dl/${d[1]}/${n.id}?tempauth=x` } }
      : notFound("item");
  }
  if (!folder?.folder) return notFound("folder");
  return paged(
    t.children(folder.id).map((n) => ({
      id: n.id,
      name: n.name,
      webUrl: `https://contoso.example${t.pathOf(n)}`,
      lastModifiedDateTime: n.modified.toISOString(),
      eTag: `"{${n.id}},${n.version}"`,
      cTag: `"c:{${n.id}},${n.version}"`,
      ...(n.folder
        ? { folder: { childCount: t.children(n.id).length } }
        : {
            size: Buffer.byteLength(n.content),
            file: { mimeType: "text/plain", hashes: { sha1Hash: sha1(n.content).toUpperCase() } },
          }),
    })),
  );
}

function dropbox(r: Req, t: CloudTree): Reply {
  const p = r.path;
  const entry = (n: CloudNode) => ({
    ".tag": n.folder ? "folder" : "file",
    id: n.id,
    name: n.name,
    path_display: t.pathOf(n),
    path_lower: t.pathOf(n).toLowerCase(),
    ...(n.folder
      ? {}
      : {
          content_hash: sha1(n.content),
          rev: `r${n.version}`,
          size: Buffer.byteLength(n.content),
          server_modified: n.modified.toISOString().replace(/\.\d+Z$/, "Z"),
        }),
  });
  const resolve = (path: string) =>
    path === "" ? t.nodes.get(t.rootId) : path.startsWith("id:") ? t.nodes.get(path) : t.at(path);
  const err = (summary: string): Reply => ({ status: 409, json: { error_summary: summary, error: { ".tag": "path" } } });
  if (p === "/dropbox-content/2/files/download") {
    const arg = JSON.parse(String(r.headers["dropbox-api-arg"] ?? "{}"));
    const n = resolve(arg.path ?? "");
    return n && !n.folder
      ? { status: 200, text: n.content, headers: { "dropbox-api-result": JSON.stringify(entry(n)) } }
      : err("path/not_found/");
  }
  const body = JSON.parse(r.body || "{}");
  if (p === "/dropbox/2/files/get_metadata") {
    const n = resolve(body.path);
    return n ? { status: 200, json: entry(n) } : err("path/not_found/");
  }
  let path: string;
  let recursive: boolean;
  let off: number;
  if (p === "/dropbox/2/files/list_folder") [path, recursive, off] = [body.path, !!body.recursive, 0];
  else if (p === "/dropbox/2/files/list_folder/continue")
    ({ path, recursive, off } = JSON.parse(Buffer.from(body.cursor, "base64url").toString()));
  else return { status: 404, json: { error_summary: "unknown endpoint" } };
  const folder = resolve(path);
  if (!folder?.folder) return err("path/not_found/");
  const all = recursive ? t.below(folder.id) : t.children(folder.id);
  const pg = page(all, off);
  const cursor = Buffer.from(JSON.stringify({ path, recursive, off: pg.next ?? all.length })).toString("base64url");
  return { status: 200, json: { entries: pg.items.map(entry), cursor, has_more: pg.next !== undefined } };
}

function box(r: Req, t: CloudTree, base: string): Reply {
  const p = r.path.slice("/box/2.0".length);
  let m = /^\/folders\/([^/]+)\/items$/.exec(p);
  if (m) {
    const folder = t.nodes.get(m[1]);
    if (!folder?.folder) return { status: 404, json: { type: "error", status: 404, code: "not_found", message: "Not Found" } };
    const pg = page(t.children(folder.id), Number(r.url.searchParams.get("marker") || 0));
    return {
      status: 200,
      json: {
        entries: pg.items.map((n) => ({
          type: n.folder ? "folder" : "file",
          id: n.id,
          name: n.name,
          etag: String(n.version - 1),
          modified_at: n.modified.toISOString(),
          ...(n.folder ? {} : { sha1: sha1(n.content), size: Buffer.byteLength(n.content) }),
        })),
        limit: PAGE,
        next_marker: pg.next ? String(pg.next) : null,
      },
    };
  }
  m = /^\/files\/([^/]+)\/content$/.exec(p);
  if (m) {
    const n = t.nodes.get(m[1]);
    return n && !n.folder
      ? { status: 302, headers: { location: `${base}/box-dl/${n.id}` } }
      : { status: 404, json: { code: "not_found" } };
  }
  return { status: 404, json: { code: "not_found" } };
}

export function handleApi(r: Req, trees: Trees, base: string): Reply {
  let m = /^\/graph-dl\/([^/]+)\/([^/]+)$/.exec(r.path);
  if (m) {
    const n = (m[1] === "drive-me" ? trees.msMe : trees.msTeam).nodes.get(m[2]);
    return n ? { status: 200, text: n.content } : { status: 404, text: "gone" };
  }
  m = /^\/box-dl\/([^/]+)$/.exec(r.path);
  if (m) {
    const n = trees.box.nodes.get(m[1]);
    return n ? { status: 200, text: n.content } : { status: 404, text: "gone" };
  }
  if (r.provider === "google") return google(r, trees.google);
  if (r.provider === "ms") return ms(r, trees, base);
  if (r.provider === "dropbox") return dropbox(r, trees.dropbox);
  return box(r, trees.box, base);
}
