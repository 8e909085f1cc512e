import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteEmbedder } from "../../../daemon/models/remote.js";
import type { FetchPolicy } from "../../../daemon/net/outbound.js";
import { fakeVector, startEmbeddingServer } from "../../helpers/fake-hub.js";

let srv: Awaited<ReturnType<typeof startEmbeddingServer>>;
beforeAll(async () => {
  srv = await startEmbeddingServer(12);
});
afterAll(async () => srv.stop());

/** The stand-in is on loopback: the test allows it, as the daemon does for an endpoint its owner configured. */
const policy: FetchPolicy = { allowPrivate: true, allow: [] };
const connect = (e: Parameters<typeof RemoteEmbedder.connect>[0]) => RemoteEmbedder.connect(e, undefined, policy);

const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));

describe("remote embedders", () => {
  it("OpenAI-compatible: discovers the dimension, batches, orders by index, normalises, prefixes queries", async () => {
    const e = await connect({
      name: "openai:test",
      provider: "openai",
      url: `${srv.url}/v1`,
      model: "tiny-embed",
      api_key: "sk-test",
      query_prefix: "search_query: ",
    });
    expect(e.dim).toBe(12);
    srv.seen.length = 0;
    const texts = Array.from({ length: 70 }, (_, i) => `text ${i}`);
    const vecs = await e.embed(texts, "passage");
    expect(srv.seen.map((s) => (s.body.input as string[]).length)).toEqual([64, 6]);
    expect(srv.seen[0]).toMatchObject({ path: "/v1/embeddings", auth: "Bearer sk-test", body: { model: "tiny-embed" } });
    const expected = Float32Array.from(fakeVector("text 5", 12));
    const n = norm(expected);
    for (let i = 0; i < 12; i++) expect(vecs[5][i]).toBeCloseTo(expected[i] / n, 5);
    for (const v of vecs) expect(norm(v)).toBeCloseTo(1, 5);
    srv.seen.length = 0;
    await e.embed(["cats"], "query");
    expect(srv.seen[0].body.input).toEqual(["search_query: cats"]);
  });

  it("OpenAI-compatible: a refused key or an unreachable server is a clear 502", async () => {
    await expect(
      connect({ name: "openai:x", provider: "openai", url: `${srv.url}/v1`, model: "m", api_key: "wrong" }),
    ).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/answered 401/),
    });
    await expect(connect({ name: "openai:x", provider: "openai", url: "http://127.0.0.1:9/v1", model: "m" })).rejects.toThrow(
      /cannot reach/,
    );
  });

  it("Predict Sentences: posts {input, model} to the zone with the service-account key", async () => {
    const e = await connect({
      name: "predict:zone",
      provider: "predict",
      url: srv.url,
      api_key: "zone-key",
      dim: 12,
    });
    srv.seen.length = 0;
    const [v] = await e.embed(["hola"], "passage");
    expect(srv.seen[0]).toMatchObject({
      path: "/api/v1/predict/sentences",
      zoneKey: "Bearer zone-key",
      body: { input: ["hola"] },
    });
    const expected = Float32Array.from(fakeVector("zone:hola", 12));
    expect(v[0]).toBeCloseTo(expected[0] / norm(expected), 5);
  });
});
