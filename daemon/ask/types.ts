/** The types ask's steps share: the options of one ask, and an ask resolved before it streams. */
import type { AskBody } from "../../src/api/ask.js";
import type { Principal } from "../auth/service.js";
import type { Generator } from "../models/generate/types.js";
import type { KbDoc, KbStore } from "../store/index.js";

export interface AskOptions {
  principal?: Principal;
  signal?: AbortSignal;
  /** Ask about one resource (by id or slug). */
  resource?: { rid: string } | { slug: string };
  showConsumption?: boolean;
}

/** An ask checked and resolved before anything is streamed, so bad input still gets a 4xx. */
export interface PreparedAsk {
  kb: KbDoc;
  store: KbStore;
  body: AskBody;
  rid?: string;
  generator: Generator;
  /** An agentic configuration's rephrase section: the model (and prompt) that rephrases the question. */
  rephraser?: { generator: Generator; prompt?: string; history: boolean };
  /** An agentic configuration's summarize.history false: the answering model sees no chat history. */
  hideHistory?: boolean;
  learningId: string;
  opts: AskOptions;
}
