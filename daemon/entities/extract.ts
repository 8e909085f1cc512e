/**
 * Named entities of a text, found locally: people, places, organisations, dates and numbers by the
 * tagger (tagger.ts: English, over the `compromise` library's lexicon), and every entity of the user's entities groups (with its
 * synonyms, `represents`) matched as whole words in any language.
 */
import { type Tagged, tag } from "./tagger.js";

/** A span of text: offsets in UTF-16 code units, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** One entity found in a text: its family (`PERSON`, `LOC`, a group id), its text and where it occurs. */
export interface FoundEntity {
  label: string;
  text: string;
  positions: Span[];
}

/** A user's entities group as matching needs it (daemon/kbs/entities.ts stores them). */
export interface EntityGroupDef {
  id: string;
  entities: Record<string, { value: string; represents?: string[]; merged?: boolean }>;
}

/** The families the NLP library finds, with the upstream processor's labels. */
export const NLP_LABELS = { people: "PERSON", places: "LOC", organizations: "ORG", dates: "DATE", numbers: "NUMBER" } as const;

export interface ExtractOptions {
  /** The text's language (ISO 639-1); the NLP families run for English or an unknown language only. */
  language?: string;
  /** Run the NLP library (default true); user groups are matched either way. */
  nlp?: boolean;
}

/** A relation between two entities of one sentence: the verb between them. */
export interface FoundRelation {
  from: { label: string; text: string; span: Span };
  to: { label: string; text: string; span: Span };
  label: string;
}

/** What one text holds: its entities and the relations its sentences state between them. */
export interface Analysis {
  entities: FoundEntity[];
  relations: FoundRelation[];
}

interface Hit {
  label: string;
  text: string;
  span: Span;
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Compiled matchers of entities groups, cached by the groups' content. */
const compiled = new Map<string, { re: RegExp; canon: Map<string, { label: string; text: string }> }[]>();

/** The same groups array (one field's paragraphs) is compiled once without serialising it again. */
const byArray = new WeakMap<EntityGroupDef[], ReturnType<typeof compile>>();

function matchersOf(groups: EntityGroupDef[]) {
  if (!groups.length) return [];
  let m = byArray.get(groups);
  if (!m) {
    m = compile(groups);
    byArray.set(groups, m);
  }
  return m;
}

function compile(groups: EntityGroupDef[]) {
  const key = JSON.stringify(groups);
  const hit = compiled.get(key);
  if (hit) return hit;
  const out = groups.flatMap((g) => {
    const canon = new Map<string, { label: string; text: string }>();
    for (const e of Object.values(g.entities)) {
      if (e.merged) continue;
      for (const term of [e.value, ...(e.represents ?? [])]) {
        const t = term.trim();
        if (t) canon.set(t.toLowerCase(), { label: g.id, text: e.value });
      }
    }
    if (!canon.size) return [];
    const alts = [...canon.keys()].sort((a, b) => b.length - a.length).map(reEscape);
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.join("|")})(?![\\p{L}\\p{N}])`, "giu");
    return [{ re, canon }];
  });
  if (compiled.size > 64) compiled.clear();
  compiled.set(key, out);
  return out;
}

/** Occurrences of the groups' entities (and their synonyms) in the text, as whole words, any case. */
function groupHits(text: string, groups: EntityGroupDef[]): Hit[] {
  const out: Hit[] = [];
  for (const { re, canon } of matchersOf(groups)) {
    for (const m of text.matchAll(re)) {
      const c = canon.get(m[0].toLowerCase());
      if (c && m.index !== undefined) out.push({ ...c, span: { start: m.index, end: m.index + m[0].length } });
    }
  }
  return out;
}

/** Entities and relations of one text (a paragraph): see extractEntities for the entities alone. */
export function analyse(text: string, groups: EntityGroupDef[] = [], opts: ExtractOptions = {}): Analysis {
  const hits = groupHits(text, groups);
  const relations: FoundRelation[] = [];
  const lang = opts.language?.toLowerCase();
  if (opts.nlp !== false && (!lang || lang === "en") && /\p{L}/u.test(text)) {
    const tagged = tag(text);
    const of = (label: Tagged["label"], as: string): Hit[] =>
      tagged
        .filter((t) => t.label === label)
        .map((t) => ({ label: as, text: text.slice(t.start, t.end), span: { start: t.start, end: t.end } }));
    const found = [
      ...of("PERSON", NLP_LABELS.people),
      ...of("LOC", NLP_LABELS.places),
      ...of("ORG", NLP_LABELS.organizations),
      ...of("DATE", NLP_LABELS.dates),
      ...of("NUMBER", NLP_LABELS.numbers),
    ];
    // A group's entity wins over the tagger's reading of the same words.
    hits.push(...found.filter((h) => !hits.some((g) => overlaps(g.span, h.span))));
    // A relation needs two named entities: most paragraphs have fewer, and no verb or sentence is read for them.
    const named = hits.filter(relatable);
    if (named.length > 1) relations.push(...sentenceRelations(named, of("VERB", "VERB"), sentencesOf(text)));
  }
  return { entities: group(hits), relations };
}

/** Sentence spans: ends at . ! ? followed by a space and a capital, a digit or a quote (cheap, and enough for relations). */
function sentencesOf(text: string): Hit[] {
  const out: Hit[] = [];
  let start = 0;
  for (const m of text.matchAll(/[.!?]+["')\]]?\s+(?=[\p{Lu}\p{N}"'(])/gu)) {
    const end = (m.index ?? 0) + m[0].length;
    out.push({ label: "S", text: "", span: { start, end } });
    start = end;
  }
  out.push({ label: "S", text: "", span: { start, end: text.length } });
  return out;
}

/** Families that take part in relations (dates and numbers qualify, they relate nothing). */
const RELATABLE = new Set<string>([NLP_LABELS.people, NLP_LABELS.places, NLP_LABELS.organizations]);

const NLP_FAMILIES = new Set<string>(Object.values(NLP_LABELS));
/** A hit that takes part in relations: a person, place or organisation, or an entity of a user's group. */
const relatable = (h: Hit) => RELATABLE.has(h.label) || !NLP_FAMILIES.has(h.label);

/** Consecutive entities of a sentence (of `named`, relatable hits) with a verb between them: `Marie Curie -[met]-> Albert Einstein`. */
function sentenceRelations(named: Hit[], verbs: Hit[], sentences: Hit[]): FoundRelation[] {
  named.sort((a, b) => a.span.start - b.span.start);
  const out: FoundRelation[] = [];
  for (const s of sentences) {
    const inS = named.filter((h) => h.span.start >= s.span.start && h.span.end <= s.span.end);
    for (let i = 0; i + 1 < inS.length; i++) {
      const [a, b] = [inS[i], inS[i + 1]];
      const verb = verbs.find((v) => v.span.start >= a.span.end && v.span.end <= b.span.start);
      if (!verb) continue;
      out.push({ from: { ...a }, to: { ...b }, label: verb.text.toLowerCase() });
    }
  }
  return out;
}

/** Hits grouped by label and text, positions in order. */
function group(hits: Hit[]): FoundEntity[] {
  const by = new Map<string, FoundEntity>();
  for (const h of [...hits].sort((a, b) => a.span.start - b.span.start)) {
    const k = `${h.label}\u0000${h.text}`;
    const e = by.get(k) ?? { label: h.label, text: h.text, positions: [] };
    e.positions.push(h.span);
    by.set(k, e);
  }
  return [...by.values()];
}

/** The named entities of a text and of the user's entities groups, each with its positions. */
export function extractEntities(text: string, groups: EntityGroupDef[] = [], opts: ExtractOptions = {}): FoundEntity[] {
  return analyse(text, groups, opts).entities;
}
