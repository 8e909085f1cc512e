/**
 * Serialises writes to one LanceDB table and coalesces those that arrive together into one commit.
 * LanceDB commits are cheap but not free (a manifest per commit), and concurrent commits to one
 * table conflict; one writer per table with batching gives both throughput and ordering.
 */
export class WriteQueue<Op> {
  private pending: { op: Op; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly commit: (ops: Op[]) => Promise<void>,
    private readonly maxBatch = 1000,
  ) {}

  /** Resolves once the op is committed (on disk). */
  push(op: Op): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ op, resolve, reject });
      if (!this.running) this.running = this.drain();
    });
  }

  /** Resolves when everything queued so far is committed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // Yield once so that writes issued in the same tick join the batch.
    await new Promise((r) => setImmediate(r));
    while (this.pending.length) {
      const batch = this.pending.splice(0, this.maxBatch);
      try {
        await this.commit(batch.map((b) => b.op));
        for (const b of batch) b.resolve();
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    }
    this.running = null;
  }
}
