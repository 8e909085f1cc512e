import type { ModelRecord, PullEvent, PullModel } from "../../src/api/models.js";
import { conflict, KboxError } from "../errors.js";

/** Items pushed by `run` as an async iterable; `run`'s failure is thrown after the items it pushed. */
function channel<T>(run: (emit: (item: T) => void) => Promise<void>): AsyncIterable<T> {
  return {
    async *[Symbol.asyncIterator]() {
      const queue: T[] = [];
      let wake: (() => void) | undefined;
      let end: { error?: unknown } | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      run((item) => {
        queue.push(item);
        notify();
      }).then(
        () => {
          end = {};
          notify();
        },
        (error) => {
          end = { error: error ?? new Error("failed") };
          notify();
        },
      );
      for (;;) {
        if (queue.length) yield queue.shift() as T;
        else if (end?.error) throw end.error;
        else if (end) return;
        else await new Promise<void>((r) => (wake = r));
      }
    },
  };
}

/**
 * `kbox models pull` as a stream: progress events, then `done` with the model. A concurrent pull of the
 * same model is refused with 409 before anything streams; a failure ends the stream (the route's error item).
 */
/** What a pull stream needs of a model service (the KB-aware one adds the boxes that use each model). */
export interface Puller {
  pulling(ref: string): boolean;
  checkPull(req: PullModel, owner: boolean): void;
  pull(req: PullModel, emit: (e: PullEvent) => void, signal?: AbortSignal): Promise<ModelRecord>;
}

export function pullEvents(models: Puller, req: PullModel, signal: AbortSignal, owner: boolean): AsyncIterable<PullEvent> {
  models.checkPull(req, owner);
  if (models.pulling(req.id)) throw conflict(`model ${req.id} is already being pulled`);
  return channel<PullEvent>(async (emit) => {
    try {
      emit({ type: "done", model: await models.pull(req, emit, signal) });
    } catch (e) {
      throw e instanceof KboxError ? e : new Error(`pull failed: ${(e as Error).message}`);
    }
  });
}
