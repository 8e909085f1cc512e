type Entry<Op> = { seq: number } & (
  | { kind: "op"; op: Op; resolve: () => void; reject: (e: unknown) => void }
  | { kind: "task"; run: () => Promise<void>; fail: (e: unknown) => void }
);

/**
 * Serialises writes to one LanceDB table and coalesces those that arrive together into one commit.
 * LanceDB commits are cheap but not free (a manifest per commit), and concurrent commits to one
 * table conflict; one writer per table with batching gives both throughput and ordering.
 * Maintenance (compaction) runs as a task between commits, so it never races one of them.
 */
export class WriteQueue<Op> {
  private pending: Entry<Op>[] = [];
  private running: Promise<void> | null = null;
  private closed?: Error;
  /** Entries numbered as they arrive, and the number of the last one done (they finish in order). */
  private arrived = 0;
  private done = 0;
  private waiters: { upto: number; resolve: () => void }[] = [];

  constructor(
    private readonly commit: (ops: Op[]) => Promise<void>,
    private readonly maxBatch = 1000,
    /**
     * Group commit: when writes arrived while the last commit ran (several writers at once), wait this
     * long for more before the next one, so that a busy table makes fewer, larger commits. A lone
     * writer never waits: its write finds the queue empty.
     */
    private readonly gatherMs = 25,
  ) {}

  /** Resolves once the op is committed (on disk). */
  push(op: Op): Promise<void> {
    return new Promise((resolve, reject) => this.enqueue({ seq: 0, kind: "op", op, resolve, reject }));
  }

  /** Run `fn` between commits: no commit of this queue runs meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.enqueue({ seq: 0, kind: "task", run: () => fn().then(resolve, reject), fail: reject }),
    );
  }

  /**
   * Resolves when everything queued so far is committed. Writes queued later are not waited for: a
   * reader behind a busy writer waits for at most the commits already due, not for the queue to drain.
   */
  idle(): Promise<void> {
    if (this.done >= this.arrived) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ upto: this.arrived, resolve }));
  }

  /**
   * Refuse every later write (the table's knowledge box is gone); queued ones fail too, and so do
   * queued tasks (a compaction, a sweep: they write the table as much as a commit does).
   */
  close(reason = "the store is closed"): void {
    this.closed = new Error(reason);
  }

  /** Resolves once no commit or task of this queue is running: after `close`, nothing more will. */
  async stopped(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  private enqueue(e: Entry<Op>): void {
    if (this.closed) {
      if (e.kind === "op") e.reject(this.closed);
      else e.fail(this.closed);
      return;
    }
    e.seq = ++this.arrived;
    this.pending.push(e);
    if (!this.running) this.running = this.drain();
  }

  private finished(seq: number): void {
    this.done = seq;
    if (!this.waiters.length) return;
    const due = this.waiters.filter((w) => w.upto <= seq);
    this.waiters = this.waiters.filter((w) => w.upto > seq);
    for (const w of due) w.resolve();
  }

  private async drain(): Promise<void> {
    // Yield once so that writes issued in the same tick join the batch.
    await new Promise((r) => setImmediate(r));
    let busy = false;
    while (this.pending.length) {
      const head = this.pending[0];
      if (head.kind === "task") {
        this.pending.shift();
        if (this.closed) head.fail(this.closed);
        else await head.run().catch(() => undefined);
        this.finished(head.seq);
        continue;
      }
      if (busy && this.gatherMs > 0 && this.pending.length < this.maxBatch)
        await new Promise((r) => setTimeout(r, this.gatherMs));
      let n = 0;
      while (n < this.pending.length && n < this.maxBatch && this.pending[n].kind === "op") n++;
      const batch = this.pending.splice(0, n) as Extract<Entry<Op>, { kind: "op" }>[];
      const last = batch[batch.length - 1].seq;
      if (this.closed) {
        for (const b of batch) b.reject(this.closed);
        this.finished(last);
        continue;
      }
      try {
        await this.commit(batch.map((b) => b.op));
        for (const b of batch) b.resolve();
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
      this.finished(last);
      busy = this.pending.length > 0; // these came in during the commit: others are writing too
    }
    this.running = null;
  }
}
