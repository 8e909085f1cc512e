import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "../../daemon/settings/index.js";

const HOME = "/tmp/kbox-settings-home";
const load = (env: NodeJS.ProcessEnv, opts: { listen?: string; trustRolesHeader?: boolean } = {}) =>
  loadSettings({ env: { KBOX_HOME: HOME, ...env }, ...opts });
const refusal = (env: NodeJS.ProcessEnv, opts: { listen?: string; trustRolesHeader?: boolean } = {}) => {
  try {
    load(env, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return (e as Error).message;
  }
  throw new Error("expected the settings to be refused");
};

describe("daemon settings", () => {
  it("has a default for every setting", () => {
    const s = load({});
    expect(s.paths).toMatchObject({ home: HOME, data: `${HOME}/data`, socket: `${HOME}/run/kboxd.sock`, logs: `${HOME}/logs` });
    expect(s.store).toEqual({ indexCacheMb: 512, metadataCacheMb: 64 });
    expect(s.ftsPartitionMb).toBe(256);
    expect(s.search).toEqual({ annMinRows: 25_000 });
    expect(s.ingest).toMatchObject({
      concurrency: 512,
      retry: { deadlineMs: 24 * 3600_000, firstDelayMs: 2000, maxDelayMs: 600_000 },
      ocr: true,
      entities: true,
    });
    expect(s.fetch).toEqual({ allowPrivate: true, allow: [], origins: ["https://huggingface.co"] });
    expect(s.ingest.fetch).toBe(s.fetch);
    expect(s.sync).toMatchObject({ roots: [] });
    // No OAuth application configured: the cloud providers are not offered; their real endpoints are the defaults.
    expect(s.sync.cloud.drive).toMatchObject({ app: undefined, apiUrl: "https://www.googleapis.com/drive/v3" });
    expect(s.ingest.extractWorkers).toBeGreaterThanOrEqual(1);
    expect(s.models).toEqual({ autopull: true, hubEndpoint: "https://huggingface.co", threads: 2, fetch: s.fetch });
    expect(s.generation).toEqual({ defaultModel: "extractive", fetch: s.fetch });
    expect(s.ask).toEqual({ contextTokens: 12_000, extractiveMinEvidence: 0.65, generativeMinEvidence: 0.15 });
    expect(s.listen).toBeUndefined();
  });

  it("reads each variable into its typed value; an empty one counts as unset", () => {
    const s = load({
      KBOX_INGEST_CONCURRENCY: "4",
      KBOX_EXTRACT_WORKERS: "2",
      KBOX_INGEST_RETRY_DEADLINE: "90m",
      KBOX_INGEST_RETRY_DELAY: "500ms",
      KBOX_INGEST_RETRY_MAX_DELAY: "30",
      KBOX_MODELS_AUTOPULL: "off",
      KBOX_HF_ENDPOINT: "http://127.0.0.1:9/",
      KBOX_MODEL_THREADS: "",
      KBOX_GENERATIVE_MODEL: "openai:llama3.2",
      KBOX_OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      KBOX_CONTEXT_TOKENS: "3000",
      KBOX_ANN_MIN_ROWS: "0",
      LANCE_FTS_PARTITION_SIZE: "128",
    });
    expect(s.ingest).toMatchObject({
      concurrency: 4,
      extractWorkers: 2,
      retry: { deadlineMs: 90 * 60_000, firstDelayMs: 500, maxDelayMs: 30_000 },
    });
    expect(s.models).toMatchObject({ autopull: false, hubEndpoint: "http://127.0.0.1:9/", threads: 2 });
    // The owner's own endpoints are allowed whatever their address.
    expect(s.fetch.origins).toEqual(["http://127.0.0.1:11434", "http://127.0.0.1:9"]);
    expect(s.generation).toMatchObject({ defaultModel: "openai:llama3.2", openaiBaseUrl: "http://127.0.0.1:11434/v1" });
    expect(s.ask.contextTokens).toBe(3000);
    expect(s.search.annMinRows).toBe(0);
    expect(s.ftsPartitionMb).toBe(128);
  });

  it("blocks private fetch targets by default once kboxd listens on TCP; the variables override either way", () => {
    expect(load({}, { listen: "0" }).fetch.allowPrivate).toBe(false);
    expect(load({ KBOX_FETCH_ALLOW_PRIVATE: "1" }, { listen: "0" }).fetch.allowPrivate).toBe(true);
    expect(load({ KBOX_LINKS_ALLOW_PRIVATE: "1" }, { listen: "0" }).fetch.allowPrivate).toBe(true);
    expect(load({ KBOX_LINKS_ALLOW_PRIVATE: "0" }).fetch.allowPrivate).toBe(false);
    expect(load({ KBOX_FETCH_ALLOW: "10.0.0.0/8, ollama.lan" }).fetch.allow).toEqual(["10.0.0.0/8", "ollama.lan"]);
    expect(load({ KBOX_SYNC_ROOTS: "/srv/docs:/home/me/notes" }).sync.roots).toEqual(["/srv/docs", "/home/me/notes"]);
    expect(refusal({ KBOX_SYNC_ROOTS: "docs" })).toBe('KBOX_SYNC_ROOTS must list absolute folders, not "docs"');
    expect(load({}, { listen: "[::1]:8080" }).listen).toEqual({ host: "::1", port: 8080 });
  });

  it("refuses bad values, naming each variable", () => {
    expect(refusal({ KBOX_INGEST_CONCURRENCY: "lots" })).toBe(
      'KBOX_INGEST_CONCURRENCY must be a whole number from 1 to 10000, not "lots"',
    );
    expect(refusal({ KBOX_EXTRACT_WORKERS: "0" })).toBe('KBOX_EXTRACT_WORKERS must be a whole number from 1 to 64, not "0"');
    expect(refusal({ KBOX_INGEST_RETRY_DEADLINE: "soon" })).toBe(
      'KBOX_INGEST_RETRY_DEADLINE must be a duration such as 60s, 10m or 24h, not "soon"',
    );
    expect(refusal({ KBOX_LINKS_ALLOW_PRIVATE: "maybe" })).toBe('KBOX_LINKS_ALLOW_PRIVATE must be 1 or 0, not "maybe"');
    expect(refusal({ KBOX_HF_ENDPOINT: "ftp://mirror" })).toBe('KBOX_HF_ENDPOINT must be an http(s) URL, not "ftp://mirror"');
    expect(refusal({ KBOX_INDEX_CACHE_MB: "1.5" })).toBe('KBOX_INDEX_CACHE_MB must be a whole number of at least 1, not "1.5"');
    // every bad variable at once, so one restart fixes them all
    expect(refusal({ KBOX_MODEL_THREADS: "-1", KBOX_CONTEXT_TOKENS: "many" })).toBe(
      'KBOX_MODEL_THREADS must be a whole number from 1 to 256, not "-1"; KBOX_CONTEXT_TOKENS must be a whole number of at least 1, not "many"',
    );
  });

  it("refuses a bad --listen, and --trust-roles-header off loopback", () => {
    expect(refusal({}, { listen: "host:port" })).toBe('--listen wants host:port or port, got "host:port"');
    expect(refusal({}, { listen: "70000" })).toBe("port out of range: 70000");
    expect(refusal({}, { listen: "0.0.0.0:0", trustRolesHeader: true })).toBe(
      "--trust-roles-header is allowed only on a loopback listener",
    );
  });
});
