import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
const KB = ["--kb", "cli", "--features", "keyword"];
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  await seedKb(d, "cli");
});
afterAll(async () => d?.stop());

describe("kbox ask", () => {
  it("streams the answer with numbered citations and a sources list", async () => {
    const r = await d.cli(["ask", "Who writes the release notes?", ...KB]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Maria Lopez[^\n]*\[1\]/);
    expect(r.stdout).not.toContain("block-");
    expect(r.stdout).toMatch(/\nSources\n {2}\[1\] Release planning — The release notes are written by Maria Lopez/);
    expect(r.stderr).toBe("");
  });

  it("--json prints the wire's NDJSON items", async () => {
    const r = await d.cli(["ask", "Where is the office located?", ...KB, "--json"]);
    expect(r.code).toBe(0);
    const items = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).item);
    expect(items[0].type).toBe("answer");
    expect(items.map((i) => i.type)).toEqual(expect.arrayContaining(["retrieval", "status", "footnote_citations", "metadata"]));
  });

  it("--sync prints the whole answer with inline markers for post-hoc citations", async () => {
    const r = await d.cli(["ask", "Where is the office located?", ...KB, "--sync", "--citations", "default"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Lisbon[^\n]*\[1\]/);
    expect(r.stdout).toMatch(/Sources\n {2}\[1\] Office guide — /);
    const j = await d.cli(["ask", "Where is the office located?", ...KB, "--sync", "--json"]);
    expect(JSON.parse(j.stdout).status).toBe("success");
  });

  it("filters with --label and reports failures and bad usage with exit codes", async () => {
    const f = await d.cli(["ask", "When does the team ship?", ...KB, "--label", "topic/planning", "--json"]);
    const retrieval = f.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).item)
      .find((i) => i.type === "retrieval");
    expect(Object.values(retrieval.results.resources).map((r: any) => r.slug)).toEqual(["shipping"]);
    const bad = await d.cli(["ask", "When does the team ship?", ...KB, "--model", "openai:m@http://127.0.0.1:9/v1"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/the answer failed: cannot reach model endpoint/);
    expect((await d.cli(["ask", " ", ...KB])).code).toBe(2);
    expect((await d.cli(["ask", "x", ...KB, "--citations", "weird"])).code).toBe(2);
  });
});

describe("kbox chat without a terminal", () => {
  it("answers one question a line and keeps the conversation for follow-ups", async () => {
    const r = await d.cli(["chat", ...KB], { stdin: "Tell me about the office in Lisbon\nWhen does it open?\n" });
    expect(r.code).toBe(0);
    const blocks = r.stdout.trim().split("\n\n");
    expect(blocks).toHaveLength(4);
    expect(blocks[0]).toMatch(/Lisbon/);
    expect(blocks[0]).not.toMatch(/8:30/);
    expect(blocks[1]).toMatch(/^Sources\n {2}\[1\] Office guide/);
    expect(blocks[2]).toMatch(/It opens at 8:30 every morning\./);
    // The follow-up leans on the conversation ("it"): searched with its topic, and the CLI says so.
    expect(r.stderr).toMatch(/^searched: When does it open .*lisbon/im);
  });

  it("searches a self-contained question as asked, even after another topic", async () => {
    const r = await d.cli(["chat", ...KB], { stdin: "Why do cats purr?\nWho writes the release notes?\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Maria Lopez/);
    expect(r.stderr).toBe("");
  });
});

describe("kbox ask on a narrow terminal", () => {
  const ANSWER = "The office is located in Lisbon, on Rua Augusta 120.[1] It opens at 8:30 every morning.[1]";
  for (const sync of [false, true]) {
    it(`wraps the answer at word boundaries and fits source lines to the width${sync ? " (--sync)" : ""}`, async () => {
      const r = await d.cli(["ask", "When does the office open?", ...KB, ...(sync ? ["--sync"] : [])], {
        tty: true,
        columns: 40,
      });
      expect(r.code).toBe(0);
      const [answer, sources] = r.stdout.split("\n\nSources\n");
      const lines = answer.split("\n");
      expect(lines.length).toBeGreaterThan(2);
      expect(lines.every((l) => l.length <= 40)).toBe(true);
      expect(lines.join(" ")).toBe(ANSWER);
      const src = sources.trimEnd().split("\n");
      expect(src[0]).toMatch(/^ {2}\[1\] Office guide — The office is lo.*…$/);
      expect(src.every((l) => l.length <= 40)).toBe(true);
    });
  }

  it("leaves lines whole when piped", async () => {
    const r = await d.cli(["ask", "When does the office open?", ...KB]);
    expect(r.stdout.split("\n")[0]).toBe(ANSWER);
  });
});
