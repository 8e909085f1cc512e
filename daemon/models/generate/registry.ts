import type { FetchPolicy } from "../../net/outbound.js";
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
  /** What model endpoints the daemon may reach (daemon/net/outbound.ts). */
  fetch: FetchPolicy;
}

/** Where provider settings come from: the KB's learning configuration `user_keys`, then the daemon's settings. */
export interface ResolveOptions {
  userKeys?: Record<string, unknown> | null;
  settings: GeneratorSettings;
  /** The knowledge box's configured model (its `@<url>` is the endpoint its `user_keys` key is for). */
  configured?: string | null;
  /**
   * The name came with a request from a TCP caller, not from configuration: it may name a provider and
   * a model, never an endpoint (`@<url>`) or a file (`gguf:<path>`), unless it is the knowledge box's or
   * the daemon's configured model.
   */
  untrusted?: boolean;
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
  const isConfigured = spec === (opts.configured ?? "").trim() || spec === conf.defaultModel;
  if (opts.untrusted && !isConfigured) checkRequested(spec);
  const policy = conf.fetch;
  if (spec === "extractive" || spec === "kbox-extractive") return new ExtractiveGenerator();
  if (spec.startsWith("gguf:") || spec.startsWith("llama:")) return new GgufGenerator(spec.slice(spec.indexOf(":") + 1));
  if (spec.endsWith(".gguf")) return new GgufGenerator(spec);
  if (spec.startsWith("openai:")) {
    const { model, url } = splitUrl(spec.slice(7));
    const k = keysOf(opts, "openai");
    const kUrl = k.url ?? k.base_url ?? k.endpoint ?? (isConfigured ? url : undefined);
    const base = url ?? kUrl ?? conf.openaiBaseUrl;
    if (!base)
      throw new ModelNameError(`no endpoint for ${spec}: use openai:<model>@<url>, user_keys.openai.url or KBOX_OPENAI_BASE_URL`);
    const cred = credentials(base, kUrl, { key: k.key ?? k.api_key, headers: k.headers }, conf.openaiBaseUrl, conf.openaiApiKey);
    return new OpenAiGenerator({ url: base, model, ...cred, policy });
  }
  if (spec.startsWith("predict:")) {
    const { model, url } = splitUrl(spec.slice(8));
    const k = keysOf(opts, "predict");
    const base = url ?? k.url ?? conf.zoneUrl;
    if (!base)
      throw new ModelNameError(`no zone for ${spec}: use predict:<model>@<zone url>, user_keys.predict.url or KBOX_ZONE_URL`);
    const kUrl = k.url ?? (isConfigured ? url : undefined);
    const cred = credentials(base, kUrl, { key: k.key, headers: k.headers }, conf.zoneUrl, conf.nuaKey);
    return new PredictGenerator({ url: base, model, ...cred, policy });
  }
  // Hosted model names (e.g. chatgpt-azure-4o) go to the configured OpenAI-compatible endpoint, if any.
  if (conf.openaiBaseUrl) return resolveGenerator(`openai:${spec}`, opts);
  throw new ModelNameError(
    `unknown generative model ${JSON.stringify(spec)}: use extractive, openai:<model>, gguf:<path> or predict:<model>`,
  );
}

/** A requested (not configured) model name may not choose an endpoint or a file. */
function checkRequested(spec: string): void {
  if (/@[a-z][a-z0-9+.-]*:/i.test(spec))
    throw new ModelNameError(
      `a request may not name a model endpoint (${spec.slice(spec.indexOf("@") + 1, spec.indexOf("@") + 60)}): a manager sets it in the knowledge box's learning configuration (user_keys), the daemon's owner in KBOX_OPENAI_BASE_URL or KBOX_ZONE_URL`,
    );
  if (/^(gguf|llama):/.test(spec) || spec.endsWith(".gguf"))
    throw new ModelNameError(
      "a request may not name a model file: a manager sets gguf:<path> in the knowledge box's learning configuration",
    );
}

const sameEndpoint = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * The key and headers sent to `base`: a key goes only to the endpoint it was configured with: the knowledge
 * box's (`user_keys.<provider>.key` with its `url`, or with none: the daemon's endpoint) or the daemon's
 * (its KBOX_*_KEY with its URL). Any other URL gets no credential.
 */
function credentials(
  base: string,
  kbUrl: string | undefined,
  kb: { key?: string; headers?: Record<string, string> },
  daemonUrl: string | undefined,
  daemonKey: string | undefined,
): { apiKey?: string; headers?: Record<string, string> } {
  if (sameEndpoint(base, kbUrl ?? daemonUrl))
    return { apiKey: kb.key ?? (sameEndpoint(base, daemonUrl) ? daemonKey : undefined), headers: kb.headers };
  if (sameEndpoint(base, daemonUrl)) return { apiKey: daemonKey };
  return {};
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
