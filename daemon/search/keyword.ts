import type { KeywordQuery } from "../store/paragraph-search.js";

/** A user's keyword query, parsed: `"quoted phrases"` and `+word` must match, `-word` must not, the rest should. */
export type ParsedQuery = KeywordQuery;

export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { should: "", must: [], phrases: [], mustNot: [] };
  const rest: string[] = [];
  for (const m of q.matchAll(/([+-]?)"([^"]*)"|(\S+)/g)) {
    if (m[2] !== undefined) {
      if (m[1] === "-") out.mustNot.push(m[2]);
      else if (m[2].trim()) out.phrases.push(m[2]);
      continue;
    }
    const tok = m[3];
    if (tok.length > 1 && tok.startsWith("-")) out.mustNot.push(tok.slice(1));
    else if (tok.length > 1 && tok.startsWith("+")) out.must.push(tok.slice(1));
    else rest.push(tok);
  }
  out.should = rest.join(" ");
  return out;
}

/** Every word of the query that can match, for highlighting: should, must and phrase words. */
export function positiveText(p: ParsedQuery): string {
  return [p.should, ...p.must, ...p.phrases].join(" ");
}
