import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";
import { writeTinyGguf } from "../helpers/tiny-gguf.js";

// A local GGUF model run in-process by node-llama-cpp: a tiny llama model the test writes itself.
let d: TestDaemon;
let kbid: string;
let model: string;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  model = join(d.home, "tiny.gguf");
  writeTinyGguf(model);
  ({ kbid } = await seedKb(d, "gguf", [{ slug: "r", title: "Releases", body: "The team ships every Friday." }]));
});
afterAll(async () => d?.stop());

describe("ask with a local GGUF model", () => {
  it("loads the model from a path and streams its tokens", async () => {
    const r = await ask(d, kbid, {
      query: "When does the team ship?",
      features: ["keyword"],
      generative_model: `gguf:${model}`,
      max_tokens: 8,
      generative_model_seed: 3,
    });
    expect(r.items.find((i) => i.type === "error")).toBeUndefined();
    expect(r.items.filter((i) => i.type === "answer").length).toBeGreaterThan(0);
    expect(answerOf(r.items).length).toBeGreaterThan(0);
    expect(itemOf(r.items, "metadata")).toMatchObject({ generator: { kind: "gguf", extractive: false } });
    expect(itemOf(r.items, "metadata")?.tokens.output).toBeGreaterThan(0);
    expect(itemOf(r.items, "status")?.code).toBe("0");
  });

  it("reports a missing or invalid model file as an error item", async () => {
    const missing = await ask(d, kbid, {
      query: "When does the team ship?",
      features: ["keyword"],
      generative_model: `gguf:${join(d.home, "nope.gguf")}`,
    });
    expect(itemOf(missing.items, "error")?.error).toMatch(/GGUF model not found/);
    expect(missing.items.at(-1)).toMatchObject({ type: "status", code: "-1" });
    const junk = join(d.home, "junk.gguf");
    writeFileSync(junk, "not a model");
    const bad = await ask(d, kbid, {
      query: "When does the team ship?",
      features: ["keyword"],
      generative_model: `gguf:${junk}`,
    });
    expect(itemOf(bad.items, "error")?.error).toMatch(/cannot load GGUF model/);
    expect(answerOf((await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] })).items)).toContain(
      "Friday",
    );
  });
});
