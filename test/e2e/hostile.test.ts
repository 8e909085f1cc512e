import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as daemonApi from "../../src/api/daemon.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { type Escape, escapeCases, ROLES, roleKey } from "../helpers/escapes.js";
import { rawCall } from "../helpers/raw.js";
import { Trap } from "../helpers/trap.js";

/** One hostile request and the status it must get. */
interface Case {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  expect: number;
  /** Also check the 422 locates the problem here. */
  loc?: (string | number)[];
}

let d: TestDaemon;
let kbid: string;
let rid: string;
const SENTINEL = `kbox-escape-${process.pid}-${Date.now()}`;
const MISSING_KB = "00000000-0000-4000-8000-000000000000";
const MISSING_RID = "f".repeat(32);

beforeAll(async () => {
  d = await startTestDaemon();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "hostile" } })).uuid;
  rid = (await d.client.call(resources.createResource, { params: { kbid }, body: { slug: "target", title: "Target" } })).uuid;
});
afterAll(async () => {
  await d.stop();
});

const TRAVERSALS = [
  "../../etc/passwd",
  `../../../../../../tmp/${SENTINEL}`,
  "..\\..\\windows\\system32",
  "/etc/passwd",
  "....//....//etc/passwd",
  "..",
  ".",
  "a/../../b",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "..%2F..%2Fetc%2Fpasswd",
  "%252e%252e%252f",
  "name\u0000.txt",
  "~/.ssh/id_rsa",
];

function cases(): Case[] {
  const kb = `/api/v1/kb/${kbid}`;
  const res = `${kb}/resource/${rid}`;
  const out: Case[] = [];
  const add = (c: Case) => out.push(c);

  // Malformed JSON on every JSON-taking route.
  const badJson = [
    "{",
    "not json",
    "[1,2",
    '{"a":}',
    '{"title": "x"',
    "{'single': 1}",
    '{"a":1}}',
    "\u0000",
    "NaN",
    '{"a": undefined}',
  ];
  const jsonRoutes: [string, string][] = [
    ["POST", "/api/v1/kbs"],
    ["POST", `${kb}/resources`],
    ["PATCH", res],
    ["PATCH", `${kb}/slug/target`],
    ["PUT", `${res}/text/t1`],
    ["PATCH", kb],
  ];
  for (const [method, path] of jsonRoutes) {
    for (const text of badJson)
      add({ name: `bad json ${JSON.stringify(text)} ${method} ${path}`, method, path, body: text, expect: 422, loc: ["body"] });
  }

  // Wrong types in resource payloads.
  const wrongTypes: [string, unknown][] = [
    ["title", 1],
    ["title", ["a"]],
    ["summary", { a: 1 }],
    ["slug", 5],
    ["hidden", "yes"],
    ["texts", "x"],
    ["texts", { body: "just a string" }],
    ["texts", { body: { body: 42 } }],
    ["links", { l: { uri: 7 } }],
    ["links", { l: { uri: "not a url" } }],
    ["files", { f: { file: "abc" } }],
    ["files", { f: { file: { filename: "a", payload: "!!!not base64!!!" } } }],
    ["conversations", { c: { messages: "hello" } }],
    ["conversations", { c: { messages: [{ content: { text: "no ident" } }] } }],
    ["key_values", { k: { data: { a: 1 } } }],
    ["security", { access_groups: "g" }],
    ["origin", { tags: "t" }],
    ["origin", { metadata: { a: 1 } }],
    ["origin", { sync_metadata: "x" }],
    ["usermetadata", { classifications: [{ labelset: 1, label: "x" }] }],
    ["usermetadata", { classifications: "topic/a" }],
    ["usermetadata", { relations: [{ relation: "ABOUT" }] }],
    ["metadata", { languages: "en" }],
    ["extra", { metadata: "x" }],
    ["fieldmetadata", { field: "x" }],
  ];
  for (const [key, value] of wrongTypes) {
    add({
      name: `wrong type ${key}=${JSON.stringify(value)}`,
      method: "POST",
      path: `${kb}/resources`,
      body: { [key]: value },
      expect: 422,
      loc: ["body", key],
    });
    add({
      name: `wrong type on patch ${key}`,
      method: "PATCH",
      path: res,
      body: { [key]: value },
      expect: 422,
      loc: ["body", key],
    });
  }
  for (const body of [null, 1, "str", [], true]) {
    add({
      name: `body ${JSON.stringify(body)}`,
      method: "POST",
      path: `${kb}/resources`,
      body: JSON.stringify(body),
      expect: 422,
      loc: ["body"],
    });
  }
  add({ name: "empty body", method: "POST", path: `${kb}/resources`, body: "", expect: 422, loc: ["body"] });

  // Unknown members where the resource payload forbids them; prototype keys are just unknown keys.
  for (const key of ["nonsense", "__proto__", "constructor", "uuid", "id"]) {
    add({
      name: `unknown member ${key}`,
      method: "POST",
      path: `${kb}/resources`,
      body: `{"${key}": {"polluted": true}, "title": "x"}`,
      expect: 422,
      loc: ["body", key],
    });
  }

  // Strings over the documented limits.
  const big = (n: number) => "x".repeat(n);
  add({
    name: "title too long",
    method: "POST",
    path: `${kb}/resources`,
    body: { title: big(10_001) },
    expect: 422,
    loc: ["body", "title"],
  });
  add({
    name: "summary too long",
    method: "POST",
    path: `${kb}/resources`,
    body: { summary: big(100_001) },
    expect: 422,
    loc: ["body", "summary"],
  });
  add({
    name: "icon too long",
    method: "POST",
    path: `${kb}/resources`,
    body: { icon: big(256) },
    expect: 422,
    loc: ["body", "icon"],
  });
  add({
    name: "slug too long",
    method: "POST",
    path: `${kb}/resources`,
    body: { slug: big(251) },
    expect: 422,
    loc: ["body", "slug"],
  });
  add({
    name: "text body over 20 MiB",
    method: "PUT",
    path: `${res}/text/huge`,
    body: { body: big(20 * 1024 * 1024 + 1) },
    expect: 422,
    loc: ["body", "body"],
  });
  add({
    name: "field id too long",
    method: "PUT",
    path: `${res}/text/${big(251)}`,
    body: { body: "x" },
    expect: 422,
    loc: ["path", "field_id"],
  });
  add({
    name: "kb title too long",
    method: "POST",
    path: "/api/v1/kbs",
    body: { title: big(1001) },
    expect: 422,
    loc: ["body", "title"],
  });
  add({
    name: "kb slug too long",
    method: "POST",
    path: "/api/v1/kbs",
    body: { slug: big(251) },
    expect: 422,
    loc: ["body", "slug"],
  });
  add({
    name: "too many messages",
    method: "PUT",
    path: `${res}/conversation/c/messages`,
    body: Array.from({ length: 10_001 }, (_, i) => ({ ident: `${i}`, content: {} })),
    expect: 422,
  });
  add({ name: "no messages", method: "PUT", path: `${res}/conversation/c/messages`, body: [], expect: 422 });
  add({
    name: "deep nesting",
    method: "POST",
    path: `${kb}/resources`,
    body: `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
    expect: 422,
  });
  const deep = (n: number) => `${'{"a":'.repeat(n)}"leaf"${"}".repeat(n)}`;
  add({
    name: "deep extra metadata",
    method: "POST",
    path: `${kb}/resources`,
    body: `{"extra":{"metadata":${deep(50_000)}}}`,
    expect: 422,
    loc: ["body"],
  });
  add({
    name: "deep origin",
    method: "PATCH",
    path: res,
    body: `{"extra":{"metadata":${'{"a":'.repeat(100)}1${"}".repeat(100)}}}`,
    expect: 422,
    loc: ["body"],
  });

  // Path traversal in slugs, field ids, resource ids, kb ids and filenames.
  for (const t of TRAVERSALS) {
    const enc = encodeURIComponent(t);
    add({ name: `kb slug ${t}`, method: "POST", path: "/api/v1/kbs", body: { slug: t }, expect: 422, loc: ["body", "slug"] });
    add({
      name: `resource slug ${t}`,
      method: "POST",
      path: `${kb}/resources`,
      body: { slug: t },
      expect: 422,
      loc: ["body", "slug"],
    });
    add({
      name: `field id in body ${t}`,
      method: "POST",
      path: `${kb}/resources`,
      body: { texts: { [t]: { body: "x" } } },
      expect: 422,
    });
    // "." and ".." are dot segments that URL parsing resolves: they name the resource, or nothing.
    const dots = t === ".." ? { expect: 405 } : t === "." ? { expect: 404 } : { expect: 422, loc: ["path", "field_id"] };
    add({ name: `field id in path ${t}`, method: "PUT", path: `${res}/text/${enc}`, body: { body: "x" }, ...dots });
    add({ name: `slug in path ${t}`, method: "GET", path: `${kb}/slug/${enc}`, expect: 404 });
    add({ name: `rid in path ${t}`, method: "GET", path: `${kb}/resource/${enc}`, expect: 404 });
    add({ name: `kbid in path ${t}`, method: "GET", path: `/api/v1/kb/${enc}/resources`, expect: 404 });
    add({ name: `kb slug in path ${t}`, method: "GET", path: `/api/v1/kb/s/${enc}`, expect: 404 });
  }
  // Un-encoded dot segments are resolved by URL parsing before routing: they land on other paths.
  add({
    name: "raw dot segments to a resource",
    method: "GET",
    path: `${kb}/resource/${rid}/../../../../etc/passwd`,
    expect: 404,
  });
  add({ name: "raw dot segments above the api", method: "GET", path: "/api/v1/../../../../etc/passwd", expect: 404 });

  // Unknown knowledge boxes and resources.
  for (const [method, suffix, body] of [
    ["GET", "", undefined],
    ["GET", "/resources", undefined],
    ["POST", "/resources", { title: "x" }],
    ["GET", "/counters", undefined],
    ["PATCH", "", { title: "x" }],
    ["DELETE", "", undefined],
    ["GET", `/resource/${MISSING_RID}`, undefined],
  ] as [string, string, unknown][]) {
    add({ name: `missing kb ${method} ${suffix}`, method, path: `/api/v1/kb/${MISSING_KB}${suffix}`, body, expect: 404 });
    add({ name: `malformed kb ${method} ${suffix}`, method, path: `/api/v1/kb/not-a-uuid${suffix}`, body, expect: 404 });
  }
  for (const [method, suffix, body] of [
    ["GET", "", undefined],
    ["HEAD", "", undefined],
    ["PATCH", "", { title: "x" }],
    ["DELETE", "", undefined],
    ["PUT", "/text/t", { body: "x" }],
    ["GET", "/text/t", undefined],
    ["DELETE", "/text/t", undefined],
    ["PUT", "/conversation/c/messages", [{ ident: "1", content: { text: "x" } }]],
    ["POST", "/reprocess", undefined],
  ] as [string, string, unknown][]) {
    add({
      name: `missing resource ${method} ${suffix}`,
      method,
      path: `${kb}/resource/${MISSING_RID}${suffix}`,
      body,
      expect: 404,
    });
    add({ name: `missing slug ${method} ${suffix}`, method, path: `${kb}/slug/no-such-slug${suffix}`, body, expect: 404 });
  }
  add({ name: "missing field", method: "GET", path: `${res}/text/nope`, expect: 404 });
  add({ name: "missing field delete", method: "DELETE", path: `${res}/link/nope`, expect: 404 });
  add({ name: "unknown route", method: "GET", path: "/api/v1/nope", expect: 404 });
  add({ name: "other api version", method: "GET", path: "/api/v2/kbs", expect: 404 });
  add({ name: "root", method: "GET", path: "/", expect: 404 });

  // Wrong methods on known paths.
  for (const [method, path] of [
    ["DELETE", "/api/v1/kbs"],
    ["PUT", "/api/v1/kbs"],
    ["PATCH", "/api/v1/kbs"],
    ["PUT", `${kb}/resources`],
    ["DELETE", `${kb}/resources`],
    ["POST", res],
    ["PUT", res],
    ["POST", `${res}/text/t`],
    ["PATCH", `${res}/text/t`],
    ["POST", kb],
    ["PUT", `${kb}/counters`],
    ["GET", "/api/v1/kbox/shutdown"],
  ]) {
    add({ name: `wrong method ${method} ${path}`, method, path, body: method === "GET" ? undefined : {}, expect: 405 });
  }

  // Invalid enum values.
  add({
    name: "text format",
    method: "POST",
    path: `${kb}/resources`,
    body: { texts: { t: { body: "x", format: "WORD" } } },
    expect: 422,
    loc: ["body", "texts", "t", "format"],
  });
  add({
    name: "message type",
    method: "PUT",
    path: `${res}/conversation/c`,
    body: { messages: [{ ident: "1", type: "SHOUT", content: {} }] },
    expect: 422,
  });
  add({
    name: "message format",
    method: "PUT",
    path: `${res}/conversation/c`,
    body: { messages: [{ ident: "1", content: { format: "DOCX" } }] },
    expect: 422,
  });
  add({ name: "show value", method: "GET", path: `${res}?show=everything`, expect: 422, loc: ["query", "show", 0] });
  add({
    name: "field_type value",
    method: "GET",
    path: `${res}?show=values&field_type=video`,
    expect: 422,
    loc: ["query", "field_type", 0],
  });
  add({ name: "extracted value", method: "GET", path: `${res}?show=extracted&extracted=secrets`, expect: 422 });
  add({
    name: "field type in path",
    method: "PUT",
    path: `${res}/video/v`,
    body: { body: "x" },
    expect: 422,
    loc: ["path", "field_type"],
  });
  add({ name: "field type in path (get)", method: "GET", path: `${res}/video/v`, expect: 422, loc: ["path", "field_type"] });
  add({ name: "generic is not writable", method: "PUT", path: `${res}/generic/title`, body: "x", expect: 422 });
  add({
    name: "sa role",
    method: "POST",
    path: "/api/v1/account/local/kb/*/service_accounts",
    body: { title: "x", role: "ADMIN" },
    expect: 422,
    loc: ["body", "role"],
  });
  add({
    name: "sa empty title",
    method: "POST",
    path: "/api/v1/account/local/kb/*/service_accounts",
    body: { title: " ", role: "SMEMBER" },
    expect: 422,
    loc: ["body", "title"],
  });
  add({
    name: "sa unknown kb",
    method: "POST",
    path: `/api/v1/account/local/kb/${MISSING_KB}/service_accounts`,
    body: { title: "x", role: "SMEMBER" },
    expect: 404,
  });
  add({
    name: "sa key expiry",
    method: "POST",
    path: "/api/v1/account/local/kb/*/service_account/x/keys",
    body: { expires: "tomorrow" },
    expect: 422,
    loc: ["body", "expires"],
  });
  add({
    name: "sa key for missing account",
    method: "POST",
    path: "/api/v1/account/local/kb/*/service_account/x/keys",
    body: { expires: "2099-01-01T00:00:00Z" },
    expect: 404,
  });
  add({ name: "kb slug upper case", method: "POST", path: "/api/v1/kbs", body: { slug: "Upper" }, expect: 422 });
  add({ name: "kb patch slug", method: "PATCH", path: kb, body: { slug: "no spaces" }, expect: 422 });
  add({ name: "kb patch type", method: "PATCH", path: kb, body: { enforce_security: "yes" }, expect: 422 });

  // Query parameters.
  for (const q of ["page=-1", "size=0", "size=201", "page=abc", "size=1.5", "size=1e3"]) {
    add({ name: `list ${q}`, method: "GET", path: `${kb}/resources?${q}`, expect: 422 });
  }

  // Conflicts.
  add({ name: "resource slug clash", method: "POST", path: `${kb}/resources`, body: { slug: "target" }, expect: 409 });
  add({ name: "kb slug clash", method: "POST", path: "/api/v1/kbs", body: { slug: "hostile" }, expect: 419 });
  return out;
}

/** Send a request head claiming a body over the limit; the daemon must refuse before reading it. */
function oversized(socket: string, path: string): Promise<number> {
  return new Promise((res, rej) => {
    const s = connect(socket);
    let buf = "";
    s.on("data", (chunk) => {
      buf += chunk.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(buf);
      if (m) {
        s.destroy();
        res(Number(m[1]));
      }
    });
    s.on("error", rej);
    s.write(
      `POST ${path} HTTP/1.1\r\nhost: kboxd\r\ncontent-type: application/json\r\ncontent-length: ${65 * 1024 * 1024}\r\n\r\n{"title":`,
    );
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("hostile input", () => {
  it("answers at least 200 malformed or hostile requests with the right 4xx and stays up", async () => {
    const all = cases();
    expect(all.length).toBeGreaterThanOrEqual(200);
    const wrong: string[] = [];
    for (const c of all) {
      const r = await rawCall(d.client, c.method, c.path, c.body, c.headers).catch((e) => {
        throw new Error(`${c.name}: ${(e as Error).message}`);
      });
      if (r.status !== c.expect) {
        wrong.push(`${c.name}: ${r.status} (want ${c.expect}) ${r.text.slice(0, 200)}`);
        continue;
      }
      if (c.method !== "HEAD") expect(r.json, c.name).toHaveProperty("detail");
      if (c.loc) {
        const detail = (r.json as { detail: { loc: unknown[] }[] }).detail;
        expect(Array.isArray(detail), c.name).toBe(true);
        expect(
          detail.some((i) => c.loc!.every((p, k) => i.loc[k] === p)),
          `${c.name}: ${JSON.stringify(detail).slice(0, 300)}`,
        ).toBe(true);
      }
      if (c.expect === 405) expect(r.headers.allow, c.name).toBeTruthy();
    }
    expect(wrong).toEqual([]);
  });

  it("refuses a body over the 64 MiB limit by its content-length with 413", async () => {
    expect(await oversized(d.daemon.paths.socket, `/api/v1/kb/${kbid}/resources`)).toBe(413);
    expect(await oversized(d.daemon.paths.socket, "/api/v1/kbs")).toBe(413);
  });

  it("accepts hostile filenames as plain metadata and writes nothing outside KBOX_HOME", async () => {
    for (const filename of TRAVERSALS) {
      const payload = Buffer.from(`bytes of ${filename}`).toString("base64");
      const r = await rawCall(d.client, "PUT", `/api/v1/kb/${kbid}/resource/${rid}/file/upload1`, {
        file: { filename, payload },
      });
      expect(r.status, filename).toBe(201);
      const f = await d.client.call(resources.getField.byId, { params: { kbid, rid, field_type: "file", field_id: "upload1" } });
      expect((f.value as { file: { filename: string } }).file.filename).toBe(filename);
    }
    const home = resolve(d.home);
    for (const f of filesUnder(home)) expect(resolve(f).startsWith(home + sep)).toBe(true);
    // The sentinel named by the traversals exists nowhere it could have escaped to.
    for (let dir = home; ; dir = dirname(dir)) {
      expect(existsSync(join(dir, SENTINEL)), dir).toBe(false);
      if (dirname(dir) === dir) break;
    }
    expect(existsSync(join("/tmp", SENTINEL))).toBe(false);
    expect(existsSync(join(process.cwd(), SENTINEL))).toBe(false);
    // The uploaded file and the extraction outputs of the resource's fields, all under its folder.
    // Small blobs are packed (blobs/packs/): their keys are what kbox named, never a filename.
    const store = await d.daemon.services.store.kb(kbid);
    // Each upload's bytes replaced the last's (removed once the new record is committed).
    await vi.waitFor(async () =>
      expect((await store.blobs.keysUnder("r")).filter((k) => !k.includes("/extracted/"))).toHaveLength(1),
    );
    const keys = await store.blobs.keysUnder("r");
    for (const k of keys) expect(k.startsWith(`r/${rid}/`)).toBe(true);
    const blobDir = join(home, "data", "kbs", kbid, "blobs");
    for (const b of filesUnder(blobDir))
      expect(b.startsWith(join(blobDir, "r", rid) + sep) || b.startsWith(join(blobDir, "packs") + sep)).toBe(true);
  });

  it("still answers hello and kept the good data", async () => {
    const h = await d.client.call(daemonApi.hello);
    expect(h.name).toBe("kboxd");
    const r = await d.client.call(resources.getResource.bySlug, { params: { kbid, rslug: "target" } });
    expect(r.title).toBe("Target");
    const list = await d.client.call(resources.listResources, { params: { kbid } });
    expect(list.resources.map((x) => x.id)).toEqual([rid]);
    const names = (await d.client.call(kbs.listKbs)).kbs.map((k) => k.slug);
    expect(names).toEqual(["hostile"]);
  });
});

describe("security: keys of each role trying to make the daemon read or fetch what its owner did not allow", () => {
  let t: TestDaemon;
  let trap: Trap;
  let redirector: Trap;
  let allowed: string;
  let outside: string;
  const keys: Partial<Record<Escape["role"], KboxClient>> = {};
  beforeAll(async () => {
    allowed = mkdtempSync(join(tmpdir(), "kbox-allowed-"));
    outside = mkdtempSync(join(tmpdir(), "kbox-outside-"));
    mkdirSync(join(allowed, "notes"));
    writeFileSync(join(outside, "secret.txt"), "the outside secret");
    symlinkSync(outside, join(allowed, "escape"));
    trap = await Trap.start();
    // 127.0.0.2 is a host the owner allowed; it redirects to the trap (127.0.0.1), which it did not.
    redirector = await Trap.start((req, res) => {
      const to = req.url?.startsWith("/to/") ? decodeURIComponent(req.url.slice(4)) : `${trap.url}/sitemap.xml`;
      res.writeHead(302, { location: to });
      res.end();
    }, "127.0.0.2");
    t = await startTestDaemon({
      listen: "127.0.0.1:0",
      env: { ...OFFLINE, KBOX_SYNC_ROOTS: allowed, KBOX_FETCH_ALLOW: "127.0.0.2" },
    });
    for (const role of ROLES) keys[role] = await roleKey(t, role);
  });
  afterAll(async () => {
    await t?.stop();
    await trap?.close();
    await redirector?.close();
    rmSync(allowed, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("refuses 300+ escapes over TCP with 4xx, or fails their sync job; the trap sees 0 connections", async () => {
    const sid = (await t.client.call(kbs.createKb, { body: { slug: "escapes" } })).uuid;
    const kb = `/api/v1/kb/${sid}`;
    const post = async (path: string, body: unknown) => {
      const r = await rawCall(t.client, "POST", `${kb}${path}`, body);
      expect(r.status, `${path} ${r.text}`).toBe(201);
      return (r.json as { id: string }).id;
    };
    const folderConn = await post("/external_connections", { provider: "local_folder" });
    const sitemapConn = await post("/external_connections", { provider: "sitemap" });
    const links = {
      rid: ((await rawCall(t.client, "POST", `${kb}/resources`, { slug: "links", title: "Links" })).json as { uuid: string })
        .uuid,
    };
    const root = (conn: string, path: string) => ({ name: "ok", external_connection_id: conn, sync_root_path: path });
    const all = escapeCases({
      kbid: sid,
      rid: links.rid,
      allowed,
      outside,
      data: t.daemon.paths.data,
      home: t.home,
      folderConn,
      sitemapConn,
      folderConfig: await post("/sync_configs", root(folderConn, join(allowed, "notes"))),
      sitemapConfig: await post("/sync_configs", root(sitemapConn, `${redirector.url}/sitemap.xml`)),
      trapPort: trap.port,
      redirector: redirector.url,
    });
    expect(all.length).toBeGreaterThanOrEqual(300);
    const wrong: string[] = [];
    const accepted = new Set<string>();
    let streamed = 0;
    let linked = 0;
    for (const c of all) {
      const r = await rawCall(keys[c.role]!, c.method, c.path, c.body);
      if (c.background && c.role === "SOWNER" && r.status >= 200 && r.status < 300) {
        accepted.add((r.json as { id: string }).id);
        continue;
      }
      if (c.link && c.role !== "SMEMBER" && r.status === 201) {
        linked++;
        continue;
      }
      if (
        c.stream &&
        r.status === 200 &&
        /"type":"error","detail":"(blocked: |only http and https)/.test(r.text) &&
        !/"type":"done"/.test(r.text)
      ) {
        streamed++;
        continue;
      }
      if (r.status < 400 || r.status >= 500) wrong.push(`${c.name}: ${r.status} ${r.text.slice(0, 160)}`);
      if (r.text.includes(Trap.SECRET)) wrong.push(`${c.name}: echoed the trap's page`);
    }
    expect(wrong).toEqual([]);
    // Configurations a manager could add (names resolving to loopback, an allowed host redirecting there)
    // sync to a failed job, never to a connection.
    for (const id of accepted) {
      let jobs: { status: string; error: string | null }[] = [];
      for (let i = 0; i < 100; i++) {
        jobs = ((await rawCall(t.client, "GET", `${kb}/sync_configs/${id}/jobs?limit=20`)).json as { items: typeof jobs }).items;
        if (jobs.length && jobs.every((j) => /completed|failed/.test(j.status))) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(jobs.length, id).toBeGreaterThan(0);
      for (const j of jobs) expect(j, id).toMatchObject({ status: "failed", error: expect.stringMatching(/blocked|only http/) });
    }
    // Link fields a writer could add: each one's extraction ends in an error, before the trap is read.
    let fields: Record<string, { status?: string; error?: { code_str?: string } }> = {};
    for (let i = 0; i < 200; i++) {
      const res = (await rawCall(t.client, "GET", `${kb}/resource/${links.rid}?show=errors&show=basic`)).json as {
        data?: { links?: typeof fields };
      };
      fields = res.data?.links ?? {};
      if (Object.values(fields).filter((f) => /BLOCKED|ERROR/.test(f.status ?? "")).length >= linked) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(linked).toBeGreaterThan(0);
    expect(Object.keys(fields)).toHaveLength(linked);
    for (const [id, f] of Object.entries(fields)) {
      // Non-public addresses end BLOCKED; other schemes are not links (INVALID_INPUT).
      expect(f.status, id).toMatch(/^(BLOCKED|ERROR)$/);
      expect(f.error?.code_str, id).toMatch(/^(BLOCKED|INVALID_INPUT)$/);
    }
    // The allowed host was reached (the redirects were tried) and the trap never was.
    expect(redirector.seen.some((r) => r.url.startsWith("/to/"))).toBe(true);
    expect(trap.connections).toBe(0);
    expect(trap.seen).toEqual([]);
    expect((await t.client.call(daemonApi.hello)).name).toBe("kboxd");
    console.log(
      `security table: ${all.length} requests, ${accepted.size} accepted configurations failed their jobs, ${streamed} pulls refused in their stream, ${linked} link fields blocked at extraction`,
    );
  });

  it("a manager's configured model endpoint on loopback (or redirecting there) is refused when used, 0 connections", async () => {
    const mkb = (await t.client.call(kbs.createKb, { body: { slug: "endpoints" } })).uuid;
    const kb = `/api/v1/kb/${mkb}`;
    const made = await rawCall(t.client, "POST", `${kb}/resources`, {
      slug: "ship",
      title: "Ship",
      texts: { t: { body: "The team ships every Friday." } },
    });
    expect(made.status).toBe(201);
    const endpoint = (url: string) => ({ user_keys: { openai: { url, key: "sk-manager" } } });
    for (const role of ["SMEMBER", "SCONTRIBUTOR"] as const)
      expect((await rawCall(keys[role]!, "PATCH", `${kb}/configuration`, endpoint(`${trap.url}/v1`))).status, role).toBe(403);
    const urls = [
      `${trap.url}/v1`,
      `http://localhost:${trap.port}/v1`,
      `http://[::1]:${trap.port}/v1`,
      `${redirector.url}/to/${encodeURIComponent(`${trap.url}/v1/chat/completions`)}`,
    ];
    for (const url of urls) {
      expect((await rawCall(keys.SOWNER!, "PATCH", `${kb}/configuration`, endpoint(url))).status, url).toBe(200);
      let text = "";
      for (let i = 0; i < 100; i++) {
        const r = await rawCall(keys.SOWNER!, "POST", `${kb}/ask`, {
          query: "When does the team ship?",
          features: ["keyword"],
          generative_model: "openai:x",
        });
        text = r.text;
        if (!text.includes("no_retrieval_data")) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      // Model endpoints do not follow redirects at all: the allowed host's 302 is the answer.
      expect(text, url).toMatch(/"type":"error","error":"(blocked: |model endpoint answered 302)/);
      expect(text).not.toContain(Trap.SECRET);
    }
    expect(trap.connections).toBe(0);
  });
});
