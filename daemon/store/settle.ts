/**
 * How long a table keeps versions it no longer uses. Readers are pinned to the latest version (a
 * query older than this is long gone), and snapshots for backups tag the versions they copy, which
 * cleanup keeps: older versions are only disk (a small ingestion run leaves hundreds of them).
 */
export const VERSION_RETENTION_MS = 2 * 60_000;
/** Writes quiet for this long: the table is compacted and its old versions are dropped. */
const SETTLE_MS = 3000;

/**
 * Runs a table's maintenance once writes settle: when they stop for SETTLE_MS, and once more when
 * the versions of the last writes are past the retention, so that a table that stopped changing
 * ends up with one version of compact fragments rather than the trail of every commit. Under writes
 * that never stop, it runs once a retention period, so the versions kept stay about that many.
 * While `busy` says more writes are on their way (a pause between two batches of an ingestion, such
 * as PDFs that take seconds to extract), a quiet spell is not the end: the run waits for it, or for
 * the retention rule.
 */
export class Settler {
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = 0;
  /** The first write since the last run: under writes that never stop, a run comes once this is a retention old. */
  private pendingSince: number | undefined;
  private closed = false;
  /** More writes are coming (see the class): set by the table's owner; none by default. */
  busy: () => boolean = () => false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly settleMs = SETTLE_MS,
    private readonly retentionMs = VERSION_RETENTION_MS,
  ) {}

  /** A commit was made. */
  wrote(): void {
    this.lastWrite = Date.now();
    this.pendingSince ??= this.lastWrite;
    this.arm(this.lastWrite - this.pendingSince >= this.retentionMs ? 0 : this.settleMs);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), ms);
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    const started = Date.now();
    if (this.pendingSince !== undefined && started - this.pendingSince < this.retentionMs && this.busy()) {
      this.arm(this.settleMs); // not settled: look again later (a write re-arms it meanwhile)
      return;
    }
    this.pendingSince = undefined;
    await this.run().catch(() => undefined);
    // Versions written less than the retention before this run are still kept: look again once they are not
    // (a settle period later, as a margin). Compared with the run's start, not the margin: a timer firing
    // a millisecond early must not make a third run for versions the second one already removed.
    if (this.lastWrite + this.retentionMs > started && !this.timer) {
      const due = this.lastWrite + this.retentionMs + this.settleMs;
      this.arm(Math.max(this.settleMs, due - Date.now()));
    }
  }
}
