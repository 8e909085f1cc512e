import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { GREP_CAT, GZIP_MAN, README } from "../fixtures/manuals.js";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { rawCall } from "../helpers/raw.js";
import { waitIdle } from "./ingest-helpers.js";

let d: TestDaemon;
let llm: OpenAiStandIn;
let kbid: string;
const rids: Record<string, string> = {};

async function upload(name: string, body: Buffer, type: string) {
  const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/upload`, body, {
    "content-type": type,
    "x-filename": encodeURIComponent(name),
  });
  expect(r.status).toBe(201);
  rids[name] = (r.json as { uuid: string }).uuid;
}

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "manuals" } })).uuid;
  await upload("gzip.1.gz", gzipSync(GZIP_MAN), "application/gzip");
  await upload("grep.txt", Buffer.from(GREP_CAT), "text/plain");
  await upload("README.md", Buffer.from(README), "text/markdown");
  await waitIdle(d.client, kbid);
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

const q = (query: string, extra: Record<string, unknown> = {}) =>
  ask(d, kbid, { query, features: ["keyword"], citations: true, ...extra });

describe("answers on real documents", () => {
  it("answers a covered question with the sentence that answers it, cited once", async () => {
    const r = await q("How do I keep the input files when compressing with gzip?");
    const answer = answerOf(r.items);
    expect(answer).toMatch(/^-k --keep Keep \(don't delete\) input files during compression or decompression\./);
    expect(itemOf(r.items, "status")?.status).toBe("success");
    const cites = itemOf(r.items, "citations")?.citations ?? {};
    expect(Object.keys(cites)).toHaveLength(1);
    expect(Object.keys(cites)[0].startsWith(rids["gzip.1.gz"])).toBe(true);
  });

  it("brings the number along when the question asks for one", async () => {
    const answer = answerOf((await q("What is the default compression level of gzip?")).items);
    expect(answer).toContain("The default compression level is -6");
  });

  it("picks the option that answers, not its opposite, from a page formatted by overstrike", async () => {
    const answer = answerOf((await q("Which grep option prints the files without a match?")).items);
    expect(answer).toMatch(/^-L, --files-without-match/);
    expect(answer).not.toContain("--files-with-matches");
    const number = answerOf((await q("Which option prefixes each output line with its line number?")).items);
    expect(number).toMatch(/^-n, --line-number Prefix each line of output with the 1-based line number within its input file\.$/);
  });

  it("answers from a README without breaking at e.g. or inside code", async () => {
    const answer = answerOf((await q("How much disk space does the harbour installer need?")).items);
    expect(answer).toContain("The installer needs 40 MB of free disk space.");
    const sync = answerOf((await q("What do harbour tools sync to the ship's computer?")).items);
    expect(sync).toContain("e.g. before a voyage.");
  });

  it.each(["What is the capital of France?", "How do I bake sourdough bread?", "What is the default compression level of xz?"])(
    "abstains when the documents do not say: %s",
    async (query) => {
      const r = await q(query);
      expect(answerOf(r.items)).toBe("Not enough data to answer this.");
      expect(itemOf(r.items, "status")).toEqual({ type: "status", code: "-2", status: "no_context" });
      expect(itemOf(r.items, "citations")?.citations).toEqual({});
      // The documents were searched and something was found: this is abstention, not an empty retrieval.
      expect(itemOf(r.items, "retrieval")?.best_matches.length).toBeGreaterThan(0);
      const s = await ask(d, kbid, { query, features: ["keyword"] }, { "x-synchronous": "true" });
      expect(s.json).toMatchObject({ answer: "Not enough data to answer this.", status: "no_context" });
    },
  );

  it("reads gzip-compressed troff pages as text titled by the page", async () => {
    const res = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rids["gzip.1.gz"]}?show=extracted&show=values`);
    const file = (res.json as any).data.files.file;
    expect(file.extracted.text.text).toContain("-k --keep\nKeep (don't delete) input files");
    expect(file.extracted.text.text).not.toMatch(/\\f[BIR]|^\.B /m);
    const grep = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rids["grep.txt"]}?show=extracted`);
    expect((grep.json as any).data.files.file.extracted.text.text).toContain("-L, --files-without-match");
  });

  it("a generative model is not asked when the evidence is too weak, and its own 'not in the context' abstains", async () => {
    const model = { generative_model: `openai:tiny-chat@${llm.url}` };
    const before = llm.requests.length;
    const off = await q("Who painted the Mona Lisa in the capital of Italy?", model);
    expect(answerOf(off.items)).toBe("Not enough data to answer this.");
    expect(itemOf(off.items, "status")?.status).toBe("no_context");
    expect(llm.requests.length).toBe(before);
    llm.script = () => ({ chunks: ["The context does not mention ", "how to bake bread."] });
    const own = await q("Which grep option prints line numbers?", model);
    expect(llm.requests.length).toBe(before + 1);
    expect(itemOf(own.items, "status")).toEqual({ type: "status", code: "-2", status: "no_context" });
    expect(itemOf(own.items, "citations")?.citations).toEqual({});
    llm.script = () => ({ chunks: ["Use -n, --line-number: it prefixes each line of output with the line number."] });
    const yes = await q("Which grep option prints line numbers?", model);
    expect(itemOf(yes.items, "status")?.status).toBe("success");
    expect(Object.keys(itemOf(yes.items, "citations")?.citations ?? {}).some((id) => id.startsWith(rids["grep.txt"]))).toBe(true);
  });
});
