import { afterAll, beforeAll, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as learning from "../../src/api/learning.js";
import * as tasks from "../../src/api/tasks.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { CORPUS, type Doc, seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
beforeAll(async () => {
  // A pause between resources keeps the migration running while the finds go on.
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_TASK_PAUSE_MS: "60" } });
  d.daemon.services.models.registerEmbedder("hash64", new HashEmbedder(64));
  d.daemon.services.models.registerEmbedder("hash32", new HashEmbedder(32));
});
afterAll(async () => d?.stop());

const MORE: Doc[] = Array.from({ length: 12 }, (_, i) => ({
  slug: `note-${i}`,
  title: `Note ${i}`,
  body: `Note ${i} says the cats of house ${i} sleep near the window.`,
}));

it("semantic-model-migrator moves a knowledge box to another model while a loop of finds keeps answering", async () => {
  const { kbid } = await seedKb(d, "migrate", [...CORPUS, ...MORE], { semantic_models: ["hash64"] });
  const { id } = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: { name: "semantic-model-migrator", apply: "EXISTING", parameters: { semantic_model_id: "hash32" } },
  });
  const answers: number[] = [];
  let failures = 0;
  let status = "";
  while (status !== "completed" && status !== "failed") {
    try {
      const r = await d.client.call(find.find, {
        params: { kbid },
        body: { query: "how long do cats sleep", features: ["semantic"] } as never,
      });
      answers.push(Object.keys(r.resources).length);
    } catch {
      failures++;
    }
    status = (await d.client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } })).request?.status ?? "";
  }
  expect(status).toBe("completed");
  expect(failures).toBe(0);
  expect(answers.length).toBeGreaterThan(5);
  expect(answers.every((n) => n > 0)).toBe(true);
  const c = await d.client.call(learning.getConfiguration, { params: { kbid } });
  expect(c).toMatchObject({ semantic_models: ["hash64", "hash32"], default_semantic_model: "hash32", semantic_vector_size: 32 });
  const [v64, v32] = c.vectorsets;
  expect(v32).toMatchObject({ id: "hash32", default: true });
  expect(v32.vectors).toBe(v64.vectors);
  expect(v32.vectors).toBeGreaterThan(MORE.length);
  // Finds now use the new default vectorset, and still find the cat paragraphs.
  const after = await d.client.call(find.find, {
    params: { kbid },
    body: { query: "how long do cats sleep", features: ["semantic"] } as never,
  });
  expect(Object.keys(after.resources).length).toBeGreaterThan(0);
  const rec = (await d.client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } })).request;
  expect(rec?.log.join("\n")).toMatch(/added vectorset hash32[\s\S]*default vectorset is now hash32/);
  // The migrator runs once, on existing data.
  const bad = await d.client
    .call(tasks.startTask, {
      params: { kb_uuid: kbid },
      body: { name: "semantic-model-migrator", apply: "NEW", parameters: { semantic_model_id: "hash64" } },
    })
    .catch((e) => e);
  expect(bad.status).toBe(422);
});
