/**
 * `fn` over `items`, `width` at a time, as an async iterable of the results in the order they finish
 * (an NDJSON stream of outcomes). Stops taking items once `signal` aborts or the reader stops.
 */
export class Outcomes<T, R> implements AsyncIterable<R> {
  constructor(
    private readonly items: readonly T[],
    private readonly width: number,
    private readonly fn: (item: T) => Promise<R>,
    private readonly signal?: AbortSignal,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<R> {
    const ready: R[] = [];
    let wake: (() => void) | undefined;
    let running = 0;
    let next = 0;
    let stopped = false;
    let failure: { error: unknown } | undefined;
    const start = () => {
      while (!stopped && !this.signal?.aborted && running < this.width && next < this.items.length) {
        const item = this.items[next++];
        running++;
        void this.fn(item).then(
          (r) => {
            running--;
            ready.push(r);
            start();
            wake?.();
          },
          (error) => {
            running--;
            failure ??= { error };
            stopped = true;
            wake?.();
          },
        );
      }
    };
    try {
      start();
      for (;;) {
        if (ready.length) {
          yield* ready.splice(0);
          continue;
        }
        if (!running) break;
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
      }
      if (failure) throw failure.error;
      if (this.signal?.aborted) throw new Error("cancelled");
    } finally {
      stopped = true;
    }
  }
}
