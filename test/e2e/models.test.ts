import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import type * as models from "../../src/api/models.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { type FakeHub, startEmbeddingServer, startFakeHub } from "../helpers/fake-hub.js";
import { tinyModelFiles } from "../helpers/tiny-model.js";

let hub: FakeHub;
let emb: Awaited<ReturnType<typeof startEmbeddingServer>>;
let d: TestDaemon;
const ONNX = "onnx/model_quantized.onnx";

beforeAll(async () => {
  hub = await startFakeHub();
  hub.add("kbox-test/tiny-bge", await tinyModelFiles({ dim: 24, pooling: "cls", onnxPath: ONNX }));
  hub.add("kbox-test/tiny-ce", await tinyModelFiles({ dim: 8, crossEncoder: true }));
  emb = await startEmbeddingServer(12);
  // The daemon's own hub (for automatic pulls) is unreachable here; the CLI passes its KBOX_HF_ENDPOINT.
  d = await startTestDaemon({ env: { KBOX_HF_ENDPOINT: "http://127.0.0.1:9" } });
});
afterAll(async () => {
  await d?.stop();
  await hub.stop();
  await emb.stop();
});

const hubEnv = () => ({ KBOX_HF_ENDPOINT: hub.url });

describe("kbox models, end to end", () => {
  it("with no model and no hub, says plainly that search is keyword-only", async () => {
    const kb = await d.client.call(kbs.createKb, { body: { slug: "plain" } });
    expect(await d.daemon.services.models.embedderFor(kb.uuid)).toBeUndefined();
    expect(d.daemon.services.models.vectorsets(kb.uuid)).toEqual([]);
    const r = await d.cli(["models", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^notice: no embedding model installed: knowledge boxes are indexed for keyword search only\. Run `kbox models pull/m,
    );
    const j = await d.cli(["models", "list", "--json"]);
    expect(JSON.parse(j.stdout)).toMatchObject({ keyword_only: true, default: null, models: [] });
    const all = await d.cli(["models", "list", "--all"]);
    expect(all.stdout).toMatch(/Xenova\/bge-small-en-v1.5\tembedder\t34 MB\tno\t/);
    // nothing was pinned: the KB stays free to get a model later
    expect((await d.client.call(kbs.getKb, { params: { kbid: kb.uuid } })).model).toMatchObject({
      semantic_models: [],
      default_semantic_model: null,
      semantic_search: "keyword_only",
    });
  });

  it("pulls a model from the hub with plain progress lines when piped, and the KB embeds with it", async () => {
    const r = await d.cli(["models", "pull", "kbox-test/tiny-bge"], { env: hubEnv() });
    expect(r.stderr).toContain("pulling kbox-test/tiny-bge@main: 5 files, 3.4 MiB");
    expect(r.stderr).toMatch(new RegExp(`${ONNX} [\\d.]+ MiB ok\\n`));
    expect(r.stderr).toContain("installed kbox-test/tiny-bge (embedder, 24 dims), the default");
    expect(r.stderr).not.toContain("\r");
    expect(r.stdout).toBe("kbox-test/tiny-bge\n");
    expect(r.code).toBe(0);

    const kb = await d.client.call(kbs.createKb, { body: { slug: "semantic" } });
    const e = await d.daemon.services.models.embedderFor(kb.uuid);
    expect(e).toMatchObject({ id: "onnx:kbox-test/tiny-bge", dim: 24 });
    const [v] = await (e as NonNullable<typeof e>).embed(["hello there"], "query");
    expect(v).toHaveLength(24);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    // the KB's model is fixed now, so that a later `models use` does not mix vector spaces
    const got = await d.client.call(kbs.getKb, { params: { kbid: kb.uuid } });
    expect(got.model).toMatchObject({ semantic_models: ["kbox-test/tiny-bge"], default_semantic_model: "kbox-test/tiny-bge" });
    expect(d.daemon.services.models.vectorsets(kb.uuid)).toEqual([
      { id: "tiny-bge", model: "kbox-test/tiny-bge", dim: 24, default: true },
    ]);
    // loaded once
    expect(await d.daemon.services.models.embedderFor(kb.uuid)).toBe(e);
    const list = JSON.parse((await d.cli(["models", "list", "--json"])).stdout) as models.ModelList;
    expect(list).toMatchObject({ keyword_only: false, default: "kbox-test/tiny-bge" });
    expect(list.models[0]).toMatchObject({
      name: "kbox-test/tiny-bge",
      provider: "onnx",
      pooling: "cls",
      kbs: ["semantic"],
      default: true,
    });
  });

  it("draws a progress bar on a TTY, resumes an interrupted pull, and refuses a bad checksum", async () => {
    const onnx = (await tinyModelFiles({ dim: 8, crossEncoder: true })).get("onnx/model.onnx") as Buffer;
    hub.dropAfter("onnx/model.onnx", 600_000);
    hub.throttle(2_000_000);
    const first = await d.cli(["models", "pull", "kbox-test/tiny-ce"], { env: hubEnv(), tty: true });
    hub.throttle(0);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /kbox: download of onnx\/model.onnx was interrupted \(.*\); what arrived is kept for the next pull/,
    );
    expect(first.stderr).toContain("hint: run the same pull again to resume");
    expect(first.stderr).toMatch(/\r\x1b\[2K.*\[#*-*\] +\d+% .*KiB\/.*MiB .*\/s +eta/);

    hub.requests.length = 0;
    const second = await d.cli(["models", "pull", "kbox-test/tiny-ce", "--use"], { env: hubEnv() });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^config.json already downloaded$/m);
    // it resumes from what had arrived before the cut (at most the 600,000 bytes sent)
    expect(second.stderr).toMatch(/^resuming onnx\/model.onnx at [\d.]+ KiB$/m);
    const offset = Number(/^bytes=(\d+)-$/.exec(hub.requests.find((q) => q.path.endsWith(".onnx"))?.range ?? "")?.[1]);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(600_000);
    expect(second.stderr).toContain("installed kbox-test/tiny-ce (reranker), the default");
    const reranker = await d.daemon.services.models.reranker();
    expect(reranker?.id).toBe("onnx:kbox-test/tiny-ce");
    const scores = await (reranker as NonNullable<typeof reranker>).score("cats", ["cats purr", "stocks fell"]);
    expect(scores).toHaveLength(2);

    const bad = Buffer.from(onnx);
    bad[100] ^= 1;
    hub.tamper("onnx/model.onnx", bad);
    const refused = await d.cli(["models", "pull", "kbox-test/tiny-ce", "--json"], { env: hubEnv() });
    hub.tamper("onnx/model.onnx", onnx);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /kbox: checksum mismatch for onnx\/model.onnx: sha256 expected [0-9a-f]{64}, got [0-9a-f]{64}/,
    );
    const lines = refused.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].type).toBe("start");
    expect(lines.at(-1)).toMatchObject({ type: "error" });
    // the installed copy was left alone
    expect((await d.daemon.services.models.reranker())?.id).toBe("onnx:kbox-test/tiny-ce");
  });

  it("adds an OpenAI-compatible endpoint, discovers its dimension, and serves a second vectorset", async () => {
    const r = await d.cli([
      "models",
      "add",
      "openai:local",
      "--url",
      `${emb.url}/v1`,
      "--model",
      "tiny-embed",
      "--api-key",
      "sk-test",
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      name: "openai:local",
      provider: "openai",
      dim: 12,
      vectorset: "local",
      url: `${emb.url}/v1`,
      model: "tiny-embed",
    });
    expect(r.stdout).not.toContain("sk-test");
    const kb = await d.client.call(kbs.createKb, {
      body: {
        slug: "two",
        learning_configuration: {
          semantic_models: ["bge-tiny-missing", "kbox-test/tiny-bge", "openai:local"],
          default_semantic_model: "openai:local",
        },
      },
    });
    const models2 = d.daemon.services.models;
    expect(models2.vectorsets(kb.uuid)).toEqual([
      { id: "tiny-bge", model: "kbox-test/tiny-bge", dim: 24, default: false },
      { id: "local", model: "openai:local", dim: 12, default: true },
    ]);
    expect((await models2.embedderFor(kb.uuid))?.dim).toBe(12);
    expect((await models2.embedderFor(kb.uuid, "tiny-bge"))?.dim).toBe(24);
    expect(await models2.embedderFor(kb.uuid, "nope")).toBeUndefined();
    const [v] = await (await models2.embedderFor(kb.uuid, "local"))!.embed(["x"], "passage");
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    const list = await d.cli(["models", "list"]);
    expect(list.stderr).toContain("warning: knowledge box two uses bge-tiny-missing, which is not installed");

    const bad = await d.cli(["models", "add", "openai:nokey", "--url", `${emb.url}/v1`, "--model", "m"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/answered 401/);
    expect((await d.cli(["models", "add", "local2", "--url", emb.url])).code).toBe(2);
  });

  it("switches the default, refuses to remove a model in use, and validates input", async () => {
    const use = await d.cli(["models", "use", "openai:local"]);
    expect(use.code).toBe(0);
    expect(use.stderr).toMatch(/semantic search uses openai:local \(12 dims\); reranking with kbox-test\/tiny-ce/);
    // a KB pinned earlier keeps its model
    expect(
      (await d.daemon.services.models.embedderFor((await d.client.call(kbs.getKbBySlug, { params: { slug: "semantic" } })).uuid))
        ?.dim,
    ).toBe(24);
    const kb = await d.client.call(kbs.createKb, { body: { slug: "after-use" } });
    expect((await d.daemon.services.models.embedderFor(kb.uuid))?.dim).toBe(12);

    const refused = await d.cli(["models", "remove", "tiny-bge", "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "model kbox-test/tiny-bge is used by knowledge box semantic, two; pass force to remove it anyway",
    );
    expect((await d.cli(["models", "remove", "tiny-bge"])).code).toBe(2);
    const forced = await d.cli(["models", "remove", "tiny-bge", "--yes", "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain("removed kbox-test/tiny-bge");
    expect(d.daemon.services.models.list().models.map((m) => m.name)).toEqual(["kbox-test/tiny-ce", "openai:local"]);

    expect((await d.cli(["models", "use", "nothing-like-it"])).stderr).toContain(
      "no installed or configured model named nothing-like-it",
    );
    const badId = await d.cli(["models", "pull", "not a model"], { env: hubEnv() });
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain("not a model id");
    const missing = await d.cli(["models", "pull", "kbox-test/absent"], { env: hubEnv() });
    expect(missing.stderr).toContain("model kbox-test/absent@main not found on the hub");
  });
});

describe("first use", () => {
  it("pulls the default model when the hub is reachable", async () => {
    hub.add("Xenova/bge-small-en-v1.5", await tinyModelFiles({ dim: 24, pooling: "cls", onnxPath: ONNX }));
    const fresh = await startTestDaemon({ env: { KBOX_HF_ENDPOINT: hub.url } });
    try {
      const kb = await fresh.client.call(kbs.createKb, { body: { slug: "first" } });
      // two first uses at once share one download
      const [e, e2] = await Promise.all([
        fresh.daemon.services.models.embedderFor(kb.uuid),
        fresh.daemon.services.models.embedderFor(kb.uuid),
      ]);
      expect(e?.id).toBe("onnx:Xenova/bge-small-en-v1.5");
      expect(e2).toBe(e);
      expect(hub.requests.filter((q) => q.path === "/api/models/Xenova/bge-small-en-v1.5")).toHaveLength(1);
      const m = fresh.daemon.services.models.list().models[0];
      expect(m).toMatchObject({
        name: "Xenova/bge-small-en-v1.5",
        query_prefix: "Represent this sentence for searching relevant passages: ",
        pooling: "cls",
        kbs: ["first"],
      });
    } finally {
      await fresh.stop();
    }
  });
});
