import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../../daemon/settings/index.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

// The daemon log after a session of work: ingestion (one document fails), a folder sync, a backup.
let d: TestDaemon;
let child: ChildProcess | undefined;
const cli = (args: string[], tty = false) => d.cli(args, { tty });

interface Event {
  time: string;
  level: string;
  msg: string;
  [k: string]: unknown;
}
const events = async (...args: string[]) =>
  (await cli(["daemon", "logs", "-n", "0", "--json", ...args])).stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);

beforeAll(async () => {
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_LOG_LEVEL: "debug" } });
  const docs = join(d.home, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "good.md"), "# Good\n\nA document that reads fine.\n");
  writeFileSync(join(docs, "broken.pdf"), "%PDF-1.7\nthis is not a PDF at all\n");
  expect((await cli(["kb", "create", "logged", "--use"])).code).toBe(0);
  await cli(["add", join(docs, "good.md"), join(docs, "broken.pdf"), "--wait"]);
  expect((await cli(["sync", "add", docs, "--name", "docs"])).code).toBe(0);
  expect((await cli(["backup", "create", "--kb", "logged"])).code).toBe(0);
  // The archive is written in the background: wait for its event.
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100)))
    if ((await events()).some((e) => /^backup \S+ of logged finished/.test(e.msg))) break;
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100)))
    if ((await events()).some((e) => /^sync docs: sync finished/.test(e.msg))) break;
}, 120_000);
afterAll(async () => {
  child?.kill("SIGKILL");
  await d?.stop();
});

describe("the daemon log", () => {
  it("is JSON lines: one event each for what the daemon did and what failed, with levels and fields", async () => {
    const raw = readFileSync(join(d.home, "logs", "kboxd.log"), "utf8")
      .trim()
      .split("\n");
    const all = raw.map((l) => JSON.parse(l) as Event);
    expect(all.every((e) => /^\d{4}-\d\d-\d\dT/.test(e.time) && ["debug", "info", "warn", "error"].includes(e.level))).toBe(true);
    const msgs = all.map((e) => `${e.level} ${e.msg}`);
    expect(msgs).toContainEqual(expect.stringMatching(/^info kboxd .* listening on unix:/));
    // good.md opens with "# Good": its heading titles the resource, and ingestion logs it by title.
    expect(all).toContainEqual(expect.objectContaining({ level: "info", msg: "ingest: Good: processed", kb: "logged" }));
    expect(all).toContainEqual(
      expect.objectContaining({ level: "error", msg: expect.stringMatching(/^ingest: broken\.pdf .* ERROR: /) }),
    );
    expect(msgs).toContainEqual(expect.stringMatching(/^info sync docs: created sync started/));
    expect(msgs).toContainEqual(expect.stringMatching(/^info sync docs: sync finished/));
    expect(all).toContainEqual(
      expect.objectContaining({ level: "info", msg: expect.stringMatching(/^backup \S+ of logged finished/), kb: "logged" }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({ level: "info", msg: expect.stringMatching(/^sync docs: added good\.md/), kb: "logged" }),
    );
    // KBOX_LOG_LEVEL=debug: every request too.
    expect(all).toContainEqual(expect.objectContaining({ level: "debug", msg: "POST /api/v1/kbs 201" }));
  });

  it("kbox daemon logs: text by default, --level filters, --json is the stored events", async () => {
    const text = await cli(["daemon", "logs", "-n", "0"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\S+\tINFO\tingest: Good: processed\tkb=logged rid=\S+ fields=\{/m);
    expect(text.stdout).toMatch(/\tDEBUG\tGET /);
    const tty = await cli(["daemon", "logs", "-n", "3"], true);
    expect(tty.stdout.trim().split("\n")).toHaveLength(3);
    expect(tty.stdout).toMatch(/^\d\d:\d\d:\d\d (DEBUG|INFO |WARN |ERROR) /m);
    const errors = await events("--level", "error");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.level === "error")).toBe(true);
    const warnUp = await events("--level", "WARNING");
    expect(warnUp.every((e) => e.level === "warn" || e.level === "error")).toBe(true);
    expect((await events("--level", "info")).some((e) => e.level === "debug")).toBe(false);
    const bad = await cli(["daemon", "logs", "--level", "loud"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--level must be one of debug, info, warn, error, not "loud"/);
  });

  it("kbox daemon logs -f --json prints events as the daemon writes them", async () => {
    child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "../../bin/kbox.ts"),
        "daemon",
        "logs",
        "-f",
        "--json",
        "-n",
        "1",
        "--level",
        "info",
      ],
      {
        env: { ...process.env, ...d.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout?.on("data", (b) => {
      out += b;
    });
    const until = async (re: RegExp) => {
      for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100)))
        if (re.test(out)) return;
      throw new Error(`timed out waiting for ${re}:\n${out}`);
    };
    await until(/\n/); // the last past event
    await cli(["kb", "create", "later"]);
    await cli(["resource", "create", "--kb", "later", "--title", "Late", "--text", "Written while following."]);
    await until(/"msg":"ingest: Late: processed"/);
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Event);
    expect(lines.every((e) => e.level !== "debug")).toBe(true);
    child.kill("SIGINT");
  });

  it("rotates at KBOX_LOG_ROTATE_MB: kboxd.log.1 holds the events before, and kbox daemon logs reads both", async () => {
    const small = await startTestDaemon({ env: { ...OFFLINE, KBOX_LOG_LEVEL: "debug", KBOX_LOG_ROTATE_MB: "1" } });
    try {
      // Every request is an event at debug: 600 requests with a 2 KB path are about 1.3 MB of log.
      const long = "x".repeat(2000);
      for (let i = 0; i < 600; i++) await rawCall(small.client, "GET", `/api/v1/kb/${i}-${long}`);
      const file = join(small.home, "logs", "kboxd.log");
      const sizes = [statSync(`${file}.1`).size, statSync(file).size];
      expect(sizes[0]).toBeLessThanOrEqual(2 ** 20);
      expect(sizes[0]).toBeGreaterThan(2 ** 20 - 4000);
      expect(sizes[1]).toBeLessThan(2 ** 20);
      const all = (await small.cli(["daemon", "logs", "-n", "0", "--json"])).stdout.trim().split("\n");
      const seen = all.map((l) => /^GET \/api\/v1\/kb\/(\d+)-x+ 404$/.exec((JSON.parse(l) as Event).msg)?.[1]).filter(Boolean);
      // Both files, in order: the last request's event and the ones before the rotation.
      expect(seen.at(-1)).toBe("599");
      expect(seen.length).toBeGreaterThan(450);
      expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
    } finally {
      await small.stop();
    }
  });

  it("KBOX_LOG_LEVEL must be a level", () => {
    expect(() => loadSettings({ env: { KBOX_HOME: d.home, KBOX_LOG_LEVEL: "loud" } })).toThrow(
      /KBOX_LOG_LEVEL must be one of debug, info, warn, error, not "loud"/,
    );
  });
});
