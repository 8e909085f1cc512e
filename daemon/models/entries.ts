/**
 * A model entry: an installed ONNX model or a configured remote endpoint, seen the same way
 * (name, kind, vectorset, dimension), and how names written by users resolve to one.
 */
import type { ModelRecord } from "../../src/api/models.js";
import type { Manifest } from "./manifest.js";
import { type ModelKind, shortName } from "./registry.js";
import type { RemoteEntry } from "./remote.js";

export interface Entry {
  /** Hub id for ONNX models, `openai:<n>` / `predict:<n>` for endpoints. */
  name: string;
  provider: "onnx" | "openai" | "predict";
  kind: ModelKind;
  vectorset: string;
  dim: number;
  /** The embedder/reranker identity. */
  id: string;
  manifest?: Manifest;
  remote?: RemoteEntry;
}

export function entryFor(src: { manifest: Manifest } | { remote: RemoteEntry }): Entry {
  if ("manifest" in src) {
    const m = src.manifest;
    return {
      name: m.id,
      provider: "onnx",
      kind: m.kind,
      vectorset: shortName(m.id),
      dim: m.dim,
      id: `onnx:${m.id}`,
      manifest: m,
    };
  }
  const r = src.remote;
  const short = r.name.slice(r.name.indexOf(":") + 1);
  return {
    name: r.name,
    provider: r.provider,
    kind: "embedder",
    vectorset: short,
    dim: r.dim ?? 0,
    id: `${r.provider}:${r.model ?? short}@${r.url}`,
    remote: r,
  };
}

/** Does a user-written reference name this entry: full name, short name, vectorset or `onnx:` id (any case)? */
export function matches(e: Entry, ref: string): boolean {
  const r = ref.trim().toLowerCase();
  return (
    [e.name, e.vectorset, e.id, `onnx:${e.name}`].some((n) => n.toLowerCase() === r) ||
    (e.provider === "onnx" && shortName(e.name).toLowerCase() === r)
  );
}

/** The wire record of an entry (API keys never leave the daemon). */
export function record(e: Entry, isDefault: boolean, kbs: string[]): ModelRecord {
  const m = e.manifest;
  const r = e.remote;
  return {
    name: e.name,
    id: e.id,
    provider: e.provider,
    kind: e.kind,
    vectorset: e.vectorset,
    dim: e.dim,
    default: isDefault,
    size_bytes: m ? m.files.reduce((a, f) => a + f.size, 0) : undefined,
    pooling: m?.kind === "embedder" ? m.pooling : undefined,
    query_prefix: m?.query_prefix ?? r?.query_prefix,
    passage_prefix: m?.passage_prefix ?? r?.passage_prefix,
    url: r?.url,
    model: r?.model,
    revision: m?.revision,
    installed_at: m?.installed_at,
    kbs,
  };
}
