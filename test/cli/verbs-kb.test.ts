/**
 * Verbs run in-process against a fake transport (no daemon): their flags become the requests the
 * fake records, and canned wire answers become their output, on a TTY and piped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { FakeDaemon } from "../helpers/fake-daemon.js";
import { KB_UUID, kbRecord } from "../helpers/wire-fixtures.js";

const PAPERS = "1a2b3c4d5e6f40718293a4b5c6d7e8f9";
let fake: FakeDaemon;

beforeEach(() => {
  fake = new FakeDaemon()
    .on(kbs.listKbs, {
      json: {
        kbs: [
          { slug: "notes", uuid: KB_UUID, title: "My notes" },
          { slug: "papers", uuid: PAPERS, title: "Papers" },
        ],
      },
    })
    .on(kbs.getKbBySlug, (r) =>
      r.params.slug === "notes" ? { json: kbRecord("notes") } : { status: 404, json: { detail: "no such kb" } },
    );
});
afterEach(() => fake.close());

describe("kbox kb list", () => {
  it("prints a table on a TTY with the current KB marked, TSV piped, and the wire response with --json", async () => {
    const tty = await fake.run(["kb", "list"], { tty: true, env: { KBOX_KB: "notes" } });
    expect(tty).toEqual({
      code: 0,
      stderr: "",
      stdout: [
        `   SLUG    UUID${" ".repeat(30)}TITLE`,
        `*  notes   ${KB_UUID}  My notes`,
        `   papers  ${PAPERS}  Papers`,
        "",
      ].join("\n"),
    });
    const piped = await fake.run(["kb", "ls"], { env: { KBOX_KB: "papers" } });
    expect(piped.stdout).toBe(`\tnotes\t${KB_UUID}\tMy notes\n*\tpapers\t${PAPERS}\tPapers\n`);
    const json = await fake.run(["kb", "list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      kbs: [
        { slug: "notes", uuid: KB_UUID, title: "My notes" },
        { slug: "papers", uuid: PAPERS, title: "Papers" },
      ],
    });
    expect(json.stdout.split("\n")).toHaveLength(2); // one line when piped
    expect(fake.calls()).toEqual(["GET /api/v1/kbs", "GET /api/v1/kbs", "GET /api/v1/kbs"]);
    // Every request went to the local profile's socket, after the version handshake.
    expect(fake.requests[0].path).toBe("/api/v1/kbox/hello");
    expect(fake.requests.every((r) => r.target.kind === "unix" && r.target.socket === join(fake.home, "run/kboxd.sock"))).toBe(
      true,
    );
  });

  it("goes to the zone KBOX_URL names, with KBOX_API_KEY, and says no hello there", async () => {
    const r = await fake.run(["kb", "list", "--json"], { env: { KBOX_URL: "https://zone.example/api/v1", KBOX_API_KEY: "k-1" } });
    expect(r.code).toBe(0);
    expect(fake.requests.map((q) => [q.method, q.path, q.target])).toEqual([
      ["GET", "/api/v1/kbs", { kind: "http", baseUrl: "https://zone.example/api/v1", apiKey: "k-1" }],
    ]);
  });
});

describe("kbox kb create", () => {
  it("sends the slug and title, prints the uuid on stdout and a status line on stderr, and --use selects it", async () => {
    fake.on(kbs.createKb, { status: 201, json: { uuid: KB_UUID, slug: "notes" } });
    const r = await fake.run(["kb", "create", "notes", "--title", "My notes", "--use"]);
    expect(r).toEqual({ code: 0, stdout: `${KB_UUID}\n`, stderr: "created knowledge box notes (now the current one)\n" });
    expect(fake.last(kbs.createKb)?.json).toEqual({ slug: "notes", title: "My notes" });
    expect(JSON.parse(readFileSync(join(fake.home, "config.json"), "utf8")).profiles.local.kb).toBe("notes");

    const json = await fake.run(["kb", "create", "papers", "--json", "--quiet"]);
    expect(json).toEqual({ code: 0, stdout: `${JSON.stringify({ uuid: KB_UUID, slug: "notes" })}\n`, stderr: "" });
    expect(fake.last(kbs.createKb)?.json).toEqual({ slug: "papers", title: "papers" });
  });

  it("reports the daemon's refusal with exit 1, and its validation errors with their location", async () => {
    fake.on(kbs.createKb, { status: 409, json: { detail: "a knowledge box with slug notes exists" } });
    const taken = await fake.run(["kb", "create", "notes"]);
    expect(taken).toEqual({ code: 1, stdout: "", stderr: "kbox: a knowledge box with slug notes exists\n" });
    // The fake answers an invalid body as the daemon does (422 with the offending location).
    const bad = await fake.run(["kb", "create", "Not A Slug"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^kbox: invalid request: body\.slug: /);
  });
});

describe("kbox kb delete (destructive)", () => {
  it("refuses without --yes when not on a terminal (exit 2) and sends no DELETE", async () => {
    fake.on(kbs.deleteKb, { json: { uuid: KB_UUID } });
    const r = await fake.run(["kb", "delete", "notes"]);
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "kbox: refusing to delete knowledge box notes and all its data without --yes\nhint: add --yes to confirm\n",
    });
    expect(fake.calls()).toEqual(["GET /api/v1/kb/s/notes"]);
  });

  it("asks on a terminal: n cancels (exit 1), y deletes", async () => {
    fake.on(kbs.deleteKb, { json: { uuid: KB_UUID } });
    const no = await fake.run(["kb", "delete", "notes"], { tty: true, stdin: "n\n" });
    expect(no).toEqual({ code: 1, stdout: "", stderr: "delete knowledge box notes and all its data? [y/N] kbox: cancelled\n" });
    expect(fake.calls().filter((c) => c.startsWith("DELETE"))).toEqual([]);
    const yes = await fake.run(["kb", "rm", "notes"], { tty: true, stdin: "y\n" });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toBe("delete knowledge box notes and all its data? [y/N] deleted knowledge box notes\n");
    expect(fake.calls().filter((c) => c.startsWith("DELETE"))).toEqual([`DELETE /api/v1/kb/${KB_UUID}`]);
  });

  it("deletes with --yes and prints the wire response with --json; an unknown KB exits 1 before any DELETE", async () => {
    fake.on(kbs.deleteKb, { json: { uuid: KB_UUID } });
    const r = await fake.run(["kb", "delete", "notes", "--yes", "--json"]);
    expect(r).toEqual({ code: 0, stdout: `{"uuid":"${KB_UUID}"}\n`, stderr: "" });
    const gone = await fake.run(["kb", "delete", "nope", "--yes"]);
    expect(gone).toEqual({
      code: 1,
      stdout: "",
      stderr: 'kbox: knowledge box "nope" not found\nhint: list them with `kbox kb list`\n',
    });
    expect(fake.calls().filter((c) => c.startsWith("DELETE"))).toEqual([`DELETE /api/v1/kb/${KB_UUID}`]);
  });
});

describe("usage errors", () => {
  it("exit 2 with a message on stderr and nothing sent: a missing argument, an unknown option, a bad flag value", async () => {
    const missing = await fake.run(["kb", "create"]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain("error: missing required argument 'slug'");
    const unknown = await fake.run(["kb", "list", "--colour"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown option '--colour'");
    const slug = await fake.run(["add", "a.txt", "b.txt", "--slug", "x", "--kb", "notes"]);
    expect(slug).toEqual({ code: 2, stdout: "", stderr: "kbox: --slug names one resource: give one file or URL\n" });
    const noKb = await fake.run(["find", "fox"]);
    expect(noKb).toEqual({
      code: 2,
      stdout: "",
      stderr: "kbox: no knowledge box selected\nhint: pass --kb <slug>, set KBOX_KB, or run `kbox kb use <slug>`\n",
    });
    expect(fake.requests).toEqual([]);
  });
});
