import { CUSTOM_SPLIT, type SplitConfiguration } from "../../src/api/strategies.js";
import { strategyTables } from "../kbs/strategies.js";
import type { FieldDoc, KbStore } from "../store/index.js";
import type { SplitOptions } from "./split.js";

/**
 * What the splitter does for a split configuration. Only `max_paragraph` and a MANUAL custom split
 * apply locally; LLM-based options (llm_split, an LLM custom split) need a generator at ingestion and
 * are stored but ignored: the field is split the default way rather than left unsearchable.
 */
export function splitOptionsOf(cfg: SplitConfiguration | null | undefined): SplitOptions | undefined {
  if (!cfg) return undefined;
  const out: SplitOptions = {};
  if (cfg.max_paragraph > 0) out.maxChars = cfg.max_paragraph;
  if (cfg.custom_split === CUSTOM_SPLIT.MANUAL && cfg.manual_split?.splitter) out.splitter = cfg.manual_split.splitter;
  return out.maxChars === undefined && out.splitter === undefined ? undefined : out;
}

/**
 * The split options of a field, resolved on the main thread (the result is plain data for the
 * extraction workers): its split_strategy, else the `split` of its extract_strategy, else none.
 * A strategy id the knowledge box no longer has (cannot normally happen: writes and deletes check)
 * means the default split.
 */
export async function splitOptionsFor(store: KbStore, doc: FieldDoc): Promise<SplitOptions | undefined> {
  const v = doc.value as { extract_strategy?: string | null; split_strategy?: string | null } | null;
  if (!v || typeof v !== "object" || (!v.split_strategy && !v.extract_strategy)) return undefined;
  const t = await strategyTables(store);
  const split = v.split_strategy ? t.split.get(v.split_strategy)?.config : undefined;
  return splitOptionsOf(split ?? (v.extract_strategy ? t.extract.get(v.extract_strategy)?.config.split : undefined));
}
