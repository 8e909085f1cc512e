import type { AskItem, SyncAskResponse } from "../../src/api/ask.js";

/** The stream with a relations item after a retrieval that carries relations (`features: relations`). */
async function* withRelations(items: AsyncIterable<AskItem>): AsyncGenerator<AskItem> {
  for await (const item of items) {
    yield item;
    if (item.type === "retrieval" && item.results.relations) yield { type: "relations", relations: item.results.relations };
  }
}

/** Fold the stream's items into the synchronous response (`x-synchronous: true`). */
export async function collectSync(items: AsyncIterable<AskItem>, learningId: string): Promise<SyncAskResponse> {
  const out: SyncAskResponse = {
    answer: "",
    status: "success",
    retrieval_results: null,
    retrieval_best_matches: [],
    learning_id: learningId,
    citations: {},
    citation_footnote_to_context: {},
    augmented_context: { paragraphs: {}, fields: {} },
    metadata: { tokens: { input: 0, output: 0 }, timings: {} },
  };
  let reasoning = "";
  const errors: string[] = [];
  for await (const item of withRelations(items)) {
    switch (item.type) {
      case "answer":
        out.answer += item.text;
        break;
      case "reasoning":
        reasoning += item.text;
        break;
      case "answer_json":
        out.answer_json = item.object;
        break;
      case "retrieval":
        out.retrieval_results = item.results;
        out.retrieval_best_matches = item.best_matches;
        break;
      case "prequeries":
        out.prequeries = item.results;
        break;
      case "status":
        out.status = item.status;
        if (item.details) out.error_details = item.details;
        break;
      case "augmented_context":
        out.augmented_context = item.augmented;
        break;
      case "citations":
        out.citations = item.citations;
        break;
      case "footnote_citations":
        out.citation_footnote_to_context = item.footnote_to_context;
        break;
      case "metadata": {
        const { type: _t, ...meta } = item;
        out.metadata = meta;
        break;
      }
      case "consumption": {
        const { type: _t, ...c } = item;
        out.consumption = c;
        break;
      }
      case "relations":
        out.relations = item.relations;
        break;
      case "debug":
        Object.assign(out, item.metadata);
        break;
      case "error":
        errors.push(item.error);
        break;
    }
  }
  if (reasoning) out.reasoning = reasoning;
  if (errors.length && !out.error_details) out.error_details = errors.join("; ");
  return out;
}

/** The ask stream's NDJSON lines: each item as `{"item": AskItem}` (the encoder frames them). */
export async function* askLines(items: AsyncIterable<AskItem>): AsyncGenerator<{ item: AskItem }> {
  for await (const item of withRelations(items)) yield { item };
}
