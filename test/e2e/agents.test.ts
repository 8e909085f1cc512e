import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as audit from "../../src/api/agent-audit.js";
import * as cfg from "../../src/api/agent-config.js";
import * as modules from "../../src/api/agent-modules.js";
import type { AragAnswer } from "../../src/api/agents.js";
import * as agents from "../../src/api/agents.js";
import * as kbs from "../../src/api/kbs.js";
import { ApiError } from "../../src/client/errors.js";
import { readAll } from "../../src/client/transport.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { seedKb } from "../helpers/seed-kb.js";

// Two knowledge boxes each hold half of what the question needs; the agent queries both.
const PEOPLE = [
  {
    slug: "ada",
    title: "Team",
    body: "Ada Quill is the chief engineer of the Zephyr project.\n\nAda Quill joined the Zephyr project in 2019, after ten years at a shipyard.",
  },
];
const PLACES = [
  {
    slug: "lab",
    title: "Sites",
    body: "The Zephyr project is built in Porto, in the Ribeira lab.\n\nThe Ribeira lab has a wind tunnel and two test benches.",
  },
];

let d: TestDaemon;
let llm: OpenAiStandIn;
let people: string;
let places: string;
let agent: string;
let session: string;

async function newAgent(slug: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { id } = await d.client.call(kbs.accountCreateKb, {
    params: { account_id: "local" },
    body: { slug, title: slug, mode: "agent", ...extra } as never,
  });
  return id;
}

async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

async function interactStream(agent_id: string, session: string, body: Record<string, unknown>): Promise<AragAnswer[]> {
  const items: AragAnswer[] = [];
  for await (const i of d.client.stream(agents.interact, {
    params: { agent_id, session },
    query: { workflow_id: "default" },
    body: { streaming: true, ...body } as never,
  }))
    items.push(i as AragAnswer);
  return items;
}

const steps = (items: AragAnswer[]) => items.flatMap((i) => (i.step ? [i.step] : []));

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  llm.script = () => ({ chunks: ["Ada Quill leads it; ", "it is built in Porto."] });
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid: people } = await seedKb(d, "people", PEOPLE));
  ({ kbid: places } = await seedKb(d, "places", PLACES));
  agent = await newAgent("helper", {
    learning_configuration: { generative_model: "openai:agent-model", user_keys: { openai: { url: llm.url, key: "sk-test" } } },
  });
  await d.client.call(cfg.addDriver, {
    params: { agent_id: agent },
    body: { identifier: "people", name: "People", provider: "local", config: { kbid: people } },
  });
  await d.client.call(cfg.addDriver, {
    params: { agent_id: agent },
    body: { identifier: "places", name: "Places", provider: "local", config: { kb: "places" } },
  });
  ({ uuid: session } = await d.client.call(agents.createSession, {
    params: { agent_id: agent },
    body: { slug: "s1", name: "First", summary: "", data: "", format: "PLAIN" },
  }));
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

describe("retrieval agents", () => {
  it("are knowledge boxes of mode agent, listed apart from knowledge boxes", async () => {
    const list = await d.client.call(kbs.accountListKbs, { params: { account_id: "local" }, query: { mode: "agent" } });
    expect(list.map((k) => k.slug)).toEqual(["helper"]);
    const plain = await d.client.call(kbs.accountListKbs, { params: { account_id: "local" }, query: {} });
    expect(plain.map((k) => k.slug).sort()).toEqual(["people", "places"]);
    // A knowledge box is not an agent.
    expect(await statusOf(d.client.call(cfg.listDrivers, { params: { agent_id: people } }))).toBe(404);
  });

  it("answers a question that needs both drivers, streaming its steps", async () => {
    const items = await interactStream(agent, session, { question: "Who leads the Zephyr project and where is it built?" });
    expect(items[0].operation).toBe(2);
    expect(items.at(-1)?.operation).toBe(3);
    const mods = steps(items).map((s) => s.module);
    expect(mods).toEqual(["plan", "retrieve", "retrieve", "validate", "generate"]);
    const contexts = items.flatMap((i) => (i.context ? [i.context as { agent: string; chunks: { text: string }[] }] : []));
    expect(contexts.map((c) => c.agent).sort()).toEqual(["people", "places"]);
    expect(contexts.every((c) => c.chunks.length > 0)).toBe(true);
    // The model saw paragraphs of both knowledge boxes.
    const prompt = JSON.stringify(llm.requests.at(-1)?.messages);
    expect(prompt).toContain("chief engineer of the Zephyr project");
    expect(prompt).toContain("built in Porto");
    // The text streamed, then the whole answer.
    expect(items.filter((i) => i.generated_text).map((i) => i.generated_text)).toEqual([
      "Ada Quill leads it; ",
      "it is built in Porto.",
    ]);
    expect(items.find((i) => i.answer)?.answer).toBe("Ada Quill leads it; it is built in Porto.");
  });

  it("answers a follow-up in the same session with the history", async () => {
    llm.script = () => ({ chunks: ["She joined in 2019."] });
    const items = await interactStream(agent, session, { question: "And when did she join it?" });
    const rephrase = steps(items).find((s) => s.module === "rephrase");
    expect(rephrase?.value).toMatch(/zephyr/i);
    const msgs = llm.requests.at(-1)?.messages as { role: string; content: string }[];
    // The earlier turn is in the conversation the model sees.
    expect(msgs.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(msgs[1].content).toBe("Who leads the Zephyr project and where is it built?");
    expect(msgs[3].content).toContain("joined the Zephyr project in 2019");
    const s = await d.client.call(agents.getSession, { params: { agent_id: agent, session } });
    expect((s.data.conversations.history.value.messages as unknown[]).length).toBe(4);
    // An explicit chat_history (even empty) replaces the session's.
    const fresh = await interactStream(agent, session, { question: "Where is it built?", chat_history: [] });
    expect(steps(fresh).some((x) => x.module === "rephrase")).toBe(false);
  });

  it("returns the answer whole without streaming, and answers extractively with no model", async () => {
    const plain = await newAgent("plain");
    await d.client.call(cfg.addDriver, {
      params: { agent_id: plain },
      body: { identifier: "places", name: "Places", provider: "local", config: { kbid: places } },
    });
    const whole = (await d.client.call(agents.interact, {
      params: { agent_id: plain, session: "ephemeral" },
      query: { workflow_id: "default" },
      body: { question: "Where is the Zephyr project built?" } as never,
    })) as AragAnswer;
    expect(whole.operation).toBe(3);
    expect(whole.answer).toContain("Porto");
    const gen = whole.steps?.find((s) => s.module === "generate");
    expect(gen?.reason).toMatch(/extractive/);
    // A provider that needs an outside service is refused, saying why.
    const bad = d.client.call(cfg.addDriver, {
      params: { agent_id: plain },
      body: { identifier: "web", name: "Web", provider: "brave", config: { key: "x" } },
    });
    expect(await statusOf(bad)).toBe(422);
  });

  it("keeps driver secrets encrypted at rest and out of listings", async () => {
    const id = (
      await d.client.call(cfg.addDriver, {
        params: { agent_id: agent },
        body: {
          identifier: "far",
          name: "Far",
          provider: "nucliadb",
          config: { url: "http://127.0.0.1:9", kbid: "x", key: "SECRET-KEY-123" },
        },
      })
    ).id;
    const list = await d.client.call(cfg.listDrivers, { params: { agent_id: agent } });
    expect(JSON.stringify(list)).not.toContain("SECRET-KEY-123");
    expect(list.find((x) => x.id === id)?.config).toEqual({ url: "http://127.0.0.1:9", kbid: "x" });
    const { execFileSync } = await import("node:child_process");
    await (await d.daemon.services.store.kb(agent)).idle();
    let hits = "";
    try {
      hits = execFileSync("grep", ["-rla", "SECRET-KEY-123", d.home], { encoding: "utf8" });
    } catch {
      // grep exits 1 when nothing matches
    }
    expect(hits).toBe("");
    await d.client.call(cfg.deleteDriver, { params: { agent_id: agent, driver: id } });
  });

  it("states the stored prompt and the rules to the model", async () => {
    const { id: pid } = await d.client.call(cfg.addPrompt, {
      params: { agent_id: agent },
      body: { name: "Terse", description: "short answers", prompt: "PROMPT-42: answer in five words." },
    });
    await d.client.call(cfg.setRules, {
      params: { agent_id: agent },
      body: { rules: ["Cite the source", { prompt: "Never guess" }] },
    });
    await d.client.call(modules.generationModules.add, {
      params: { agent_id: agent },
      body: { module: "generate", prompt_id: pid },
    });
    await d.client.call(cfg.addWorkflow, { params: { agent_id: agent }, body: { id: "brief", name: "Brief", required: [] } });
    await interactStream(agent, "ephemeral", { question: "Where is the Zephyr project built?" });
    const system = (llm.requests.at(-1)!.messages as { content: string }[])[0].content;
    expect(system).toContain("PROMPT-42: answer in five words.");
    expect(system).toContain("- Cite the source\n- Never guess");
    expect(await statusOf(d.client.call(cfg.deleteWorkflow, { params: { agent_id: agent, workflow_id: "default" } }))).toBe(409);
  });

  it("exports the configuration encrypted and imports it into a new agent", async () => {
    const short = d.client.call(audit.exportAgent, { params: { agent_id: agent }, body: { passphrase: "too short" } });
    expect(await statusOf(short)).toBe(422);
    const pass = "correct horse battery staple";
    const ex = await d.client.call(audit.exportAgent, { params: { agent_id: agent }, body: { passphrase: pass } });
    const file = await readAll((await d.client.raw({ method: "GET", path: ex.download_url })).body);
    expect(file.toString("latin1")).not.toContain("PROMPT-42");
    const copy = await newAgent("copy");
    const importTo = async (agent_id: string, passphrase: string, overwrite: boolean) => {
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(file)]), "agent.kboxagent");
      form.set("passphrase", passphrase);
      form.set("overwrite", String(overwrite));
      const req = new Request("http://x/", { method: "POST", body: form });
      const res = await d.client.raw({
        method: "POST",
        path: `/api/v1/agent/${agent_id}/import`,
        headers: { "content-type": req.headers.get("content-type") as string },
        body: Buffer.from(await req.arrayBuffer()),
      });
      return { status: res.status, text: (await readAll(res.body)).toString("utf8") };
    };
    const wrong = await importTo(copy, "a wrong passphrase, long enough", false);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/passphrase/);
    expect((await importTo(copy, pass, false)).status).toBe(200);
    const snapshot = async (agent_id: string) => ({
      drivers: await d.client.call(cfg.listDrivers, { params: { agent_id } }),
      workflows: await d.client.call(cfg.listWorkflows, { params: { agent_id } }),
      rules: await d.client.call(cfg.getRules, { params: { agent_id } }),
      prompts: await d.client.call(cfg.listPrompts, { params: { agent_id } }),
      generation: await d.client.call(modules.generationModules.list, { params: { agent_id } }),
    });
    const want = await snapshot(agent);
    expect(await snapshot(copy)).toEqual(want);
    expect(want.drivers.map((x) => x.identifier).sort()).toEqual(["people", "places"]);
    // A configured agent is replaced only with overwrite.
    expect((await importTo(copy, pass, false)).status).toBe(409);
    expect((await importTo(copy, pass, true)).status).toBe(200);
    // The copy answers from the same drivers.
    const items = await interactStream(copy, "ephemeral", { question: "Where is the Zephyr project built?" });
    expect(items.flatMap((i) => (i.context ? [(i.context as { agent: string }).agent] : [])).sort()).toEqual([
      "people",
      "places",
    ]);
  });

  it("answers the wire's 4xx for what cannot work", async () => {
    const params = { agent_id: agent };
    expect(await statusOf(d.client.call(agents.getSession, { params: { ...params, session: "nope" } }))).toBe(404);
    const noWf = d.client.call(agents.interactWorkflow, {
      params: { ...params, workflow_id: "nope", session: "ephemeral" },
      body: { question: "x" } as never,
    });
    expect(await statusOf(noWf)).toBe(404);
    expect(await statusOf(d.client.call(cfg.getWorkflowRules, { params: { ...params, workflow_id: "nope" } }))).toBe(404);
    const badModule = d.client.call(modules.preprocessModules.add, { params, body: { module: "generate" } });
    expect(await statusOf(badModule)).toBe(422);
    const dup = d.client.call(agents.createSession, {
      params,
      body: { slug: "s1", name: "again", summary: "", data: "", format: "PLAIN" },
    });
    expect(await statusOf(dup)).toBe(409);
    // No drivers: nothing to retrieve from.
    const empty = await newAgent("empty");
    const none = d.client.call(agents.interact, {
      params: { agent_id: empty, session: "ephemeral" },
      query: { workflow_id: "default" },
      body: { question: "x" } as never,
    });
    expect(await statusOf(none)).toBe(400);
    // An agent without memory keeps no sessions.
    const { id: forgetful } = await d.client.call(kbs.accountCreateKb, {
      params: { account_id: "local" },
      body: { slug: "forgetful", title: "f", mode: "agent_no_memory" } as never,
    });
    const s = d.client.call(agents.createSession, {
      params: { agent_id: forgetful },
      body: { slug: "s", name: "s", summary: "", data: "", format: "PLAIN" },
    });
    expect(await statusOf(s)).toBe(400);
    // A local driver must name a knowledge box of this daemon (not another agent).
    const bad = d.client.call(cfg.addDriver, {
      params,
      body: { identifier: "x", name: "x", provider: "local", config: { kbid: forgetful } },
    });
    expect(await statusOf(bad)).toBe(422);
  });
});
