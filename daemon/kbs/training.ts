import type { AvailableModel, AvailableModels } from "../../src/api/learning.js";
import type { KbDoc } from "../store/index.js";

/** One partition per knowledge box: kbox keeps one index for each, where upstream has shards. */
export function trainsetPartitions(kb: KbDoc): { partitions: string[] } {
  return { partitions: [kb.uuid] };
}

/** The generative models of the available ones, by provider (providers without one are left out). */
export function generativeProviders(available: AvailableModels): Record<string, AvailableModel[]> {
  const out: Record<string, AvailableModel[]> = {};
  for (const [provider, models] of Object.entries(available.providers)) {
    const gen = models.filter((m) => m.type === "generative");
    if (gen.length) out[provider] = gen;
  }
  return out;
}
