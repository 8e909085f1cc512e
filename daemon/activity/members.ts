import type { AskBody, AskItem } from "../../src/api/ask.js";
import { STATUS_CODES } from "../../src/api/ask.js";
import type { FindBody, FindResponse } from "../../src/api/find.js";

/** The members of a row the spec lists for search-like events, from a find request and its answer. */
export function searchMembers(body: FindBody | undefined, res: FindResponse | undefined, ms: number): Record<string, unknown> {
  const b = (body ?? {}) as FindBody & { audit_metadata?: Record<string, string> | null };
  const ms2 = typeof b.min_score === "number" ? { semantic: b.min_score, bm25: null } : b.min_score;
  return {
    question: b.query ?? "",
    resources_count: res ? Object.keys(res.resources).length : 0,
    filter: b.filter_expression ?? b.filters ?? null,
    vectorset: b.vectorset ?? null,
    security: b.security ?? null,
    min_score_bm25: ms2?.bm25 ?? res?.min_score.bm25 ?? null,
    min_score_semantic: ms2?.semantic ?? res?.min_score.semantic ?? null,
    result_per_page: b.top_k ?? res?.page_size ?? null,
    retrieval_time: ms / 1000,
    retrieval_rephrased_question: res?.rephrased_query ?? null,
    audit_metadata: b.audit_metadata ?? null,
    user_request: b,
  };
}

/** One paragraph of an answer's context, as a row keeps it. */
export interface ContextPiece {
  text: string;
  text_block_id: string | null;
}

/** The retrieved context of a find answer: its best matches first, each paragraph's text. */
export function contextOf(res: FindResponse, best: readonly string[]): ContextPiece[] {
  const texts = new Map<string, string>();
  for (const r of Object.values(res.resources))
    for (const f of Object.values(r.fields)) for (const [id, p] of Object.entries(f.paragraphs)) texts.set(id, p.text);
  const order = [...best.filter((id) => texts.has(id)), ...[...texts.keys()].filter((id) => !best.includes(id))];
  return order.map((id) => ({ text: texts.get(id) ?? "", text_block_id: id }));
}

/** What the items of an ask stream add up to: the ask members of its row. */
export class AskTally {
  answer = "";
  reasoning = "";
  status: number | null = null;
  context: ContextPiece[] = [];
  members: Record<string, unknown> = {};
  private readonly t0 = performance.now();

  add(item: AskItem): void {
    switch (item.type) {
      case "answer":
        this.answer += item.text;
        break;
      case "answer_json":
        this.answer += JSON.stringify(item.object);
        break;
      case "reasoning":
        this.reasoning += item.text;
        break;
      case "status":
        this.status = Number(item.code);
        break;
      case "error":
        this.status = Number(STATUS_CODES.error);
        break;
      case "retrieval":
        this.context = contextOf(
          item.results,
          item.best_matches.map((m) => m.id),
        );
        this.members.resources_count = Object.keys(item.results.resources).length;
        // Retrieval is done when its item comes; the metadata item's timing, when there is one, is more exact.
        this.members.retrieval_time ??= (performance.now() - this.t0) / 1000;
        this.members.retrieval_rephrased_question = item.results.rephrased_query ?? null;
        break;
      case "metadata":
        this.members.model = item.generator?.model ?? null;
        this.members.platform_tokens = (item.tokens.input ?? 0) + (item.tokens.output ?? 0);
        this.members.token_details = item.tokens;
        this.members.generative_answer_first_chunk_time = item.timings.generative_first_chunk ?? null;
        this.members.generative_answer_time = item.timings.generative_total ?? null;
        this.members.retrieval_time = item.timings.retrieval ?? this.members.retrieval_time ?? null;
        break;
      default:
    }
  }

  /** The row's members once the stream has ended. */
  row(body: AskBody, learningId: string, seconds: number): Record<string, unknown> {
    const rephrased = this.members.retrieval_rephrased_question;
    return {
      question: body.query,
      rephrased_question: rephrased && rephrased !== body.query ? rephrased : null,
      answer: this.answer || null,
      reasoning: this.reasoning || null,
      learning_id: learningId,
      retrieved_context: this.context,
      chat_history: body.chat_history ?? [],
      rag_strategies_names: (body.rag_strategies ?? []).map((s) => s.name),
      rag_strategies: body.rag_strategies ?? [],
      status: this.status ?? (this.answer ? 0 : null),
      filter: body.filter_expression ?? body.filters ?? null,
      vectorset: body.vectorset ?? null,
      security: body.security ?? null,
      result_per_page: body.top_k ?? null,
      min_score_bm25: typeof body.min_score === "object" ? (body.min_score?.bm25 ?? null) : null,
      min_score_semantic: typeof body.min_score === "number" ? body.min_score : (body.min_score?.semantic ?? null),
      audit_metadata: body.audit_metadata ?? null,
      user_request: body,
      total_duration: seconds,
      feedback_good: null,
      feedback_comment: null,
      ...this.members,
    };
  }
}
