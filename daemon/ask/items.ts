import type { AskItem } from "../../src/api/ask.js";
import type { FindResponse } from "../../src/api/find.js";
import type { Generator } from "../models/generate/types.js";

/** The retrieval item of a find response. */
export function retrievalItem(main: FindResponse): AskItem {
  return { type: "retrieval", results: main, best_matches: main.best_matches.map((id) => ({ id })) };
}

/** Which model answered; `extractive` says the answer was composed from retrieved sentences. */
export function genInfo(g: Generator): { model: string; kind: string; extractive: boolean } {
  return { model: g.id, kind: g.kind, extractive: g.kind === "extractive" };
}
