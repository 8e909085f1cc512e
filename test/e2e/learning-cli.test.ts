import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
beforeAll(async () => {
  // Offline: no automatic model download.
  d = await startTestDaemon({ env: OFFLINE });
  await d.client.call(kbs.createKb, { body: { slug: "notes" } });
});
afterAll(async () => {
  await d?.stop();
});

describe("kbox kb config", () => {
  it("shows the configuration as fields on a TTY, with the keyword-only notice on stderr", async () => {
    const r = await d.cli(["kb", "config", "--kb", "notes"], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^semantic search\s+keyword only$/m);
    expect(r.stdout).toMatch(/^semantic models\s+none$/m);
    expect(r.stdout).toMatch(/^generative model\s+extractive \(daemon default\)$/m);
    expect(r.stderr).toMatch(
      /notice: No embedding model is installed: this knowledge box is indexed and searched by keywords only/,
    );
    expect(r.stdout).not.toMatch(/notice/);
  });

  it("prints TSV when piped and the wire record with --json; the notice stays on stderr", async () => {
    const piped = await d.cli(["kb", "config", "--kb", "notes"]);
    expect(piped.code).toBe(0);
    expect(piped.stdout.split("\n")).toContain("semantic search\tkeyword only");
    expect(piped.stderr).toMatch(/keywords only/);
    const json = await d.cli(["kb", "config", "--kb", "notes", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      semantic_search: "keyword_only",
      generative_model: "extractive",
      semantic_models: [],
    });
    expect(json.stderr).toMatch(/keywords only/);
    const quiet = await d.cli(["kb", "config", "--kb", "notes", "--quiet"]);
    expect(quiet.stderr).toMatch(/keywords only/);
  });

  it("sets and unsets members", async () => {
    const a = await d.cli(["kb", "config", "set", "generative_model", "extractive", "--kb", "notes"]);
    expect(a.code).toBe(0);
    expect(a.stdout.split("\n")).toContain("generative model\textractive");
    expect(a.stderr).toMatch(/set generative_model/);
    const b = await d.cli(["kb", "config", "set", "prefer_markdown", "yes", "--kb", "notes", "--json"]);
    expect(JSON.parse(b.stdout)).toMatchObject({
      prefer_markdown_generative_response: true,
      generative_model_source: "knowledge_box",
    });
    const c = await d.cli(["kb", "config", "set", "user_prompts", '{"extractive": {"system": "Be brief."}}', "--kb", "notes"], {
      tty: true,
    });
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/^user prompts\s+\{"extractive":\{"system":"Be brief\."\}\}$/m);
    const u = await d.cli(["kb", "config", "unset", "generative_model", "--kb", "notes", "--json"]);
    expect(JSON.parse(u.stdout)).toMatchObject({
      generative_model: "extractive",
      generative_model_source: "daemon",
      prefer_markdown_generative_response: true,
    });
    const show = await d.cli(["kb", "show", "notes"]);
    expect(show.stdout.split("\n")).toContain("semantic search\tkeyword only");
  });

  it("refuses bad keys and values: usage errors exit 2, the daemon's 422 exits 1", async () => {
    const key = await d.cli(["kb", "config", "set", "colour", "blue", "--kb", "notes"]);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/unknown configuration key "colour"/);
    expect(key.stdout).toBe("");
    const bool = await d.cli(["kb", "config", "set", "prefer_markdown", "maybe", "--kb", "notes"]);
    expect(bool.code).toBe(2);
    const json = await d.cli(["kb", "config", "set", "user_prompts", "{not json", "--kb", "notes"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/user_prompts wants a JSON object/);
    const model = await d.cli(["kb", "config", "set", "generative_model", "no-such-model", "--kb", "notes"]);
    expect(model.code).toBe(1);
    expect(model.stderr).toMatch(/invalid request: .*unknown generative model/);
    expect(model.stdout).toBe("");
    const sem = await d.cli(["kb", "config", "unset", "semantic_models", "--kb", "notes"]);
    expect(sem.code).toBe(2);
  });

  it("has examples in --help", async () => {
    const r = await d.cli(["kb", "config", "set", "--help"]);
    expect(r.stdout).toMatch(/kbox kb config set generative_model openai:/);
    expect(r.stdout).toMatch(/prefer_markdown\s+true \| false/);
  });
});
