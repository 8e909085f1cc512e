/**
 * Run `fn` over `items` with at most `limit` in flight. Sync items run concurrently because each
 * write to a store table commits once per batch: one at a time, every item would pay a full commit.
 */
export async function eachLimit<T>(
  items: Iterable<T>,
  limit: number,
  fn: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const it = items[Symbol.iterator]();
  const worker = async () => {
    for (let n = it.next(); !n.done; n = it.next()) {
      if (signal?.aborted) throw new Error("cancelled");
      await fn(n.value);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}
