/**
 * ModelService: the models the daemon has (installed ONNX models, configured endpoints), loaded once
 * and lazily, and the management verbs behind `kbox models` (pull, use, add, remove). It knows no
 * knowledge box: which model a box uses is daemon/kbs/models.ts's business.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ModelList, ModelRecord, ModelsStatus, PullEvent, PullModel, RemoteModel } from "../../src/api/models.js";
import { conflict, KboxError, notFound } from "../errors.js";
import { checkTarget, type FetchPolicy } from "../net/outbound.js";
import { type Entry, entryFor, matches, record } from "./entries.js";
import { hubEndpoint } from "./hub.js";
import { type Manifest, modelDir, readInstalled } from "./manifest.js";
import { OnnxEmbedder, OnnxReranker } from "./onnx.js";
import { canonicalId, pull } from "./pull.js";
import { DEFAULT_ENGLISH, KNOWN_MODELS } from "./registry.js";
import { RemoteEmbedder, type RemoteEntry } from "./remote.js";
import { SettingsFile } from "./settings.js";
import type { Embedder, Reranker } from "./types.js";

/** After a failed automatic pull, wait this long before trying the hub again. */
const AUTOPULL_RETRY_MS = 10 * 60_000;

/** The model service's settings (daemon/settings). */
export interface ModelServiceSettings {
  /** Pull the default model on first need when none is installed (KBOX_MODELS_AUTOPULL). */
  autopull: boolean;
  /** The hub pulls come from unless a pull names one (KBOX_HF_ENDPOINT). */
  hubEndpoint: string;
  /** Intra-op threads of each ONNX model (KBOX_MODEL_THREADS). */
  threads: number;
  /** What hubs and endpoints the daemon may reach (daemon/net/outbound.ts). */
  fetch: FetchPolicy;
}

/** A user of models (a knowledge box): its name and the model names it uses. */
export interface ModelUser {
  name: string;
  models: string[];
}

export class ModelService {
  private readonly file: SettingsFile;
  private readonly loaded = new Map<string, Promise<Embedder | Reranker>>();
  private readonly pulls = new Map<string, Promise<Manifest>>();
  /** Embedders registered in-process (tests, benchmarks); never persisted. */
  private readonly registered = new Map<string, Embedder>();
  private autopullFailed = 0;

  constructor(
    readonly cacheDir: string,
    private readonly settings: ModelServiceSettings,
    private readonly log: (msg: string) => void = () => undefined,
  ) {
    this.file = new SettingsFile(cacheDir);
  }

  /** Installed models and configured endpoints, as one list. */
  entries(): Entry[] {
    const out: Entry[] = readInstalled(this.cacheDir).map((m) => entryFor({ manifest: m }));
    for (const r of Object.values(this.file.get().remotes)) out.push(entryFor({ remote: r }));
    for (const [name, e] of this.registered)
      out.push({ name, provider: "openai", kind: "embedder", vectorset: name.replace(/^\w+:/, ""), dim: e.dim, id: e.id });
    return out;
  }

  find(ref: string, kind: "embedder" | "reranker" = "embedder"): Entry | undefined {
    return this.entries().find((e) => e.kind === kind && matches(e, ref));
  }

  /** The default embedder: `kbox models use`, else the first installed one. */
  defaultEntry(): Entry | undefined {
    const s = this.file.get();
    return (s.default ? this.find(s.default) : undefined) ?? this.entries().find((e) => e.kind === "embedder");
  }

  /** An embedder entry by name, pulled from the hub on first need when allowed; undefined when there is none. */
  async embedderEntry(ref: string): Promise<Entry | undefined> {
    return this.find(ref) ?? (await this.autopull(ref));
  }

  /** The default embedder entry, else the default English model pulled on first need (when allowed). */
  async defaultOrPulled(): Promise<Entry | undefined> {
    return this.defaultEntry() ?? (await this.autopull(DEFAULT_ENGLISH));
  }

  /** An embedder by model name, or the default one (Predict Sentences without a knowledge box). */
  async embedder(ref?: string): Promise<Embedder | undefined> {
    const entry = ref ? this.find(ref) : this.defaultEntry();
    return entry ? ((await this.load(entry)) as Embedder) : undefined;
  }

  /**
   * A file of an installed model, by the model's name and the file's path in it (or its base name
   * when that is unique): `remote` for a model served by an endpoint (it has no files), undefined when
   * the model or the file is unknown.
   */
  modelFile(ref: string, filename: string): { path: string; size: number } | "remote" | undefined {
    const entry = this.find(ref) ?? this.find(ref, "reranker");
    if (!entry) return undefined;
    if (!entry.manifest) return "remote";
    const files = entry.manifest.files;
    const exact = files.find((f) => f.path === filename);
    const byBase = files.filter((f) => f.path.split("/").pop() === filename);
    const file = exact ?? (byBase.length === 1 ? byBase[0] : undefined);
    if (!file) return undefined;
    return { path: join(modelDir(this.cacheDir, entry.manifest.id), ...file.path.split("/")), size: file.size };
  }

  /** The cross-encoder reranker (`kbox models use <reranker>`, else the first installed), if any. */
  async reranker(): Promise<Reranker | undefined> {
    const s = this.file.get();
    const entry =
      (s.reranker ? this.find(s.reranker, "reranker") : undefined) ?? this.entries().find((e) => e.kind === "reranker");
    return entry ? ((await this.load(entry)) as Reranker) : undefined;
  }

  /** Register an in-process embedder under a name (tests and benchmarks; nothing is persisted). */
  registerEmbedder(name: string, embedder: Embedder): void {
    this.registered.set(name, embedder);
  }

  /** The model of an entry, loaded once. */
  load(entry: Entry): Promise<Embedder | Reranker> {
    let p = this.loaded.get(entry.name);
    if (!p) {
      p = this.open(entry);
      this.loaded.set(entry.name, p);
      p.catch(() => this.loaded.delete(entry.name));
    }
    return p;
  }

  private async open(entry: Entry): Promise<Embedder | Reranker> {
    const reg = this.registered.get(entry.name);
    if (reg) return reg;
    if (entry.remote) {
      const e = await RemoteEmbedder.connect(entry.remote, undefined, this.settings.fetch);
      if (!entry.remote.dim) {
        this.file.update((s) => {
          const r = s.remotes[entry.name];
          if (r) r.dim = e.dim;
        });
      }
      return e;
    }
    const m = entry.manifest as Manifest;
    const dir = modelDir(this.cacheDir, m.id);
    this.log(`loading model ${m.id}`);
    const threads = this.settings.threads;
    return m.kind === "reranker" ? OnnxReranker.open(dir, m, threads) : OnnxEmbedder.open(dir, m, threads);
  }

  /** Pull a hub model on first use, when allowed and the hub answers; undefined otherwise. */
  private async autopull(ref: string): Promise<Entry | undefined> {
    if (this.file.get().autopull === false || !this.settings.autopull) return undefined;
    if (Date.now() - this.autopullFailed < AUTOPULL_RETRY_MS || /^(openai|predict):/.test(ref)) return undefined;
    try {
      const id = canonicalId(ref);
      this.log(`no model installed for ${ref}: pulling ${id} from ${hubEndpoint(undefined, this.settings.hubEndpoint)}`);
      // Concurrent first uses wait for the same download.
      await (this.pulls.get(id) ?? this.pullOnce({ id }, () => undefined, AbortSignal.timeout(30 * 60_000)));
      return this.find(id);
    } catch (e) {
      this.autopullFailed = Date.now();
      this.log(`automatic pull of ${ref} failed, keyword search only: ${(e as Error).message}`);
      return undefined;
    }
  }

  /**
   * A pull's sources, checked before it starts: a local folder (`from`) only for the socket's owner (a
   * TCP key never makes the daemon read a folder it names); a hub endpoint the outbound policy allows.
   */
  checkPull(req: PullModel, owner: boolean): void {
    if (req.from && !owner)
      throw new KboxError(403, "only the daemon's owner (over the Unix socket) may import a model from a local folder");
    if (req.endpoint) checkTarget(req.endpoint, this.settings.fetch);
  }

  /** Is this model being pulled now? Throws 422 for a reference that is not a model id. */
  pulling(ref: string): boolean {
    return this.pulls.has(canonicalId(ref));
  }

  private pullOnce(req: PullModel, emit: (e: PullEvent) => void, signal?: AbortSignal): Promise<Manifest> {
    const id = canonicalId(req.id);
    if (this.pulls.has(id)) throw conflict(`model ${id} is already being pulled`);
    const p = pull(
      { ...req, id, endpoint: hubEndpoint(req.endpoint, this.settings.hubEndpoint), policy: this.settings.fetch },
      this.cacheDir,
      emit,
      signal,
    );
    this.pulls.set(id, p);
    return p.finally(() => this.pulls.delete(id));
  }

  /** `kbox models pull`: download (or import) and install; `emit` receives progress. */
  async pull(
    req: PullModel,
    emit: (e: PullEvent) => void,
    signal: AbortSignal | undefined,
    users: ModelUser[],
  ): Promise<ModelRecord> {
    const m = await this.pullOnce(req, emit, signal);
    this.loaded.delete(`${m.id}`);
    const entry = this.find(m.id, m.kind) as Entry;
    if (req.use) this.use(entry.name, users);
    return this.recordOf(entry, users);
  }

  /** `kbox models use`: the default embedder, or the reranker when `name` is a cross-encoder. */
  use(name: string, users: ModelUser[]): ModelsStatus {
    const e = this.find(name) ?? this.find(name, "reranker");
    if (!e) throw notFound(`no installed or configured model named ${name}; see \`kbox models list\``);
    this.file.update((s) => {
      if (e.kind === "reranker") s.reranker = e.name;
      else s.default = e.name;
    });
    return this.status(users);
  }

  /** `kbox models add`: a remote embedder entry, probed first unless `check` is false. */
  async addRemote(body: RemoteModel, users: ModelUser[]): Promise<ModelRecord> {
    checkTarget(body.url, this.settings.fetch);
    const [provider, short] = body.name.split(":") as ["openai" | "predict", string];
    if (provider === "openai" && !body.model) throw new KboxError(422, "an OpenAI-compatible entry needs a model (--model)");
    const clash = this.entries().find((e) => e.vectorset === short && e.name !== body.name);
    if (clash) throw conflict(`the vectorset name ${short} is already used by ${clash.name}`);
    const entry: RemoteEntry = {
      name: body.name,
      provider,
      url: body.url,
      model: body.model,
      api_key: body.api_key,
      dim: body.dim,
      query_prefix: body.query_prefix,
      passage_prefix: body.passage_prefix,
    };
    if (body.check !== false) entry.dim = (await RemoteEmbedder.connect(entry, undefined, this.settings.fetch)).dim;
    this.file.update((s) => {
      s.remotes[body.name] = entry;
    });
    this.loaded.delete(body.name);
    return this.recordOf(this.find(body.name) as Entry, users);
  }

  /** `kbox models remove`; refused while a knowledge box uses the model, unless forced. */
  async remove(name: string, force: boolean, users: ModelUser[]): Promise<string> {
    const e = this.find(name) ?? this.find(name, "reranker");
    if (!e) throw notFound(`no installed or configured model named ${name}`);
    const using = this.usersOf(e, users);
    if (using.length && !force)
      throw conflict(`model ${e.name} is used by knowledge box ${using.join(", ")}; pass force to remove it anyway`);
    const loaded = this.loaded.get(e.name);
    this.loaded.delete(e.name);
    await loaded?.then((m) => (m as Embedder).close?.()).catch(() => undefined);
    if (e.manifest) await rm(modelDir(this.cacheDir, e.manifest.id), { recursive: true, force: true });
    this.file.update((s) => {
      delete s.remotes[e.name];
      if (s.default === e.name) delete s.default;
      if (s.reranker === e.name) delete s.reranker;
    });
    return e.name;
  }

  private usersOf(e: Entry, users: ModelUser[]): string[] {
    return users.filter((u) => u.models.some((n) => matches(e, n))).map((u) => u.name);
  }

  private recordOf(e: Entry, users: ModelUser[]): ModelRecord {
    const def = this.defaultEntry();
    const s = this.file.get();
    const isDefault = e.kind === "reranker" ? (s.reranker ? matches(e, s.reranker) : false) : def?.name === e.name;
    return record(e, isDefault, this.usersOf(e, users));
  }

  /** What works now, in a sentence for users; `kbox doctor` and `kbox models list` show it. */
  status(users: ModelUser[]): ModelsStatus {
    const def = this.defaultEntry();
    const s = this.file.get();
    const reranker =
      (s.reranker ? this.find(s.reranker, "reranker") : undefined) ?? this.entries().find((e) => e.kind === "reranker");
    const missing = users.flatMap((u) => u.models.filter((n) => !this.find(n)).map((model) => ({ kb: u.name, model })));
    const notice = def
      ? `semantic search uses ${def.name} (${def.dim || "?"} dims)${reranker ? `; reranking with ${reranker.name}` : ""}`
      : "no embedding model installed: knowledge boxes are indexed for keyword search only. Run `kbox models pull bge-small-en-v1.5` (or `multilingual-e5-small`), or `kbox models add openai:<name> --url <endpoint> --model <model>`";
    return {
      keyword_only: !def,
      default: def?.name ?? null,
      reranker: reranker?.name ?? null,
      notice,
      cache_dir: this.cacheDir,
      hub: hubEndpoint(undefined, this.settings.hubEndpoint),
      missing,
    };
  }

  /** `kbox models list`. */
  list(users: ModelUser[]): ModelList {
    const installed = new Set(readInstalled(this.cacheDir).map((m) => m.id));
    const known = KNOWN_MODELS.map((k) => ({
      id: k.id,
      kind: k.kind,
      dim: k.dim,
      size_mb: k.size_mb,
      description: k.description,
      installed: installed.has(k.id),
    }));
    return { ...this.status(users), models: this.entries().map((e) => this.recordOf(e, users)), known };
  }

  async close(): Promise<void> {
    const all = [...this.loaded.values()];
    this.loaded.clear();
    for (const p of all) await p.then((m) => (m as Embedder).close?.()).catch(() => undefined);
  }
}
