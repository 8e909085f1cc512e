import type {
  ActivityQuery,
  ActivityRow,
  Aggregation,
  EventType,
  MetricsPoint,
  QualityPoint,
  QualityScores,
  RemiItem,
  RemiQuery,
} from "../../src/api/activity.js";
import { invalid, notFound } from "../errors.js";
import { type ActivityRecord, activityMonth } from "../store/index.js";
import { buckets } from "./buckets.js";
import { matches } from "./filters.js";
import type { ActivityService } from "./service.js";

/** The members of a row `show` asks for (id and date always; "all": every member). */
export function shown(doc: Record<string, unknown>, show: ActivityQuery["show"]): ActivityRow {
  if (show === "all") return doc;
  const out: ActivityRow = { id: doc.id, date: doc.date };
  for (const m of show) out[m] = doc[m] ?? null;
  return out;
}

/** The rows of a month matching the filters, oldest first. */
export async function matching(
  s: ActivityService,
  kbid: string,
  event: EventType,
  q: Pick<ActivityQuery, "year_month" | "filters">,
) {
  const rows = await (await s.of(kbid)).read(q.year_month, [event]);
  return rows.filter((r) => matches(r.doc, q.filters));
}

/** Query Activity Logs: a page of matching rows (cursor: ids), and whether more follow. */
export async function queryActivity(
  s: ActivityService,
  kbid: string,
  event: EventType,
  q: ActivityQuery,
): Promise<{ rows: ActivityRow[]; hasMore: boolean }> {
  let rows = await matching(s, kbid, event, q);
  const { limit, starting_after, ending_before } = q.pagination;
  if (starting_after !== undefined) rows = rows.filter((r) => r.id > starting_after);
  if (ending_before !== undefined) {
    rows = rows.filter((r) => r.id < ending_before);
    const hasMore = rows.length > limit;
    return { rows: rows.slice(-limit).map((r) => shown(r.doc, q.show)), hasMore };
  }
  return { rows: rows.slice(0, limit).map((r) => shown(r.doc, q.show)), hasMore: rows.length > limit };
}

/** The instants of a range query; `from` is required (422 at query.from). */
function range(from: string | undefined, to?: string): { from: number; to: number } {
  if (!from) throw invalid([{ type: "missing", loc: ["query", "from"], msg: "Field required", input: null }]);
  return { from: Date.parse(from), to: to ? Date.parse(to) : Date.now() };
}

/** Activity Logs Metrics: searches, chats and asks per bucket (chat counts every generated answer: chat and ask events). */
export async function activityMetrics(
  s: ActivityService,
  kbid: string,
  q: { from?: string; to?: string; aggregation: Aggregation },
): Promise<MetricsPoint[]> {
  const log = await s.of(kbid);
  const { from, to } = range(q.from, q.to);
  const rows = await log.range(from, to, ["search", "ask", "chat"]);
  return buckets(
    rows,
    from,
    to,
    q.aggregation,
    () => ({ search: 0, chat: 0, ask: 0 }),
    (p, r) => {
      if (r.event === "search") p.search++;
      if (r.event === "ask") p.ask++;
      if (r.event === "ask" || r.event === "chat") p.chat++;
    },
  );
}

const qualityOf = (r: ActivityRecord) => r.doc.quality as QualityScores | undefined;
const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const STATUS: Record<string, number[]> = { SUCCESS: [0], ERROR: [-1], NO_CONTEXT: [-2, -3] };

function remiItem(r: ActivityRecord): RemiItem {
  const q = qualityOf(r);
  return {
    id: r.id,
    question: String(r.doc.question ?? ""),
    answer: (r.doc.answer as string | null) ?? null,
    date: r.date,
    ...(q ? { remi: q } : {}),
  };
}

/** Query RAG Requests By Scores: a month's answers by context relevance, status or feedback. */
export async function remiQuery(
  s: ActivityService,
  kbid: string,
  q: RemiQuery,
): Promise<{ data: RemiItem[]; has_more: boolean }> {
  let rows = await (await s.of(kbid)).read(q.month, ["ask", "chat"]);
  const from = q.from_date ? Date.parse(q.from_date) : -Infinity;
  const to = q.to_date ? Date.parse(q.to_date) : Infinity;
  rows = rows.filter((r) => Date.parse(r.date) >= from && Date.parse(r.date) <= to);
  if (q.status) rows = rows.filter((r) => STATUS[q.status as string].includes(Number(r.doc.status)));
  if (q.feedback_good !== undefined && q.feedback_good !== null)
    rows = rows.filter((r) => r.doc.feedback_good === q.feedback_good);
  const cr = q.context_relevance;
  if (cr) {
    rows = rows.filter((r) => {
      const xs = qualityOf(r)?.context_relevance ?? [];
      if (!xs.length) return false;
      const v = cr.aggregation === "min" ? Math.min(...xs) : cr.aggregation === "max" ? Math.max(...xs) : avg(xs);
      return cr.operation === "gt" ? v > cr.value : cr.operation === "lt" ? v < cr.value : Math.abs(v - cr.value) < 1e-9;
    });
  }
  const { limit, starting_after, ending_before } = q.pagination;
  if (starting_after !== undefined) rows = rows.filter((r) => r.id > starting_after);
  if (ending_before !== undefined) rows = rows.filter((r) => r.id < ending_before).slice(-limit - 1);
  return { data: rows.slice(0, limit).map(remiItem), has_more: rows.length > limit };
}

/** One answer, its scores and its whole context. */
export async function remiEvent(s: ActivityService, kbid: string, id: number) {
  const rows = await (await s.of(kbid)).read(activityMonth(id), ["ask", "chat"]);
  const row = rows.find((r) => r.id === id);
  if (!row) throw notFound(`No answer with id ${id}`);
  const context = (row.doc.retrieved_context ?? []) as { text: string; text_block_id: string | null }[];
  return { ...remiItem(row), context };
}

/** Aggregated Quality Scores Across Time: min, max and average of each score per bucket (answers with scores). */
export async function remiScores(
  s: ActivityService,
  kbid: string,
  q: { from?: string; to?: string; aggregation: Aggregation },
): Promise<QualityPoint[]> {
  const log = await s.of(kbid);
  const { from, to } = range(q.from, q.to);
  const rows = (await log.range(from, to, ["ask", "chat"])).filter((r) => qualityOf(r));
  const names = ["answer_relevance", "context_relevance", "groundedness"] as const;
  const points = buckets(
    rows,
    from,
    to,
    q.aggregation,
    () => ({ answer_relevance: [] as number[], context_relevance: [] as number[], groundedness: [] as number[] }),
    (p, r) => {
      const sc = qualityOf(r) as QualityScores;
      p.answer_relevance.push(sc.answer_relevance.score);
      if (sc.context_relevance.length) p.context_relevance.push(avg(sc.context_relevance));
      if (sc.groundedness.length) p.groundedness.push(avg(sc.groundedness));
    },
  );
  const round = (x: number) => Math.round(x * 100) / 100;
  return points.map((p) => ({
    timestamp: p.timestamp,
    metrics: names.map((name) => {
      const xs = p[name];
      return { name, min: xs.length ? Math.min(...xs) : 0, max: xs.length ? Math.max(...xs) : 0, average: round(avg(xs)) };
    }),
  }));
}
