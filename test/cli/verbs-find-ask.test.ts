/** find and ask run in-process against a fake transport: flags → the request body, canned answers → output. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as askApi from "../../src/api/ask.js";
import * as findApi from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import { FakeDaemon } from "../helpers/fake-daemon.js";
import { findResponse, KB_UUID, kbRecord, RID } from "../helpers/wire-fixtures.js";

const FOX = "The quick brown <mark>fox</mark> jumps over the lazy dog.";
const DOG = "A dog sleeps in the sun.";
let fake: FakeDaemon;

beforeEach(() => {
  fake = new FakeDaemon().on(kbs.getKbBySlug, { json: kbRecord("notes") });
});
afterEach(() => fake.close());

describe("kbox find", () => {
  it("turns the shorthand flags into one filter_expression with the --filter JSON, and the paging flags into the body", async () => {
    fake.on(findApi.find, { json: findResponse("fox", "Fox", [FOX]) });
    const r = await fake.run([
      "find",
      "fox",
      "--kb",
      "notes",
      "--label",
      "topic/q3",
      "--path",
      "/reports",
      "--type",
      "pdf",
      "--filter",
      '{"field":{"prop":"origin_tag","tag":"draft"}}',
      "--top-k",
      "5",
      "--page",
      "2",
      "--features",
      "keyword, semantic",
      "--show-hidden",
    ]);
    expect(r.code).toBe(0);
    const sent = fake.last(findApi.find);
    expect(sent?.params).toEqual({ kbid: KB_UUID });
    expect(sent?.json).toEqual({
      query: "fox",
      highlight: false,
      filter_expression: {
        field: {
          and: [
            { prop: "origin_tag", tag: "draft" },
            { prop: "label", labelset: "topic", label: "q3" },
            { prop: "origin_path", prefix: "/reports" },
            {
              or: [
                {
                  or: [
                    { prop: "resource_mimetype", type: "application", subtype: "pdf" },
                    { prop: "field_mimetype", type: "application", subtype: "pdf" },
                  ],
                },
              ],
            },
          ],
        },
      },
      top_k: 5,
      page_number: 2,
      features: ["keyword", "semantic"],
      show_hidden: true,
    });
  });

  it("prints TSV rows piped, highlighted ranked paragraphs on a TTY, and the wire response with --json", async () => {
    const res = findResponse("fox", "Fox", [FOX, DOG], true);
    fake.on(findApi.find, { json: res });
    const [p0, p1] = Object.keys(res.resources[RID].fields["/t/body"].paragraphs);
    const piped = await fake.run(["find", "fox", "--kb", "notes"]);
    expect(piped).toEqual({
      code: 0,
      stderr: "",
      stdout: `2.0000\t${RID}\t/t/body\t${p0}\tFox\t${FOX}\n1.9000\t${RID}\t/t/body\t${p1}\tFox\t${DOG}\n`,
    });
    const tty = await fake.run(["find", "fox", "--kb", "notes"], { tty: true });
    expect(tty.stdout).toBe(
      "1. Fox  /t/body · BM25 2.0000\n   The quick brown fox jumps over the lazy dog.\n\n2. Fox  /t/body · BM25 1.9000\n   A dog sleeps in the sun.\n\n",
    );
    expect(tty.stderr).toBe("more results: --page 1\n");
    // On a terminal the daemon is asked for highlights; piped output is left plain.
    expect(
      fake.requests.filter((q) => q.route === findApi.find).map((q) => (q.json as { highlight: boolean }).highlight),
    ).toEqual([false, true]);
    const json = await fake.run(["find", "fox", "--kb", "notes", "--json"], { tty: true });
    expect(JSON.parse(json.stdout)).toEqual(res);
  });

  it("exits 2 for a --filter that is not JSON, without searching", async () => {
    const r = await fake.run(["find", "fox", "--kb", "notes", "--filter", "{oops"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kbox: --filter is not JSON: /);
    expect(fake.calls()).toEqual(["GET /api/v1/kb/s/notes"]);
  });
});

describe("kbox ask", () => {
  const retrieved = findResponse("why", "Fox", ["The quick brown fox jumps over the lazy dog."]);
  const pid = Object.keys(retrieved.resources[RID].fields["/t/body"].paragraphs)[0];
  const items = [
    { item: { type: "retrieval", results: retrieved, best_matches: [{ id: pid }] } },
    { item: { type: "answer", text: "The fox jumps " } },
    { item: { type: "answer", text: "[block-A" } },
    { item: { type: "answer", text: "A] over the dog." } },
    { item: { type: "footnote_citations", footnote_to_context: { "block-AA": pid } } },
    { item: { type: "status", code: "0", status: "success" } },
  ];

  it("streams the answer with footnotes renumbered across chunks, then the sources", async () => {
    fake.on(askApi.askKb, { ndjson: items });
    const r = await fake.run(["ask", "Why does the fox jump?", "--kb", "notes", "--label", "topic/q3", "--max-tokens", "50"]);
    expect(r).toEqual({
      code: 0,
      stderr: "",
      stdout: "The fox jumps[1] over the dog.\n\nSources\n  [1] Fox — The quick brown fox jumps over the lazy dog.\n",
    });
    expect(fake.last(askApi.askKb)?.json).toEqual({
      query: "Why does the fox jump?",
      filter_expression: { field: { prop: "label", labelset: "topic", label: "q3" } },
      citations: "llm_footnotes",
      max_tokens: 50,
    });
  });

  it("--json prints the wire's NDJSON items as they arrive; a failed answer exits 1", async () => {
    fake.on(askApi.askKb, { ndjson: items });
    const r = await fake.run(["ask", "why", "--kb", "notes", "--json", "--citations", "none"]);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(items);
    expect(fake.last(askApi.askKb)?.json).toMatchObject({ citations: false });

    fake.on(askApi.askKb, {
      ndjson: [{ item: { type: "answer", text: "Partial" } }, { item: { type: "error", error: "the model went away" } }],
    });
    const failed = await fake.run(["ask", "why", "--kb", "notes"]);
    expect(failed).toEqual({ code: 1, stdout: "Partial\n", stderr: "kbox: the answer failed: the model went away\n" });
  });

  it("exits 2 for an unknown --citations mode, without asking", async () => {
    const r = await fake.run(["ask", "why", "--kb", "notes", "--citations", "all"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: 'kbox: --citations must be footnotes, default or none, not "all"\n' });
    expect(fake.calls()).toEqual(["GET /api/v1/kb/s/notes"]);
  });
});
