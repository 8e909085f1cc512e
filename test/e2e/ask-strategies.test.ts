import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sc from "../../src/api/search-configs.js";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { CORPUS, seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let llm: OpenAiStandIn;
let kbid: string;
let rids: Record<string, string>;
const KW = { features: ["keyword"] };
const chat = [
  { ident: "1", who: "ana", text: "Is the parking garage open on Sunday?" },
  { ident: "2", who: "bo", text: "The garage is closed on Sunday." },
  { ident: "3", who: "ana", text: "And the bike racks?" },
  { ident: "4", who: "bo", text: "Bike racks are always available." },
];
/** The user message the stand-in model received last. */
const lastPrompt = () => (llm.requests.at(-1) as any).messages.at(-1).content as string;

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "strategies", [
    ...CORPUS,
    { slug: "parking", title: "Parking chat", body: "Parking notes.", conversation: chat },
  ]));
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

/** Ask through the stand-in model so the prompt's context can be inspected. */
async function prompted(body: Record<string, unknown>) {
  llm.script = () => ({ chunks: ["ok"] });
  const r = await ask(d, kbid, { ...KW, generative_model: `openai:m@${llm.url}`, ...body });
  return { r, prompt: lastPrompt() };
}

describe("rag strategies", () => {
  it("neighbouring_paragraphs adds the paragraphs around a hit", async () => {
    const plain = await prompted({ query: "Visitors sign in front desk", top_k: 1 });
    expect(plain.prompt).not.toContain("Lisbon");
    const { r, prompt } = await prompted({
      query: "Visitors sign in front desk",
      top_k: 1,
      rag_strategies: [{ name: "neighbouring_paragraphs", before: 1, after: 1 }],
    });
    expect(prompt).toContain("Lisbon");
    expect(prompt).toContain("42 desks");
    const aug = itemOf(r.items, "augmented_context")?.augmented.paragraphs ?? {};
    const types = Object.values(aug).map((a) => a.augmentation_type);
    expect(types).toEqual(["neighbouring_paragraphs", "neighbouring_paragraphs"]);
    expect(Object.keys(aug).every((id) => id.startsWith(`${rids.office}/t/body/`))).toBe(true);
  });

  it("full_resource puts whole resources in the context", async () => {
    const { r, prompt } = await prompted({
      query: "Hotfixes approval",
      top_k: 1,
      rag_strategies: [{ name: "full_resource", count: 1 }],
    });
    expect(prompt).toContain("every Friday afternoon");
    expect(prompt).toContain("Maria Lopez");
    expect(prompt).toContain("Release planning");
    const fields = itemOf(r.items, "augmented_context")?.augmented.fields ?? {};
    expect(fields[`${rids.shipping}/t/body`]?.augmentation_type).toBe("full_resource");
  });

  it("hierarchy prefixes the resource title and summary", async () => {
    const { prompt } = await prompted({ query: "Hotfixes approval", top_k: 1, rag_strategies: [{ name: "hierarchy" }] });
    expect(prompt).toMatch(/# Release planning\n\nHow and when releases ship\.\n\nHotfixes can ship/);
  });

  it("field_extension adds the named fields of every resource found", async () => {
    const { r, prompt } = await prompted({
      query: "Hotfixes approval",
      top_k: 1,
      rag_strategies: [{ name: "field_extension", fields: ["a/title"] }],
    });
    expect(prompt).toContain("Release planning");
    expect(itemOf(r.items, "augmented_context")?.augmented.fields[`${rids.shipping}/a/title`]?.augmentation_type).toBe(
      "field_extension",
    );
  });

  it("metadata_extension appends origin, labels and extra metadata", async () => {
    const { prompt } = await prompted({
      query: "Hotfixes approval",
      top_k: 1,
      rag_strategies: [{ name: "metadata_extension", types: ["origin", "classification_labels", "extra_metadata"] }],
    });
    expect(prompt).toContain("https://example.com/releases");
    expect(prompt).toContain("topic/planning");
    expect(prompt).toContain('"owner":"platform"');
  });

  it("conversation adds the messages after the matched one (or all of them)", async () => {
    const some = await prompted({
      query: "garage Sunday closed",
      top_k: 1,
      rag_strategies: [{ name: "conversation", max_messages: 2 }],
    });
    expect(some.prompt).toContain("The garage is closed on Sunday.");
    expect(some.prompt).toContain("And the bike racks?");
    expect(some.prompt).not.toContain("always available");
    const all = await prompted({
      query: "garage Sunday closed",
      top_k: 1,
      rag_strategies: [{ name: "conversation", full: true }],
    });
    expect(all.prompt).toContain("Is the parking garage open on Sunday?");
    expect(all.prompt).toContain("Bike racks are always available.");
  });

  it("prequeries run extra finds, are reported, and feed the context", async () => {
    const { r, prompt } = await prompted({
      query: "Hotfixes approval",
      top_k: 1,
      rag_strategies: [
        {
          name: "prequeries",
          queries: [{ id: "cats", request: { query: "cats purr", features: ["keyword"], top_k: 1 }, weight: 2 }],
          main_query_weight: 1,
        },
      ],
    });
    const pre = itemOf(r.items, "prequeries")?.results.cats;
    expect(pre?.best_matches[0]).toMatch(new RegExp(`^${rids.cats}/`));
    expect(prompt).toContain("Cats purr because");
    expect(prompt.indexOf("Cats purr")).toBeLessThan(prompt.indexOf("Hotfixes"));
    const types = r.items.map((i) => i.type);
    expect(types.indexOf("prequeries")).toBe(types.indexOf("retrieval") + 1);
  });

  it("extra_context is added and max_tokens.context bounds the context", async () => {
    const extra = await prompted({ query: "Hotfixes approval", extra_context: ["The secret word is marmalade."] });
    expect(extra.prompt).toContain("The secret word is marmalade.");
    const small = await prompted({ query: "release ship Friday hotfixes notes", max_tokens: { context: 20, answer: 50 } });
    const ctx = small.prompt.split("Context:\n")[1].split("\n\nQuestion:")[0];
    expect(ctx.length).toBeLessThanOrEqual(20 * 4);
    expect((llm.requests.at(-1) as any).max_tokens).toBe(50);
  });
});

describe("citations", () => {
  it("llm_footnotes: blocks in the prompt, footnotes in the answer, and the footnote map", async () => {
    const r = await ask(d, kbid, { ...KW, query: "Who writes the release notes?", citations: "llm_footnotes" });
    const answer = answerOf(r.items);
    expect(answer).toMatch(/Maria Lopez.*\[block-A[A-Z]\]/);
    const map = itemOf(r.items, "footnote_citations")?.footnote_to_context ?? {};
    const [block, pid] = Object.entries(map)[0];
    expect(answer).toContain(`[${block}]`);
    expect(pid).toMatch(new RegExp(`^${rids.shipping}/t/body/\\d+-\\d+$`));
    expect(itemOf(r.items, "citations")).toBeUndefined();
    const { prompt } = await prompted({ query: "Who writes the release notes?", citations: "llm_footnotes" });
    expect(prompt).toMatch(/\[block-AA\] /);
  });

  it("citation_threshold: lower yields more citations", async () => {
    llm.script = () => ({ chunks: ["Releases ship on Friday and the office opens early."] });
    const body = { ...KW, query: "release Friday office opens", generative_model: `openai:m@${llm.url}`, citations: true };
    const strict = itemOf((await ask(d, kbid, { ...body, citation_threshold: 0.95 })).items, "citations")?.citations ?? {};
    const loose = itemOf((await ask(d, kbid, { ...body, citation_threshold: 0.2 })).items, "citations")?.citations ?? {};
    expect(Object.keys(loose).length).toBeGreaterThan(Object.keys(strict).length);
  });
});

describe("chat history", () => {
  const history = [
    { author: "USER", text: "Tell me about the office in Lisbon" },
    { author: "NUCLIA", text: "The office is on Rua Augusta." },
  ];

  it("rephrase turns a follow-up into a standalone query for retrieval and passes the history to the model", async () => {
    const plain = await ask(d, kbid, { ...KW, query: "When does it open?", chat_history: history });
    expect(itemOf(plain.items, "retrieval")?.results.rephrased_query).toBeNull();
    const { r } = await prompted({ query: "When does it open?", chat_history: history, rephrase: true });
    const results = itemOf(r.items, "retrieval")?.results;
    expect(results?.rephrased_query).toMatch(/When does it open .*office/);
    expect(results?.best_matches[0]).toMatch(new RegExp(`^${rids.office}/`));
    const msgs = (llm.requests.at(-1) as any).messages;
    expect(msgs.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    const extractive = await ask(d, kbid, { ...KW, query: "When does it open?", chat_history: history, rephrase: true });
    expect(answerOf(extractive.items)).toContain("8:30");
  });

  it("chat_history_relevance_threshold: 0 always rephrases, 1 never", async () => {
    const always = await ask(d, kbid, {
      ...KW,
      query: "Where are the cats?",
      chat_history: history,
      chat_history_relevance_threshold: 0,
    });
    expect(itemOf(always.items, "retrieval")?.results.rephrased_query).not.toBeNull();
    const never = await ask(d, kbid, {
      ...KW,
      query: "When does it open?",
      chat_history: history,
      chat_history_relevance_threshold: 1,
    });
    expect(itemOf(never.items, "retrieval")?.results.rephrased_query).toBeNull();
  });
});

describe("search configurations of kind ask", () => {
  it("loads stored parameters, lets the request override them, and rejects the wrong kind", async () => {
    await d.client.call(sc.createSearchConfig, {
      params: { kbid, name: "rel" },
      body: { kind: "ask", config: { features: ["keyword"], top_k: 1, generate_answer: false } },
    });
    const r = await ask(d, kbid, { query: "every Friday afternoon", search_configuration: "rel" });
    expect(r.items.map((i) => i.type)).toEqual(["retrieval", "status", "metadata"]);
    expect(itemOf(r.items, "retrieval")?.best_matches).toHaveLength(1);
    const o = await ask(d, kbid, { query: "every Friday afternoon", search_configuration: "rel", generate_answer: true });
    expect(answerOf(o.items)).toContain("Friday");
    await d.client.call(sc.createSearchConfig, { params: { kbid, name: "f" }, body: { kind: "find", config: { top_k: 2 } } });
    expect((await ask(d, kbid, { query: "x", search_configuration: "f" })).status).toBe(400);
    expect((await ask(d, kbid, { query: "x", search_configuration: "missing" })).status).toBe(400);
  });
});

describe("debug and audit metadata", () => {
  it("emits a debug item with the prompt context when debug is set", async () => {
    const r = await ask(d, kbid, { ...KW, query: "Where is the office located?", debug: true, audit_metadata: { team: "qa" } });
    const dbg = itemOf(r.items, "debug")?.metadata ?? {};
    expect((dbg.prompt_context as string[]).join(" ")).toContain("Lisbon");
    expect(dbg.audit_metadata).toEqual({ team: "qa" });
    expect(r.items.at(-1)?.type).toBe("debug");
  });
});
