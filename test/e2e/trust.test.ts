/**
 * Issue 15's attacks through the real daemon, with TCP keys of each role: a key may not make the daemon
 * read a folder or fetch an address its owner did not allow, nor send its stored secrets elsewhere.
 * Every internal target is a loopback stand-in (Trap) that counts connections: refusals make none.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import type { KboxClient } from "../../src/client/client.js";
import { ask } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { ROLES, roleKey } from "../helpers/escapes.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";
import { Trap } from "../helpers/trap.js";

let d: TestDaemon;
let kbid: string;
let allowed: string;
let outside: string;
let trap: Trap;
const keys: Record<string, KboxClient> = {};

beforeAll(async () => {
  allowed = mkdtempSync(join(tmpdir(), "kbox-allowed-"));
  outside = mkdtempSync(join(tmpdir(), "kbox-outside-"));
  mkdirSync(join(allowed, "notes"));
  writeFileSync(join(outside, "secret.txt"), "the outside secret");
  symlinkSync(outside, join(allowed, "escape"));
  trap = await Trap.start();
  // 127.0.0.2 stands for a host the owner allowed; 127.0.0.1 (the trap) for one it did not.
  d = await startTestDaemon({
    listen: "127.0.0.1:0",
    env: { ...OFFLINE, KBOX_SYNC_ROOTS: allowed, KBOX_FETCH_ALLOW: "127.0.0.2" },
  });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "trust" } })).uuid;
  for (const role of ROLES) keys[role] = await roleKey(d, role);
});
afterAll(async () => {
  await d?.stop();
  await trap?.close();
  rmSync(allowed, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const kb = () => `/api/v1/kb/${kbid}`;

async function connection(provider: string): Promise<string> {
  const r = await rawCall(d.client, "POST", `${kb()}/external_connections`, { provider });
  expect(r.status).toBe(201);
  return (r.json as { id: string }).id;
}

describe("folder sync roots (fault 1)", () => {
  it("a WRITER key may not create connections or sync configurations (configuration is a manager's)", async () => {
    const conn = await connection("local_folder");
    for (const role of ["SMEMBER", "SCONTRIBUTOR"]) {
      expect((await rawCall(keys[role], "POST", `${kb()}/external_connections`, { provider: "local_folder" })).status).toBe(403);
      const r = await rawCall(keys[role], "POST", `${kb()}/sync_configs`, {
        name: "etc",
        external_connection_id: conn,
        sync_root_path: "/etc",
      });
      expect(r.status).toBe(403);
    }
  });

  it("a MANAGER key syncs only inside KBOX_SYNC_ROOTS; /etc, the data folder and symlinks out are refused with 403", async () => {
    const conn = await connection("local_folder");
    const add = (root: string) =>
      rawCall(keys.SOWNER, "POST", `${kb()}/sync_configs`, { name: "x", external_connection_id: conn, sync_root_path: root });
    for (const root of ["/etc", "/", d.daemon.paths.data, join(d.daemon.paths.data, "kbs"), join(allowed, "escape"), outside]) {
      const r = await add(root);
      expect(r.status, root).toBe(403);
      expect(r.text).toMatch(/KBOX_SYNC_ROOTS|data folder/);
    }
    // Up through the root as many times as the allowed folder is deep: /etc, whatever the temporary folder.
    const up = allowed.split("/").map(() => "..");
    expect((await add(`${allowed}/${up.join("/")}/etc`)).status).toBe(403);
    const ok = await add(join(allowed, "notes"));
    expect(ok.status).toBe(201);
    expect((ok.json as { sync_root_path: string }).sync_root_path).toBe(join(allowed, "notes"));
  });

  it("the socket's owner may sync any folder, but never the data folder or one that contains it", async () => {
    const conn = await connection("local_folder");
    const add = (root: string) =>
      rawCall(d.client, "POST", `${kb()}/sync_configs`, { name: "x", external_connection_id: conn, sync_root_path: root });
    expect((await add(d.daemon.paths.data)).status).toBe(403);
    expect((await add(join(d.daemon.paths.data, "kbs"))).status).toBe(403);
    expect((await add(d.home)).status).toBe(403);
    expect((await add(outside)).status).toBe(201);
  });
});

describe("model endpoints a request names (fault 2)", () => {
  it("a READER's ask, chat or completion may not name an endpoint or a model file: 422, no connection made", async () => {
    const before = trap.connections;
    for (const model of [
      `openai:x@${trap.url}/v1`,
      `predict:x@${trap.url}`,
      `openai:x@http://localhost:${trap.port}/v1`,
      "gguf:/etc/passwd",
      "/etc/hostname.gguf",
    ]) {
      const ask = await rawCall(keys.SMEMBER, "POST", `${kb()}/ask`, { query: "who?", generative_model: model });
      expect(ask.status, model).toBe(422);
      expect(ask.text).toMatch(/may not name a model (endpoint|file)/);
      const chat = await rawCall(keys.SMEMBER, "POST", `/api/v1/predict/chat?model=${encodeURIComponent(model)}`, {
        question: "q",
        query_context: ["c"],
      });
      expect(chat.status, model).toBe(422);
      const comp = await rawCall(keys.SMEMBER, "POST", "/v1/chat/completions", {
        model,
        messages: [{ role: "user", content: "hi" }],
      });
      expect(comp.status, model).toBe(422);
    }
    expect(trap.connections).toBe(before);
  });

  it("an owner key may not point a box's configuration at a model file: 403, and nothing says whether the file exists", async () => {
    for (const model of ["gguf:/etc/passwd", "gguf:/no/such/file.gguf", "/etc/hostname.gguf"]) {
      const set = await rawCall(keys.SOWNER, "PATCH", `${kb()}/configuration`, { generative_model: model });
      expect(set.status, model).toBe(403);
      expect(set.text).toMatch(/Only the socket's owner may point a knowledge box at a model file/);
      expect(set.text).not.toMatch(/root|no GGUF model file/);
    }
    const conf = await rawCall(keys.SOWNER, "GET", `${kb()}/configuration`);
    expect(conf.text).not.toContain("/etc/passwd");
  });
});

describe("one outbound policy (fault 3)", () => {
  it("sitemap roots on private addresses are refused with 403; a name resolving to loopback fails its job, unconnected", async () => {
    const conn = await connection("sitemap");
    const add = (client: KboxClient, root: string) =>
      rawCall(client, "POST", `${kb()}/sync_configs`, { name: "s", external_connection_id: conn, sync_root_path: root });
    for (const root of [
      `${trap.url}/sitemap.xml`,
      `http://[::1]:${trap.port}/sitemap.xml`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://10.0.0.1/sitemap.xml`,
      `http://0x7f000001:${trap.port}/`,
    ]) {
      const r = await add(keys.SOWNER, root);
      expect(r.status, root).toBe(403);
      expect(r.text).toContain("private address");
    }
    for (const root of ["file:///etc/passwd", "gopher://127.0.0.1/", "ftp://example.com/sitemap.xml"])
      expect((await add(d.client, root)).status, root).toBe(400);
    const before = trap.connections;
    const r = await add(d.client, `http://localhost:${trap.port}/sitemap.xml`);
    expect(r.status).toBe(201);
    const id = (r.json as { id: string }).id;
    let job: { status: string; error: string | null } | undefined;
    for (let i = 0; i < 100 && !(job && /completed|failed/.test(job.status)); i++) {
      await new Promise((res) => setTimeout(res, 100));
      job = ((await rawCall(d.client, "GET", `${kb()}/sync_configs/${id}/jobs?limit=1`)).json as { items: (typeof job)[] })
        .items[0];
    }
    expect(job).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^blocked: localhost \(.+\) is a private address/),
    });
    expect(trap.connections).toBe(before);
  });

  it("an allowed host redirecting to a refused one is stopped at the redirect: 0 connections to the target", async () => {
    const redirector = await Trap.start((req, res) => {
      res.writeHead(302, { location: `${trap.url}/sitemap.xml` });
      res.end();
    }, "127.0.0.2");
    try {
      const conn = await connection("sitemap");
      const before = trap.connections;
      const r = await rawCall(d.client, "POST", `${kb()}/sync_configs`, {
        name: "redirect",
        external_connection_id: conn,
        sync_root_path: `${redirector.url}/sitemap.xml`,
      });
      expect(r.status).toBe(201);
      const id = (r.json as { id: string }).id;
      let job: { status: string; error: string | null } | undefined;
      for (let i = 0; i < 100 && !(job && /completed|failed/.test(job.status)); i++) {
        await new Promise((res) => setTimeout(res, 100));
        job = ((await rawCall(d.client, "GET", `${kb()}/sync_configs/${id}/jobs?limit=1`)).json as { items: (typeof job)[] })
          .items[0];
      }
      expect(job).toMatchObject({ status: "failed", error: expect.stringContaining("127.0.0.1 is a private address") });
      expect(redirector.seen.length).toBeGreaterThan(0);
      expect(trap.connections).toBe(before);
    } finally {
      await redirector.close();
    }
  });

  it("model routes reach no private address: pull endpoints and remote embedders get 403; folders only from the socket", async () => {
    const before = trap.connections;
    const pull = await rawCall(keys.SOWNER, "POST", "/api/v1/kbox/models/pull", { id: "bge-small-en-v1.5", endpoint: trap.url });
    expect(pull.status).toBe(403);
    const from = await rawCall(keys.SOWNER, "POST", "/api/v1/kbox/models/pull", { id: "bge-small-en-v1.5", from: "/etc" });
    expect(from.status).toBe(403);
    for (const url of [`${trap.url}/v1`, `http://169.254.169.254/v1`, "file:///etc/passwd"]) {
      const add = await rawCall(keys.SOWNER, "POST", "/api/v1/kbox/models", { name: "openai:probe", url, model: "m" });
      expect(add.status, url).toBeGreaterThanOrEqual(400);
      expect(add.status, url).toBeLessThan(500);
      expect(add.text).not.toContain(Trap.SECRET);
    }
    expect(trap.connections).toBe(before);
  });
});

describe("a socket-only daemon (its owner's requests may name endpoints)", () => {
  let o: TestDaemon;
  let okb: string;
  let standIn: Trap;
  beforeAll(async () => {
    standIn = await Trap.start();
    o = await startTestDaemon({
      env: { ...OFFLINE, KBOX_OPENAI_BASE_URL: `${standIn.url}/v1`, KBOX_OPENAI_API_KEY: "sk-daemon" },
    });
    okb = (
      await seedKb(o, "keys", [{ slug: "ship", title: "Ship", body: "The team ships every Friday." }], {
        user_keys: { openai: { url: `${standIn.url}/kb/v1`, key: "sk-kb" } },
      })
    ).kbid;
  });
  afterAll(async () => {
    await o?.stop();
    await standIn?.close();
  });

  it("a link field takes http(s) only; an unreachable embedder endpoint is the caller's 422 on url, not a 502", async () => {
    for (const uri of ["file:///etc/passwd", "data:text/plain,hi", "javascript:alert(1)", "ftp://example.org/x"]) {
      const r = await rawCall(o.client, "POST", `/api/v1/kb/${okb}/resources`, { title: "l", links: { l: { uri } } });
      expect(r.status, uri).toBe(422);
      expect(JSON.stringify(r.json), uri).toMatch(/links.*l.*uri|http or https/);
    }
    const ok = await rawCall(o.client, "POST", `/api/v1/kb/${okb}/resources`, { links: { l: { uri: `${standIn.url}/page` } } });
    expect(ok.status).toBe(201);
    // A closed port: the probe cannot connect. The problem is where the caller typed it.
    const add = await rawCall(o.client, "POST", "/api/v1/kbox/models", {
      name: "openai:nowhere",
      url: "http://127.0.0.1:9/v1",
      model: "m",
    });
    expect(add.status).toBe(422);
    const issue = (add.json as { detail: { loc: string[]; msg: string }[] }).detail[0];
    expect(issue.loc).toEqual(["body", "url"]);
    expect(issue.msg).toMatch(/probe/);
    const unprobed = await rawCall(o.client, "POST", "/api/v1/kbox/models", {
      name: "openai:nowhere",
      url: "http://127.0.0.1:9/v1",
      model: "m",
      dim: 8,
      check: false,
    });
    expect(unprobed.status).toBe(201);
  });

  it("sends a stored key only to the endpoint it was configured for, and never repeats the endpoint's page (fault 2)", async () => {
    const seen = trap.seen.length;
    for (const model of [`openai:x@${trap.url}/v1`, `predict:x@${trap.url}`]) {
      const r = await ask(o, okb, { query: "When does the team ship?", features: ["keyword"], generative_model: model });
      expect(r.status).toBe(200);
      expect(r.text).toContain("answered 500");
      expect(r.text).not.toContain(Trap.SECRET);
    }
    const calls = trap.seen.slice(seen);
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.headers.authorization).toBeUndefined();
      expect(c.headers["x-nuclia-nuakey"]).toBeUndefined();
    }
    // The configured endpoints get their own keys.
    await ask(o, okb, { query: "When does the team ship?", features: ["keyword"], generative_model: "openai:x" });
    expect(standIn.seen.at(-1)).toMatchObject({ url: "/kb/v1/chat/completions", headers: { authorization: "Bearer sk-kb" } });
  });

  it("never follows a symlink out of a synced folder, at the first scan or live; a sparse file is not copied (faults 4, 11)", async () => {
    const root = mkdtempSync(join(tmpdir(), "kbox-links-"));
    try {
      writeFileSync(join(root, "real.txt"), "A real note about harbours.");
      symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
      symlinkSync(outside, join(root, "ldir"));
      truncateSync((writeFileSync(join(root, "big.txt"), ""), join(root, "big.txt")), 64 * 1024 ** 2);
      const conn = (await rawCall(o.client, "POST", `/api/v1/kb/${okb}/external_connections`, { provider: "local_folder" }))
        .json as { id: string };
      const add = await rawCall(o.client, "POST", `/api/v1/kb/${okb}/sync_configs`, {
        name: "links",
        external_connection_id: conn.id,
        sync_root_path: root,
      });
      expect(add.status).toBe(201);
      const id = (add.json as { id: string }).id;
      const paths = async () => {
        const list = (await rawCall(o.client, "GET", `/api/v1/kb/${okb}/resources?size=100`)).json as {
          resources: { id: string }[];
        };
        const out: string[] = [];
        for (const r of list.resources) {
          const full = (await rawCall(o.client, "GET", `/api/v1/kb/${okb}/resource/${r.id}?show=origin`)).json as {
            origin?: { source_id?: string; path?: string };
          };
          if (full.origin?.source_id === id && full.origin.path) out.push(full.origin.path);
        }
        return out.sort();
      };
      const until = async (want: string) => {
        for (let i = 0; i < 150; i++) {
          if ((await paths()).includes(want)) return;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`${want} never synced`);
      };
      await until("/real.txt");
      // Live: a new link and a new link into a linked folder's target stay out; a real file comes in.
      symlinkSync(join(outside, "secret.txt"), join(root, "late.txt"));
      writeFileSync(join(outside, "more.txt"), "more outside secrets");
      writeFileSync(join(root, "late-real.txt"), "A later real note.");
      await until("/late-real.txt");
      await new Promise((r) => setTimeout(r, 1500));
      expect(await paths()).toEqual(["/late-real.txt", "/real.txt"]);
      const jobs = (await rawCall(o.client, "GET", `/api/v1/kb/${okb}/sync_configs/${id}/jobs?limit=20&order=asc`)).json as {
        items: { id: string }[];
      };
      const logs = (await rawCall(o.client, "GET", `/api/v1/kb/${okb}/sync_jobs/${jobs.items[0].id}/logs`)).text;
      expect(logs).toMatch(/skipped big\.txt: a sparse file/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
