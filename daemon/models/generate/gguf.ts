import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { approxTokens, type GenChunk, type GenerateRequest, GenerationError, type Generator } from "./types.js";

type LlamaModule = typeof import("node-llama-cpp");
type Llama = Awaited<ReturnType<LlamaModule["getLlama"]>>;
type LlamaModel = Awaited<ReturnType<Llama["loadModel"]>>;

let llamaP: Promise<{ mod: LlamaModule; llama: Llama }> | undefined;
const models = new Map<string, Promise<LlamaModel>>();

/** node-llama-cpp, loaded on first use only (it is large); threads capped at the machine's cores. */
function runtime(): Promise<{ mod: LlamaModule; llama: Llama }> {
  llamaP ??= (async () => {
    const mod = await import("node-llama-cpp");
    // It defaults to more threads than a small machine has, which slows everything sharing it.
    const llama = await mod.getLlama({
      gpu: false,
      build: "never",
      logLevel: mod.LlamaLogLevel.error,
      maxThreads: availableParallelism(),
    });
    return { mod, llama };
  })();
  llamaP.catch(() => {
    llamaP = undefined;
  });
  return llamaP;
}

/** Load (once) the GGUF file at `path`; a missing or invalid file is a GenerationError. */
export async function loadGguf(path: string): Promise<LlamaModel> {
  let m = models.get(path);
  if (!m) {
    m = (async () => {
      const st = await stat(path).catch(() => undefined);
      if (!st?.isFile()) throw new GenerationError(`GGUF model not found: ${path}`);
      const { llama } = await runtime();
      try {
        return await llama.loadModel({ modelPath: path, gpuLayers: 0 });
      } catch (e) {
        throw new GenerationError(`cannot load GGUF model ${path}: ${(e as Error).message}`);
      }
    })();
    models.set(path, m);
    m.catch(() => models.delete(path));
  }
  return m;
}

/** A local GGUF model run in-process with node-llama-cpp. */
export class GgufGenerator implements Generator {
  readonly kind = "gguf" as const;
  readonly id: string;

  constructor(private readonly path: string) {
    this.id = `gguf:${path}`;
  }

  async *generate(req: GenerateRequest): AsyncIterable<GenChunk> {
    const { mod, llama } = await runtime();
    const model = await loadGguf(this.path);
    const context = await model.createContext({ contextSize: { max: 4096 }, threads: availableParallelism() });
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    let failure: unknown;
    try {
      const session = new mod.LlamaChatSession({ contextSequence: context.getSequence() });
      const system = req.messages.find((m) => m.role === "system")?.content;
      const turns = req.messages.filter((m) => m.role !== "system");
      const last = turns.pop()?.content ?? req.question;
      session.setChatHistory([
        ...(system ? [{ type: "system" as const, text: system }] : []),
        ...turns.map((t) =>
          t.role === "user" ? { type: "user" as const, text: t.content } : { type: "model" as const, response: [t.content] },
        ),
      ]);
      const grammar = req.jsonSchema ? await llama.createGrammarForJsonSchema(req.jsonSchema.parameters as never) : undefined;
      const run = session
        .prompt(last, {
          maxTokens: req.maxTokens ?? 512,
          seed: req.seed,
          grammar,
          signal: req.signal,
          stopOnAbortSignal: true,
          onTextChunk: (t) => {
            queue.push(t);
            wake?.();
          },
        })
        .catch((e) => {
          failure = e;
        })
        .finally(() => {
          done = true;
          wake?.();
        });
      let text = "";
      while (!done || queue.length) {
        if (!queue.length) await new Promise<void>((r) => (wake = r));
        wake = undefined;
        for (const t of queue.splice(0)) {
          text += t;
          if (!req.jsonSchema) yield { type: "text", text: t };
        }
      }
      await run;
      if (failure && !req.signal?.aborted) throw new GenerationError(`GGUF generation failed: ${(failure as Error).message}`);
      if (req.jsonSchema) yield { type: "json", object: JSON.parse(text || "{}") };
      const input = req.messages.reduce((a, m) => a + approxTokens(m.content), 0);
      yield { type: "usage", input, output: model.tokenize(text).length };
    } finally {
      await context.dispose();
    }
  }
}
