import { afterAll, beforeAll, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";
import { LABELER } from "../helpers/tasks.js";

let d: TestDaemon;
beforeAll(async () => {
  // A pause between resources keeps a batch running while `task show --follow` follows it.
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_TASK_PAUSE_MS: "300" } });
  await seedKb(d, "clitasks");
});
afterAll(async () => d?.stop());

it("kbox task: start --wait with a progress bar, list, show, lifecycle errors, delete --cleanup", async () => {
  const params = JSON.stringify(LABELER);
  const started = await d.cli(
    ["task", "start", "labeler", "--kb", "clitasks", "--apply", "EXISTING", "--wait", "--params", params],
    { tty: true },
  );
  expect(started.code).toBe(0);
  expect(started.stdout).toMatch(/status\s+completed/);
  expect(started.stdout).toMatch(/method\s+offline:keyword-and-example-matching/);
  expect(started.stdout).toMatch(/progress\s+3\/3/);
  expect(started.stderr).toMatch(/resources/);
  const id = /id\s+([0-9a-f]{32})/.exec(started.stdout)?.[1] as string;

  const list = await d.cli(["task", "list", "--kb", "clitasks"]);
  expect(list.code).toBe(0);
  expect(list.stdout.split("\n")[0]).toBe(`${id}\tlabeler\tEXISTING\tcompleted\t-\t3/3\toffline:keyword-and-example-matching`);
  const avail = await d.cli(["task", "list", "--kb", "clitasks", "--available"]);
  expect(avail.stdout).toMatch(/llm-align\tno\t/);

  const dis = await d.cli(["task", "disable", id, "--kb", "clitasks"]);
  expect(dis.code).toBe(1);
  expect(dis.stderr).toMatch(/EXISTING data only/);
  const bad = await d.cli(["task", "start", "labeler", "--kb", "clitasks", "--params", "{nope"]);
  expect(bad.code).toBe(2);
  const json = await d.cli(["task", "show", id, "--kb", "clitasks", "--json"]);
  expect(JSON.parse(json.stdout).request.id).toBe(id);

  const del = await d.cli(["task", "delete", id, "--kb", "clitasks", "--cleanup"]);
  expect(del.code).toBe(0);
  expect((await d.cli(["task", "show", id, "--kb", "clitasks"])).code).toBe(1);
});

it("kbox task show --follow follows a running batch with a progress bar, then shows it completed", async () => {
  const started = await d.cli([
    "task",
    "start",
    "labeler",
    "--kb",
    "clitasks",
    "--apply",
    "EXISTING",
    "--params",
    JSON.stringify(LABELER),
  ]);
  const id = started.stdout.trim();
  const followed = await d.cli(["task", "show", id, "--kb", "clitasks", "--follow"], { tty: true });
  expect(followed.code).toBe(0);
  expect(followed.stdout).toMatch(/status\s+completed/);
  expect(followed.stdout).toMatch(/progress\s+3\/3/);
  // The redrawn bar on stderr, ending at 3 of 3.
  expect(followed.stderr).toMatch(/\[[#-]+\]\s+\d+%\s+\d\/3 resources/);
  expect(followed.stderr).toMatch(/100%\s+3\/3 resources/);
  const again = await d.cli(["task", "show", id, "--kb", "clitasks", "--follow"]);
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/no running batch to follow/);
  expect((await d.cli(["task", "delete", id, "--kb", "clitasks", "--cleanup"])).code).toBe(0);
});

it("kbox dataset and kbox guardrail", async () => {
  await d.cli([
    "task",
    "start",
    "labeler",
    "--kb",
    "clitasks",
    "--apply",
    "EXISTING",
    "--wait",
    "--params",
    JSON.stringify(LABELER),
  ]);
  const c = await d.cli(["dataset", "create", "pets", "--type", "PARAGRAPH_CLASSIFICATION", "--label", "auto"]);
  expect(c.code).toBe(0);
  const id = c.stdout.trim();
  const g = await d.cli(["dataset", "generate", id, "--kb", "clitasks"]);
  expect(g.code).toBe(0);
  expect(g.stdout.split("\n")[0]).toMatch(/^p0000\t8\t/);
  expect((await d.cli(["dataset", "list"])).stdout).toMatch(new RegExp(`${id}\tpets\tPARAGRAPH_CLASSIFICATION\t1\t`));
  expect((await d.cli(["dataset", "create", "x", "--type", "NOPE"])).code).toBe(2);
  expect((await d.cli(["dataset", "delete", id])).code).toBe(0);

  const p = await d.cli([
    "guardrail",
    "create",
    "No secrets",
    "--instruction",
    'Questions about "passwords"',
    "--query",
    "credentials",
    "--enable",
  ]);
  expect(p.code).toBe(0);
  const pid = p.stdout.trim();
  expect((await d.cli(["guardrail", "list"])).stdout).toMatch(new RegExp(`${pid}\tNo secrets\ttrue\ttrue\tcredentials`));
  const flagged = await d.cli(["guardrail", "check", "what is my password"]);
  expect(flagged.code).toBe(1);
  expect(flagged.stdout).toMatch(/^flagged\t1\toffline:trigger-terms\tmatched "passwords"/);
  expect((await d.cli(["guardrail", "check", "hello there"])).code).toBe(0);
  const u = await d.cli(["guardrail", "update", pid, "--monitor"]);
  expect(u.stdout).toMatch(/blocking\s+false/);
  const asked = await d.cli(["ask", "what is the wifi password?", "--kb", "clitasks"]);
  expect(asked.code).toBe(0);
  expect((await d.cli(["guardrail", "delete", pid])).code).toBe(0);
});
