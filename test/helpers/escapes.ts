/**
 * Issue 15's escape table: every way a TCP key might make the daemon read a folder or reach an address its
 * owner did not allow (sync roots, model endpoints and files, sitemap targets, redirects, names resolving
 * to loopback, schemes), crossed with each role and each route that takes one. Every network target points
 * at the trap's port, so a connection the daemon makes shows on the trap.
 */
import { join } from "node:path";
import * as accounts from "../../src/api/accounts.js";
import { KboxClient } from "../../src/client/client.js";
import type { TestDaemon } from "./daemon.js";

export const ROLES = ["SMEMBER", "SCONTRIBUTOR", "SOWNER"] as const;
export type Role = (typeof ROLES)[number];

/** A TCP client with a fresh service-account key of this role on every box. */
export async function roleKey(d: TestDaemon, role: accounts.KbRole): Promise<KboxClient> {
  const scope = { account_id: "local", kb_id: "*" };
  const { id } = await d.client.call(accounts.createServiceAccount, { params: scope, body: { title: role, role } });
  const k = await d.client.call(accounts.createServiceAccountKey, {
    params: { ...scope, sa_id: id },
    body: { expires: new Date(Date.now() + 365 * 86400e3).toISOString() },
  });
  return new KboxClient({ kind: "http", baseUrl: d.url!, apiKey: k.token });
}

/**
 * One escape attempt. `background`: a root the daemon may accept from a manager and then must fail to sync,
 * unconnected. `link`: a link field a writer may add; its extraction must fetch nothing.
 */
export interface Escape {
  name: string;
  role: Role;
  method: string;
  path: string;
  body: unknown;
  background?: boolean;
  link?: boolean;
  /** A streamed route (models pull): it may answer 200 with an error event refusing the target. */
  stream?: boolean;
}

export interface EscapeWorld {
  kbid: string;
  /** A resource whose link fields the table sets. */
  rid: string;
  /** KBOX_SYNC_ROOTS of the daemon. */
  allowed: string;
  /** A folder outside it, and a symlink to it inside it (allowed/escape). */
  outside: string;
  data: string;
  home: string;
  folderConn: string;
  sitemapConn: string;
  /** A local_folder configuration inside the allowed root, and a sitemap one on an allowed host. */
  folderConfig: string;
  sitemapConfig: string;
  /** The listener every refused target points at. */
  trapPort: number;
  /** An allowed host (KBOX_FETCH_ALLOW) answering 302 to the trap, or to the URL after `/to/`. */
  redirector: string;
}

/** Folders no key may sync. */
function folders(w: EscapeWorld): string[] {
  return [
    "/etc",
    "/",
    "/etc/passwd",
    "/root",
    "/proc/self",
    w.data,
    join(w.data, "kbs"),
    join(w.data, "kbs", w.kbid),
    w.home,
    join(w.allowed, "escape"),
    join(w.allowed, "escape", "secret.txt"),
    w.outside,
    `${w.allowed}/../../etc`,
    `${w.allowed}/notes/../../../..`,
    "../../etc",
    "~/.ssh",
  ];
}

/** Generative model names a request may not use: endpoints and files. */
function models(port: number): string[] {
  return [
    `openai:x@http://127.0.0.1:${port}/v1`,
    `predict:x@http://127.0.0.1:${port}`,
    `openai:x@http://localhost:${port}/v1`,
    `openai:x@http://LOCALHOST:${port}/v1`,
    `openai:x@http://[::1]:${port}/v1`,
    `openai:x@HTTP://127.0.0.1:${port}/v1`,
    "openai:x@http://169.254.169.254/v1",
    "openai:x@file:///etc/passwd",
    "gguf:/etc/passwd",
    "llama:/etc/passwd",
    "/etc/hostname.gguf",
  ];
}

/** URLs on non-public addresses (all at the trap's port where a port means anything) and other schemes. */
function urls(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/sitemap.xml`,
    `http://[::1]:${port}/sitemap.xml`,
    `http://[::ffff:127.0.0.1]:${port}/sitemap.xml`,
    `http://0x7f000001:${port}/`,
    `http://2130706433:${port}/`,
    `http://127.1:${port}/`,
    `http://0.0.0.0:${port}/`,
    `https://127.0.0.1:${port}/`,
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "http://10.0.0.1/sitemap.xml",
    "http://172.16.0.1/sitemap.xml",
    "http://192.168.1.1/sitemap.xml",
    "http://100.64.0.1/sitemap.xml",
    "file:///etc/passwd",
    "ftp://127.0.0.1/sitemap.xml",
    `gopher://127.0.0.1:${port}/`,
    "data:text/xml,<urlset/>",
    "javascript:alert(1)",
  ];
}

/** Names in /etc/hosts resolving to loopback (no external DNS here; ip6-localhost is not in every /etc/hosts): refused at once or failing their job before connecting. */
function names(port: number): string[] {
  return [`http://localhost:${port}/sitemap.xml`, `http://LocalHost:${port}/`];
}

/** Redirects from the allowed host to refused targets. */
function redirects(w: EscapeWorld): string[] {
  const to = (u: string) => `${w.redirector}/to/${encodeURIComponent(u)}`;
  return [
    `${w.redirector}/sitemap.xml`,
    to(`http://localhost:${w.trapPort}/`),
    to(`http://[::1]:${w.trapPort}/`),
    to(`http://0x7f000001:${w.trapPort}/`),
    to("http://169.254.169.254/latest/meta-data/"),
    to("file:///etc/passwd"),
  ];
}

export function escapeCases(w: EscapeWorld): Escape[] {
  const kb = `/api/v1/kb/${w.kbid}`;
  const out: Escape[] = [];
  for (const role of ROLES) {
    const add = (name: string, method: string, path: string, body: unknown, background = false) =>
      out.push({ name: `${role} ${name}`, role, method, path, body, background, stream: path.endsWith("/models/pull") });
    for (const root of folders(w)) {
      add(`folder root ${root}`, "POST", `${kb}/sync_configs`, {
        name: "x",
        external_connection_id: w.folderConn,
        sync_root_path: root,
      });
      add(`folder re-root ${root}`, "PATCH", `${kb}/sync_configs/${w.folderConfig}`, { sync_root_path: root });
      add(`add folder ${root}`, "POST", `${kb}/add-folder`, { root, files: ["secret.txt", "passwd"] });
    }
    for (const model of models(w.trapPort)) {
      add(`ask ${model}`, "POST", `${kb}/ask`, { query: "who?", generative_model: model });
      add(`chat ${model}`, "POST", `/api/v1/predict/chat?model=${encodeURIComponent(model)}`, {
        question: "q",
        query_context: ["c"],
      });
      add(`completion ${model}`, "POST", "/v1/chat/completions", { model, messages: [{ role: "user", content: "hi" }] });
    }
    const targets = [...urls(w.trapPort), ...names(w.trapPort)];
    for (const url of targets) {
      const bg = names(w.trapPort).includes(url);
      add(
        `sitemap ${url}`,
        "POST",
        `${kb}/sync_configs`,
        { name: "s", external_connection_id: w.sitemapConn, sync_root_path: url },
        bg,
      );
      add(`sitemap re-root ${url}`, "PATCH", `${kb}/sync_configs/${w.sitemapConfig}`, { sync_root_path: url }, bg);
      add(`model url ${url}`, "POST", "/api/v1/kbox/models", { name: "openai:probe", url, model: "m" });
      add(`hub endpoint ${url}`, "POST", "/api/v1/kbox/models/pull", { id: "bge-small-en-v1.5", endpoint: url });
    }
    targets.forEach((uri, i) => {
      out.push({
        name: `${role} link field ${uri}`,
        role,
        method: "PUT",
        path: `${kb}/resource/${w.rid}/link/${role.toLowerCase()}${i}`,
        body: { uri },
        link: true,
      });
    });
    for (const from of ["/etc", w.data, join(w.allowed, "escape")])
      add(`pull from ${from}`, "POST", "/api/v1/kbox/models/pull", { id: "bge-small-en-v1.5", from });
    redirects(w).forEach((url, i) => {
      const root = { name: "r", external_connection_id: w.sitemapConn, sync_root_path: url };
      add(`sitemap redirecting ${url}`, "POST", `${kb}/sync_configs`, root, true);
      add(`hub endpoint redirecting ${url}`, "POST", "/api/v1/kbox/models/pull", { id: "bge-small-en-v1.5", endpoint: url });
      out.push({
        name: `${role} link field redirecting ${url}`,
        role,
        method: "PUT",
        path: `${kb}/resource/${w.rid}/link/${role.toLowerCase()}r${i}`,
        body: { uri: url },
        link: true,
      });
    });
  }
  return out;
}
