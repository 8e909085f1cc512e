/**
 * KbModelService: which models a knowledge box uses. A box's learning configuration names its
 * semantic models (one vectorset each); a box that names none gets the daemon's default the first
 * time it needs one, written to its configuration then, so that a later `kbox models use` cannot mix
 * vector spaces. The model service (daemon/models) knows models only; the `kbox models` verbs get
 * the boxes' use of them from here.
 */
import type { ModelList, ModelRecord, ModelsStatus, PullEvent, PullModel, RemoteModel } from "../../src/api/models.js";
import { conflict, notFound } from "../errors.js";
import { type Entry, matches } from "../models/entries.js";
import type { ModelService, ModelUser } from "../models/service.js";
import type { Embedder, Reranker } from "../models/types.js";
import type { KbDoc } from "../store/index.js";
import type { KbService } from "./service.js";

/** The semantic models a KB's learning configuration names (semantic_models, else the deprecated semantic_model). */
export function kbModelNames(kb: KbDoc): string[] {
  const lc = kb.learning_configuration;
  if (!lc) return [];
  if (Array.isArray(lc.semantic_models) && lc.semantic_models.length) return lc.semantic_models;
  return lc.semantic_model ? [lc.semantic_model] : [];
}

export class KbModelService {
  constructor(
    private readonly kbs: KbService,
    private readonly models: ModelService,
  ) {}

  private kbDoc(kb: KbDoc | string): KbDoc {
    return typeof kb === "string" ? this.kbs.require(kb) : kb;
  }

  /** Every knowledge box with the models it names (what `kbox models` reports as users). */
  private users(): ModelUser[] {
    return this.kbs.list().map((kb) => ({ name: kb.slug, models: kbModelNames(kb) }));
  }

  /**
   * The embedder of a knowledge box's vectorset (its default vectorset when none is named), or
   * undefined when no semantic model is available: the KB is then searched by keywords only.
   */
  async embedderFor(kbRef: KbDoc | string, vectorset?: string): Promise<Embedder | undefined> {
    const kb = this.kbDoc(kbRef);
    const names = kbModelNames(kb);
    let entry: Entry | undefined;
    if (names.length === 0) {
      entry = await this.models.defaultOrPulled();
      if (!entry) return undefined;
      await this.pin(kb, entry);
    } else {
      const lc = kb.learning_configuration ?? {};
      const want = vectorset
        ? names.find((n) => this.models.find(n)?.vectorset === vectorset || n === vectorset)
        : (lc.default_semantic_model ?? names[0]);
      if (!want) return undefined;
      entry = await this.models.embedderEntry(want);
    }
    if (!entry || (vectorset && entry.vectorset !== vectorset)) return undefined;
    return (await this.models.load(entry)) as Embedder;
  }

  /** Every vectorset of a knowledge box with its embedder (what ingestion fills). */
  async embeddersFor(kbRef: KbDoc | string): Promise<{ vectorset: string; embedder: Embedder }[]> {
    const out: { vectorset: string; embedder: Embedder }[] = [];
    const first = await this.embedderFor(kbRef);
    if (!first) return out;
    for (const vs of this.vectorsets(this.kbDoc(kbRef))) {
      const e = await this.embedderFor(kbRef, vs.id);
      if (e) out.push({ vectorset: vs.id, embedder: e });
    }
    return out;
  }

  /** The vectorsets a knowledge box has (installed or configured models only). */
  vectorsets(kbRef: KbDoc | string): { id: string; model: string; dim: number; default: boolean }[] {
    const kb = this.kbDoc(kbRef);
    const names = kbModelNames(kb);
    const entries = names.length
      ? names.map((n) => this.models.find(n)).filter((e): e is Entry => !!e)
      : [this.models.defaultEntry()].filter((e): e is Entry => !!e);
    const def = kb.learning_configuration?.default_semantic_model ?? names[0];
    return entries.map((e, i) => ({ id: e.vectorset, model: e.name, dim: e.dim, default: def ? matches(e, def) : i === 0 }));
  }

  /** Fix a KB's model the first time one is needed, so a later `models use` cannot mix vector spaces. */
  private async pin(kb: KbDoc, entry: Entry): Promise<void> {
    const lc = kb.learning_configuration ?? {};
    await this.kbs
      .setLearningConfiguration(kb.uuid, { ...lc, semantic_models: [entry.name], default_semantic_model: entry.name })
      .catch(() => undefined);
  }

  /** Installed models and configured endpoints. */
  entries(): Entry[] {
    return this.models.entries();
  }

  find(ref: string, kind: "embedder" | "reranker" = "embedder"): Entry | undefined {
    return this.models.find(ref, kind);
  }

  /** An embedder by model name, or the default one (Predict Sentences without a knowledge box). */
  embedder(ref?: string): Promise<Embedder | undefined> {
    return this.models.embedder(ref);
  }

  /**
   * A file of one of a knowledge box's models (its semantic models, or the daemon's reranker), for the
   * upstream model download: 404 for a model the box does not use or a file it does not have, 409 for a
   * model served by a remote endpoint (there are no files to send).
   */
  modelFile(kbid: string, modelId: string, filename: string): { path: string; size: number } {
    const kb = this.kbs.require(kbid, "Knowledge Box not found");
    const reranker = this.models.find(modelId, "reranker");
    const used = kbModelNames(kb).some((n) => {
      const e = this.models.find(n);
      return e ? matches(e, modelId) : n.toLowerCase() === modelId.toLowerCase();
    });
    if (!used && !reranker) throw notFound(`Model ${modelId} is not a model of this knowledge box (see GET /kb/${kbid}/models)`);
    const file = this.models.modelFile(modelId, filename);
    if (file === "remote")
      throw conflict(`Model ${modelId} is served by a remote endpoint: kbox holds no files of it to download`);
    if (!file) throw notFound(`Model ${modelId} has no file ${filename}`);
    return file;
  }

  reranker(): Promise<Reranker | undefined> {
    return this.models.reranker();
  }

  /** Register an in-process embedder under a name (tests and benchmarks; nothing is persisted). */
  registerEmbedder(name: string, embedder: Embedder): void {
    this.models.registerEmbedder(name, embedder);
  }

  /** Is this model being pulled now? Throws 422 for a reference that is not a model id. */
  pulling(ref: string): boolean {
    return this.models.pulling(ref);
  }

  /** 403 before a pull starts when the caller may not import its folder or the daemon may not reach its hub. */
  checkPull(req: PullModel, owner: boolean): void {
    this.models.checkPull(req, owner);
  }

  /** `kbox models pull`: download (or import) and install; `emit` receives progress. */
  pull(req: PullModel, emit: (e: PullEvent) => void, signal?: AbortSignal): Promise<ModelRecord> {
    return this.models.pull(req, emit, signal, this.users());
  }

  /** `kbox models use`. */
  use(name: string): ModelsStatus {
    return this.models.use(name, this.users());
  }

  /** `kbox models add`. */
  addRemote(body: RemoteModel): Promise<ModelRecord> {
    return this.models.addRemote(body, this.users());
  }

  /** `kbox models remove`; refused while a knowledge box uses the model, unless forced. */
  remove(name: string, force = false): Promise<string> {
    return this.models.remove(name, force, this.users());
  }

  /** What works now, with the models knowledge boxes name that are not installed. */
  status(): ModelsStatus {
    return this.models.status(this.users());
  }

  /** `kbox models list`. */
  list(): ModelList {
    return this.models.list(this.users());
  }

  close(): Promise<void> {
    return this.models.close();
  }
}
