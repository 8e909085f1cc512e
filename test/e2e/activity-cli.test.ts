import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

// The activity and quality verbs through the real CLI: piped (TSV, NDJSON), on a TTY (charts), --json.
let d: TestDaemon;
const ESC = "\x1b[";

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  await seedKb(d, "notes");
  for (const q of ["How long do cats sleep?", "Where is the office located?"]) {
    expect((await d.cli(["ask", q, "--kb", "notes"])).code).toBe(0);
  }
  expect((await d.cli(["find", "cats", "--kb", "notes"])).code).toBe(0);
});
afterAll(async () => {
  await d?.stop();
});

describe("kbox activity", () => {
  it("lists asks piped as TSV and as the wire's NDJSON, and shows one", async () => {
    const tsv = await d.cli(["activity", "list", "ask", "--kb", "notes", "--show", "question,status"]);
    expect(tsv.code).toBe(0);
    const lines = tsv.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0].split("\t").slice(2)).toEqual(["How long do cats sleep?", "0"]);
    const json = await d.cli([
      "activity",
      "list",
      "ask",
      "--kb",
      "notes",
      "--where",
      "question=Where is the office located?",
      "--json",
    ]);
    const rows = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    const shown = await d.cli(["activity", "show", String(rows[0].id), "--kb", "notes", "--event", "ask", "--json"]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: rows[0].id, question: "Where is the office located?" });
    const bad = await d.cli(["activity", "list", "ask", "--kb", "notes", "--month", "2026-13"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--month must be YYYY-MM/);
  });

  it("downloads CSV", async () => {
    const r = await d.cli(["activity", "download", "search", "--kb", "notes", "--format", "csv", "--show", "question"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\r\n")).toEqual(["id,date,question", expect.stringMatching(/^\d+,.*,cats$/)]);
  });

  it("charts metrics on a TTY (no colour: the tests set NO_COLOR), prints TSV piped", async () => {
    const tty = await d.cli(["activity", "metrics", "--kb", "notes", "--since", "3h", "--by", "hour"], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/searches\s+[▁▂▃▄▅▆▇█]+\s+total 1/);
    expect(tty.stdout).toMatch(/asks\s+[▁▂▃▄▅▆▇█]+\s+total 2/);
    expect(tty.stdout).toContain("█");
    expect(tty.stdout).not.toContain(ESC);
    const piped = await d.cli(["activity", "metrics", "--kb", "notes", "--since", "1h", "--by", "millennium"]);
    expect(piped.stdout.trim().split("\t").slice(1)).toEqual(["1", "2", "2"]);
  });
});

describe("kbox quality and feedback", () => {
  it("rates an answer from a piped chat with /bad, and by learning id with kbox feedback", async () => {
    const chat = await d.cli(["chat", "--kb", "notes"], { stdin: "Why do cats purr?\n/bad too vague\n" });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toMatch(/feedback recorded: bad/);
    const rows = (
      await d.cli(["activity", "list", "ask", "--kb", "notes", "--show", "learning_id,feedback_good,feedback_comment", "--json"])
    ).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.at(-1)).toMatchObject({ feedback_good: false, feedback_comment: "too vague" });
    const good = await d.cli(["feedback", rows[0].learning_id, "good", "spot", "on", "--kb", "notes"]);
    expect(good.code).toBe(0);
    const again = await d.cli([
      "activity",
      "list",
      "ask",
      "--kb",
      "notes",
      "--where",
      `learning_id=${rows[0].learning_id}`,
      "--show",
      "feedback_comment",
      "--json",
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ feedback_comment: "spot on" });
    expect((await d.cli(["feedback", rows[0].learning_id, "meh", "--kb", "notes"])).code).toBe(2);
  });

  it("lists scores and charts their trend", async () => {
    await new Promise((r) => setTimeout(r, 300)); // scores follow the answers in the background
    const scores = await d.cli(["quality", "scores", "--kb", "notes", "--feedback", "bad", "--json"]);
    const data = JSON.parse(scores.stdout).data;
    expect(data).toHaveLength(1);
    expect(data[0].remi.groundedness.length).toBeGreaterThan(0);
    const trend = await d.cli(["quality", "trend", "--kb", "notes", "--since", "2d"], { tty: true });
    expect(trend.code).toBe(0);
    expect(trend.stdout).toMatch(/groundedness\s+[▁▂▃▄▅▆▇█]+\s+avg \d\.\d\d/);
    const piped = await d.cli(["quality", "trend", "--kb", "notes", "--since", "1d", "--by", "millennium"]);
    expect(piped.stdout.trim().split("\t")).toHaveLength(4);
  });
});
