import { fold } from "../text/analyzer.js";

/** What keyword search needs of the custom synonyms (daemon/kbs/synonyms.ts). */
export interface SynonymSource {
  get(kbid: string): Promise<{ synonyms: Record<string, string[]> }>;
}

/**
 * A keyword query with each plain word that has custom synonyms followed by them, so that a document
 * using a synonym matches too. Quoted phrases and `+`/`-` words are left as written.
 */
export function expandSynonyms(query: string, synonyms: Record<string, string[]>): string {
  const table = new Map(Object.entries(synonyms).map(([k, v]) => [fold(k.trim()), v]));
  if (!table.size) return query;
  const out: string[] = [];
  for (const m of query.matchAll(/[+-]?"[^"]*"|\S+/g)) {
    const tok = m[0];
    out.push(tok);
    if (/^[-+"]/.test(tok)) continue;
    const syn = table.get(fold(tok.replace(/[^\p{L}\p{N}'’-]+/gu, "")));
    if (syn) for (const s of syn) out.push(...s.split(/\s+/).filter(Boolean));
  }
  return out.join(" ");
}
