import { invalid } from "../errors.js";
import { type GeneratorSettings, ModelNameError, resolveGenerator } from "../models/generate/registry.js";
import type { Generator } from "../models/generate/types.js";
import type { KbDoc } from "../store/index.js";

/**
 * The generator a request to a knowledge box uses: `name` (or the box's configured model), with the
 * box's keys. `untrusted` (a TCP caller) may not point the daemon at a model endpoint or file of its
 * choosing; a name that cannot be used is a 422 at `body.<loc>`.
 */
export function boxGenerator(
  kb: KbDoc,
  name: string | null | undefined,
  settings: GeneratorSettings,
  o: { untrusted: boolean; loc: string; input: unknown },
): Generator {
  const lc = kb.learning_configuration;
  try {
    return resolveGenerator(name ?? lc?.generative_model, {
      userKeys: lc?.user_keys as Record<string, unknown>,
      settings,
      configured: lc?.generative_model,
      untrusted: o.untrusted,
    });
  } catch (e) {
    if (!(e instanceof ModelNameError)) throw e;
    throw invalid([{ type: "value_error", loc: ["body", o.loc], msg: e.message, input: o.input }]);
  }
}
