import { ExtractiveGenerator } from "./extractive.js";
import { GgufGenerator } from "./gguf.js";
import { OpenAiGenerator } from "./openai.js";
import { PredictGenerator } from "./predict.js";
import type { Generator } from "./types.js";

/** A generative model name that cannot be resolved (unknown form, endpoint not configured). */
export class ModelNameError extends Error {}

/** The daemon's generation settings (daemon/settings): its default model and provider endpoints. */
export interface GeneratorSettings {
  /** The model when neither the request nor the KB names one (KBOX_GENERATIVE_MODEL). */
  defaultModel: string;
  /** KBOX_OPENAI_BASE_URL, KBOX_OPENAI_API_KEY. */
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  /** KBOX_ZONE_URL, KBOX_NUA_KEY. */
  zoneUrl?: string;
  nuaKey?: string;
}

/** Where provider settings come from: the KB's learning configuration `user_keys`, then the daemon's settings. */
export interface ResolveOptions {
  userKeys?: Record<string, unknown> | null;
  settings: GeneratorSettings;
}

type Keys = {
  url?: string;
  base_url?: string;
  endpoint?: string;
  key?: string;
  api_key?: string;
  headers?: Record<string, string>;
};

/** `model@http://host/...` → model and URL. */
function splitUrl(spec: string): { model: string; url?: string } {
  const at = spec.search(/@https?:\/\//);
  return at < 0 ? { model: spec } : { model: spec.slice(0, at), url: spec.slice(at + 1) };
}

function keysOf(opts: ResolveOptions, provider: string): Keys {
  const k = opts.userKeys?.[provider];
  return k && typeof k === "object" ? (k as Keys) : {};
}

/**
 * Resolve a generative model name: `extractive`, `openai:<model>[@<base url>]`,
 * `gguf:<path>` (or a path ending in .gguf), `predict:<model>[@<zone url>]`.
 */
export function resolveGenerator(name: string | null | undefined, opts: ResolveOptions): Generator {
  const conf = opts.settings;
  const spec = (name ?? "").trim() || conf.defaultModel;
  if (spec === "extractive" || spec === "kbox-extractive") return new ExtractiveGenerator();
  if (spec.startsWith("gguf:") || spec.startsWith("llama:")) return new GgufGenerator(spec.slice(spec.indexOf(":") + 1));
  if (spec.endsWith(".gguf")) return new GgufGenerator(spec);
  if (spec.startsWith("openai:")) {
    const { model, url } = splitUrl(spec.slice(7));
    const k = keysOf(opts, "openai");
    const base = url ?? k.url ?? k.base_url ?? k.endpoint ?? conf.openaiBaseUrl;
    if (!base)
      throw new ModelNameError(`no endpoint for ${spec}: use openai:<model>@<url>, user_keys.openai.url or KBOX_OPENAI_BASE_URL`);
    return new OpenAiGenerator({ url: base, model, apiKey: k.key ?? k.api_key ?? conf.openaiApiKey, headers: k.headers });
  }
  if (spec.startsWith("predict:")) {
    const { model, url } = splitUrl(spec.slice(8));
    const k = keysOf(opts, "predict");
    const base = url ?? k.url ?? conf.zoneUrl;
    if (!base)
      throw new ModelNameError(`no zone for ${spec}: use predict:<model>@<zone url>, user_keys.predict.url or KBOX_ZONE_URL`);
    return new PredictGenerator({ url: base, model, apiKey: k.key ?? conf.nuaKey, headers: k.headers });
  }
  // Hosted model names (e.g. chatgpt-azure-4o) go to the configured OpenAI-compatible endpoint, if any.
  if (conf.openaiBaseUrl) return resolveGenerator(`openai:${spec}`, opts);
  throw new ModelNameError(
    `unknown generative model ${JSON.stringify(spec)}: use extractive, openai:<model>, gguf:<path> or predict:<model>`,
  );
}

/** The models the local understanding API lists. */
export function listedModels(settings: GeneratorSettings): { id: string; title: string; description: string }[] {
  const out = [
    {
      id: "extractive",
      title: "Extractive answerer",
      description: "Offline: composes answers from the best-supported retrieved sentences",
    },
  ];
  const def = settings.defaultModel;
  if (def !== "extractive")
    out.push({ id: def, title: def, description: "Default generative model of this daemon (KBOX_GENERATIVE_MODEL)" });
  return out;
}
