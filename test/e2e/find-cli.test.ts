import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchFixture } from "../helpers/search-fixture.js";

let fx: SearchFixture;
let rid: string;

beforeAll(async () => {
  fx = await SearchFixture.start({ slug: "notes" });
  rid = await fx.add(
    {
      title: "Shipping plan",
      slug: "plan",
      usermetadata: { classifications: [{ labelset: "topic", label: "planning" }] },
      origin: { path: "/work/plans" },
      icon: "application/pdf",
    },
    [{ text: "We ship on Friday after the review" }],
  );
  await fx.add({ title: "Holiday", slug: "holiday", origin: { path: "/home" } }, [{ text: "We ship presents in December" }]);
});
afterAll(async () => fx?.stop());

describe("kbox find", () => {
  it("TTY: title, field, score and highlighted text", async () => {
    const r = await fx.d.cli(["find", "shipping review", "--kb", "notes"], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("1. Shipping plan");
    expect(r.stdout).toContain("/t/body · BM25");
    expect(r.stdout).toContain("We ship on Friday after the review");
  });
  it("piped: TSV rows, no marks", async () => {
    const r = await fx.d.cli(["find", "ship", "--kb", "notes", "--label", "topic/planning"]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    // The body paragraph and the title ("Shipping plan"), both of the labelled resource.
    expect(new Set(rows.map((x) => x[1]))).toEqual(new Set([rid]));
    const body = rows.find((x) => x[2] === "/t/body");
    expect(body?.[5]).toBe("We ship on Friday after the review");
    expect(body?.[4]).toBe("Shipping plan");
  });
  it("--path, --type and --filter narrow; --json is the wire response", async () => {
    const j = JSON.parse((await fx.d.cli(["find", "ship", "--kb", "notes", "--path", "/home", "--json"])).stdout);
    expect(j.best_matches).toHaveLength(1);
    expect(j.best_matches[0]).not.toContain(rid);
    const t = await fx.d.cli(["find", "ship", "--kb", "notes", "--type", "pdf"]);
    expect(
      new Set(
        t.stdout
          .trim()
          .split("\n")
          .map((l) => l.split("\t")[1]),
      ),
    ).toEqual(new Set([rid]));
    const f = await fx.d.cli([
      "find",
      "ship",
      "--kb",
      "notes",
      "--filter",
      '{"field":{"prop":"resource","slug":"holiday"}}',
      "--json",
    ]);
    expect(JSON.parse(f.stdout).best_matches).toHaveLength(1);
  });
  it("bad --filter is a usage error; a bad expression is the daemon's 422", async () => {
    const u = await fx.d.cli(["find", "x", "--kb", "notes", "--filter", "{nope"]);
    expect(u.code).toBe(2);
    expect(u.stderr).toContain("--filter is not JSON");
    const v = await fx.d.cli(["find", "x", "--kb", "notes", "--filter", '{"field":{"prop":"nope"}}']);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/filter_expression/);
  });
});

describe("kbox search-config, catalog, labelset", () => {
  it("save, list, use, show, delete", async () => {
    expect(
      (await fx.d.cli(["search-config", "save", "plans", "--kb", "notes", "--config", '{"filters":["/p/work"]}'])).code,
    ).toBe(0);
    expect((await fx.d.cli(["search-config", "list", "--kb", "notes"])).stdout).toMatch(/^plans\tfind\t/);
    const found = await fx.d.cli(["find", "ship", "--kb", "notes", "--config", "plans"]);
    expect(
      new Set(
        found.stdout
          .trim()
          .split("\n")
          .map((l) => l.split("\t")[1]),
      ),
    ).toEqual(new Set([rid]));
    expect(JSON.parse((await fx.d.cli(["search-config", "show", "plans", "--kb", "notes"])).stdout).kind).toBe("find");
    expect((await fx.d.cli(["search-config", "delete", "plans", "--kb", "notes"])).code).toBe(0);
    expect((await fx.d.cli(["search-config", "show", "plans", "--kb", "notes"])).code).toBe(1);
  });
  it("catalog lists resources; labelsets round-trip", async () => {
    const c = await fx.d.cli(["catalog", "ship", "--kb", "notes"]);
    expect(c.stdout.split("\t")[1]).toBe("plan");
    expect((await fx.d.cli(["labelset", "set", "topic", "--kb", "notes", "--label", "planning"])).code).toBe(0);
    expect((await fx.d.cli(["labelset", "list", "--kb", "notes"])).stdout).toBe("topic\ttopic\tplanning\n");
  });
});
