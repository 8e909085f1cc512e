import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { runCli, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
const ESC = "\x1b[";

beforeAll(async () => {
  d = await startTestDaemon();
});
afterAll(async () => {
  await d.stop();
});

/** TSV rows of piped output. */
const rows = (stdout: string) =>
  stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t"));

describe("kbox kb", () => {
  it("creates a knowledge box: id on stdout, status on stderr, --json the wire response", async () => {
    const r = await d.cli(["kb", "create", "notes", "--title", "My notes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(r.stderr).toBe("created knowledge box notes\n");

    const j = await d.cli(["kb", "create", "papers", "--json"]);
    expect(j.code).toBe(0);
    expect(j.stderr).toBe("");
    const wire = JSON.parse(j.stdout);
    expect(wire).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), slug: "papers" });

    const q = await d.cli(["kb", "create", "quiet-one", "--quiet"]);
    expect(q.code).toBe(0);
    expect(q.stderr).toBe("");
  });

  it("lists: TSV when piped, an aligned table on a TTY, the wire response with --json", async () => {
    const piped = await d.cli(["kb", "list"]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe("");
    const notes = rows(piped.stdout).find((r) => r[1] === "notes");
    expect(notes).toEqual(["", "notes", expect.stringMatching(/^[0-9a-f-]{36}$/), "My notes"]);
    expect(piped.stdout).not.toContain("SLUG");

    const tty = await d.cli(["kb", "list"], { tty: true });
    expect(tty.code).toBe(0);
    const lines = tty.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\s+SLUG\s+UUID\s+TITLE$/);
    expect(tty.stdout).not.toContain("\t");
    expect(tty.stdout).not.toContain(ESC); // NO_COLOR is set
    const col = lines[0].indexOf("UUID");
    for (const l of lines.slice(1)) expect(l.slice(col)).toMatch(/^[0-9a-f-]{36}/);

    const json = await d.cli(["kb", "list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(await d.client.call(kbs.listKbs));
  });

  it("colours TTY tables unless NO_COLOR, and never when piped", async () => {
    const env = { KBOX_HOME: d.home } as NodeJS.ProcessEnv;
    const tty = await runCli(["kb", "list"], env, { tty: true });
    expect(tty.stdout).toContain(`${ESC}1m`);
    const piped = await runCli(["kb", "list"], env, { tty: false });
    expect(piped.stdout).not.toContain(ESC);
  });

  it("shows, updates and selects a knowledge box", async () => {
    const show = await d.cli(["kb", "show", "notes"]);
    expect(show.code).toBe(0);
    const fields = Object.fromEntries(rows(show.stdout).map(([k, v]) => [k, v]));
    expect(fields).toMatchObject({ slug: "notes", title: "My notes", resources: "0" });
    const j = JSON.parse((await d.cli(["kb", "show", "notes", "--json"])).stdout);
    expect(j).toEqual(await d.client.call(kbs.getKbBySlug, { params: { slug: "notes" } }));

    const up = await d.cli(["kb", "update", "notes", "--description", "team notes"]);
    expect(up.code).toBe(0);
    expect(up.stdout).toBe("");
    expect(up.stderr).toMatch(/^updated knowledge box [0-9a-f-]{36}\n$/);
    expect((await d.client.call(kbs.getKbBySlug, { params: { slug: "notes" } })).config.description).toBe("team notes");

    const use = await d.cli(["kb", "use", "notes"]);
    expect(use.code).toBe(0);
    expect(use.stderr).toMatch(/now using knowledge box notes/);
    expect(JSON.parse(readFileSync(join(d.home, "config.json"), "utf8")).profiles.local.kb).toBe("notes");
    const marked = rows((await d.cli(["kb", "list"])).stdout).find((r) => r[1] === "notes");
    expect(marked?.[0]).toBe("*");
  });

  it("reports errors with a hint and the STYLE.md exit codes", async () => {
    const missing = await d.cli(["kb", "show", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe('kbox: knowledge box "nope" not found\nhint: list them with `kbox kb list`\n');

    const nothing = await d.cli(["kb", "update", "notes"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to update\nhint: pass --title/);

    const clash = await d.cli(["kb", "create", "notes"]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/Knowledge box already exists/);

    const bad = await d.cli(["kb", "create", "Bad Slug"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid request: body\.slug/);

    const unknown = await d.cli(["kb", "frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/unknown command/);
    const badOpt = await d.cli(["kb", "list", "--nope"]);
    expect(badOpt.code).toBe(2);
    expect(badOpt.stderr).toMatch(/unknown option/);
  });

  it("refuses destructive verbs without --yes when not a TTY, asks on a TTY", async () => {
    await d.cli(["kb", "create", "doomed"]);
    const refuse = await d.cli(["kb", "delete", "doomed"]);
    expect(refuse.code).toBe(2);
    expect(refuse.stdout).toBe("");
    expect(refuse.stderr).toMatch(/refusing to delete knowledge box doomed and all its data without --yes\nhint: add --yes/);
    expect((await d.cli(["kb", "show", "doomed"])).code).toBe(0);

    const no = await d.cli(["kb", "delete", "doomed"], { tty: true, stdin: "n\n" });
    expect(no.code).toBe(1);
    expect(no.stderr).toMatch(/\? \[y\/N\]/);
    expect(no.stderr).toMatch(/cancelled/);
    expect((await d.cli(["kb", "show", "doomed"])).code).toBe(0);

    const yes = await d.cli(["kb", "delete", "doomed"], { tty: true, stdin: "y\n" });
    expect(yes.code).toBe(0);
    expect((await d.cli(["kb", "show", "doomed"])).code).toBe(1);

    await d.cli(["kb", "create", "doomed2"]);
    const forced = await d.cli(["kb", "delete", "doomed2", "--yes", "--json"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ uuid: expect.any(String) });
  });
});

describe("kbox resource", () => {
  let rid: string;

  it("needs a knowledge box, and says how to pick one", async () => {
    const r = await runCli(["resource", "list"], { KBOX_HOME: join(d.home, "elsewhere"), NO_COLOR: "1" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no knowledge box selected\nhint: pass --kb <slug>/);
    expect(existsSync(join(d.home, "elsewhere", "run", "kboxd.sock"))).toBe(false);
  });

  it("creates from flags (id on stdout) and from a wire payload on stdin", async () => {
    const r = await d.cli([
      "resource",
      "create",
      "--kb",
      "papers",
      "--title",
      "Meeting",
      "--slug",
      "meeting",
      "--text",
      "We ship on Friday.",
      "--label",
      "topic/planning",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{32}\n$/);
    expect(r.stderr).toBe("");
    rid = r.stdout.trim();

    const j = await d.cli(["resource", "create", "--kb", "papers", "--body", "-", "--json"], {
      stdin: JSON.stringify({ title: "From stdin", texts: { body: { body: "piped" } } }),
    });
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
      seqid: expect.any(Number),
      elapsed: expect.any(Number),
    });

    const badLabel = await d.cli(["resource", "create", "--kb", "papers", "--label", "nolabelset"]);
    expect(badLabel.code).toBe(2);
    expect(badLabel.stderr).toMatch(/label "nolabelset" is not labelset\/label/);
    const badBody = await d.cli(["resource", "create", "--kb", "papers", "--body", "-"], { stdin: "{nope" });
    expect(badBody.code).toBe(2);
    expect(badBody.stderr).toMatch(/--body is not JSON/);
  });

  it("lists as TSV when piped and as a table on a TTY", async () => {
    const piped = await d.cli(["resource", "list", "--kb", "papers"]);
    expect(piped.code).toBe(0);
    expect(rows(piped.stdout)).toContainEqual([rid, "meeting", expect.stringMatching(/^(PENDING|PROCESSED)$/), "Meeting"]);
    const tty = await d.cli(["resource", "list", "--kb", "papers"], { tty: true });
    expect(tty.stdout.split("\n")[0]).toMatch(/^ID\s+SLUG\s+STATUS\s+TITLE$/);
    const kbid = (await d.client.call(kbs.getKbBySlug, { params: { slug: "papers" } })).uuid;
    const listed = () => d.client.call(resources.listResources, { params: { kbid } });
    // Compared once the box is processed: a resource turning PROCESSED between two listings made them differ.
    for (let i = 0; i < 300 && (await listed()).resources.some((r) => r.metadata?.status === "PENDING"); i++)
      await new Promise((r) => setTimeout(r, 100));
    const json = JSON.parse((await d.cli(["resource", "list", "--kb", "papers", "--json"])).stdout);
    expect(json).toEqual(await listed());
    const paged = await d.cli(["resource", "list", "--kb", "papers", "--size", "1"]);
    expect(rows(paged.stdout)).toHaveLength(1);
    expect(paged.stderr).toMatch(/more: --page 1/);
  });

  it("shows by id or slug; --json is the wire response", async () => {
    const byId = await d.cli(["resource", "show", rid, "--kb", "papers"]);
    expect(byId.code).toBe(0);
    const f = Object.fromEntries(rows(byId.stdout).map(([k, v]) => [k, v]));
    expect(f).toMatchObject({
      id: rid,
      slug: "meeting",
      title: "Meeting",
      status: expect.stringMatching(/^(PENDING|PROCESSED)$/),
      labels: "topic/planning",
    });
    const bySlug = await d.cli(["resource", "show", "meeting", "--kb", "papers", "--show", "values", "--json"]);
    const kbid = (await d.client.call(kbs.getKbBySlug, { params: { slug: "papers" } })).uuid;
    expect(JSON.parse(bySlug.stdout)).toEqual(
      await d.client.call(resources.getResource.bySlug, { params: { kbid, rslug: "meeting" }, query: { show: ["values"] } }),
    );
    const tty = await d.cli(["resource", "show", "meeting", "--kb", "papers"], { tty: true });
    expect(tty.stdout).toMatch(/^title\s+Meeting$/m);
    expect(tty.stdout).not.toContain("\t");

    const missing = await d.cli(["resource", "show", "nope", "--kb", "papers"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe("kbox: Resource does not exist\n");
  });

  it("updates, and refuses an update with nothing to change", async () => {
    const up = await d.cli(["resource", "update", "meeting", "--kb", "papers", "--title", "Weekly meeting", "--hidden"]);
    expect(up.code).toBe(0);
    expect(up.stderr).toMatch(/^updated meeting \(seqid \d+\)\n$/);
    const shown = Object.fromEntries(
      rows((await d.cli(["resource", "show", rid, "--kb", "papers"])).stdout).map(([k, v]) => [k, v]),
    );
    expect(shown.title).toBe("Weekly meeting");
    const nothing = await d.cli(["resource", "update", "meeting", "--kb", "papers"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/nothing to update/);
  });

  it("uses the current knowledge box from `kb use` and KBOX_KB", async () => {
    const viaUse = await d.cli(["resource", "list"]); // `kb use notes` earlier
    expect(viaUse.code).toBe(0);
    expect(viaUse.stdout).toBe("");
    const viaEnv = await d.cli(["resource", "list"], { env: { KBOX_KB: "papers" } });
    expect(rows(viaEnv.stdout).map((r) => r[1])).toContain("meeting");
  });

  it("deletes only with --yes when piped", async () => {
    const refuse = await d.cli(["resource", "delete", "meeting", "--kb", "papers"]);
    expect(refuse.code).toBe(2);
    expect(refuse.stderr).toMatch(/refusing to delete resource meeting without --yes/);
    const del = await d.cli(["resource", "delete", "meeting", "--kb", "papers", "--yes"]);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe("");
    expect(del.stderr).toBe("deleted meeting\n");
    expect((await d.cli(["resource", "show", rid, "--kb", "papers"])).code).toBe(1);
  });
});
