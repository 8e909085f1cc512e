import type { EventType } from "../../src/api/activity.js";
import type { AskBody, AskItem } from "../../src/api/ask.js";
import type { FeedbackRequest } from "../../src/api/feedback.js";
import type { KbService } from "../kbs/service.js";
import type { Log } from "../lifecycle/logger.js";
import type { ActivityLog, ActivityRecord } from "../store/index.js";
import { callerOf, type RequestLike } from "./caller.js";
import { AskTally } from "./members.js";
import type { QualityScorer } from "./scorer.js";

/** Settings of the activity log (daemon/settings). */
export interface ActivitySettings {
  /** Record events (KBOX_ACTIVITY); off, nothing new is written. */
  record: boolean;
  /** Months of activity kept (KBOX_ACTIVITY_RETENTION_MONTHS); older monthly partitions are dropped. */
  retentionMonths: number;
}

export type Members = Record<string, unknown>;

/**
 * The activity log of every knowledge box: what the daemon did for whom (searches, asks, changes,
 * processing), recorded so that it never fails or noticeably slows the request it describes, and
 * queried, counted and downloaded by the activity routes (queries.ts, downloads.ts).
 */
export class ActivityService {
  private retentionTimer: NodeJS.Timeout | undefined;
  private firstRetention: NodeJS.Timeout | undefined;

  constructor(
    private readonly kbs: KbService,
    private readonly settings: ActivitySettings,
    private readonly scorer: QualityScorer,
    private readonly log: Log,
  ) {
    // A minute after start, then every 6 hours: start-up does not open every box for it.
    this.firstRetention = setTimeout(() => void this.applyRetention(), 60_000);
    this.firstRetention.unref();
    this.retentionTimer = setInterval(() => void this.applyRetention(), 6 * 3600_000);
    this.retentionTimer.unref();
  }

  /** The log of a knowledge box (404 when it does not exist). */
  async of(kbid: string): Promise<ActivityLog> {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return store.activity();
  }

  /**
   * Record an event; resolves once it is durable (journaled). Never throws: a box deleted meanwhile,
   * a full disk, are logged, and the request the event describes goes on.
   */
  async record(kbid: string, event: EventType, members: Members): Promise<ActivityRecord | undefined> {
    if (!this.settings.record) return undefined;
    try {
      return await (await this.of(kbid)).appendSoon(event, members);
    } catch (e) {
      this.log.warn(`activity: cannot record ${event} on ${kbid}: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** Run a request's work and record it (caller members, duration, and what `members` makes of the result). */
  async track<R>(
    kbid: string,
    event: EventType,
    from: RequestLike,
    work: () => Promise<R>,
    members: (result: R, ms: number) => Members = () => ({}),
  ): Promise<R> {
    const t0 = performance.now();
    const result = await work();
    const ms = performance.now() - t0;
    await this.record(kbid, event, { ...callerOf(from), total_duration: ms / 1000, ...members(result, ms) });
    return result;
  }

  /**
   * Pass an ask's items through, and record its row before the stream ends: an answer the client
   * has received to the end is in the log. The quality scores follow in the background.
   */
  async *ask(
    kbid: string,
    from: RequestLike,
    ask: { body: AskBody; learningId: string },
    items: AsyncIterable<AskItem>,
  ): AsyncGenerator<AskItem> {
    const t0 = performance.now();
    const tally = new AskTally();
    const caller = callerOf(from);
    const event: EventType = ask.body.chat_history?.length ? "chat" : "ask";
    let failed: Error | undefined;
    try {
      for await (const item of items) {
        tally.add(item);
        yield item;
      }
    } catch (e) {
      failed = e as Error;
      throw e;
    } finally {
      const members = tally.row(ask.body, ask.learningId, (performance.now() - t0) / 1000);
      if (failed) members.status = -1;
      const rec = await this.record(kbid, event, { ...caller, ...members });
      if (rec && tally.answer && !failed) this.scoreLater(kbid, rec, ask.body.query, tally);
    }
  }

  private scoreLater(kbid: string, rec: ActivityRecord, question: string, tally: AskTally): void {
    setImmediate(async () => {
      try {
        const quality = await this.scorer.score(
          question,
          tally.answer,
          tally.context.map((c) => c.text),
        );
        (await this.of(kbid)).patch(rec.id, rec.event, { quality });
      } catch (e) {
        this.log.warn(`activity: cannot score answer ${rec.id}: ${(e as Error).message}`);
      }
    });
  }

  /** Feedback lands on the row of the ask whose learning id it names (this month's or the last). */
  async feedback(kbid: string, fb: FeedbackRequest): Promise<boolean> {
    const log = await this.of(kbid);
    const months = (await log.months()).reverse().slice(0, 2);
    for (const m of months) {
      const row = (await log.read(m, ["ask", "chat"])).find((r) => r.doc.learning_id === fb.ident);
      if (!row) continue;
      log.patch(row.id, row.event, {
        feedback_good: fb.good,
        feedback_comment: fb.feedback ?? null,
        feedback_time: new Date().toISOString(),
        feedback_text_block_id: fb.text_block_id ?? null,
      });
      return true;
    }
    return false;
  }

  /** Drop every box's monthly partitions older than the retention. */
  async applyRetention(now = new Date()): Promise<void> {
    const cut = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - this.settings.retentionMonths + 1, 1));
    const month = cut.toISOString().slice(0, 7);
    for (const kb of this.kbs.list()) {
      try {
        const dropped = await (await this.of(kb.uuid)).dropBefore(month);
        if (dropped.length) this.log.info(`activity: ${kb.slug}: dropped ${dropped.join(", ")} (retention)`);
      } catch (e) {
        this.log.warn(`activity: retention of ${kb.slug} failed: ${(e as Error).message}`);
      }
    }
  }

  close(): void {
    clearTimeout(this.firstRetention);
    clearInterval(this.retentionTimer);
  }
}
