import {
  cleanSentence,
  FRAME_WORDS,
  hasNumber,
  isFurniture,
  jaccard,
  OPTION_LINE,
  questionNames,
  type Sentence,
  splitSentences,
  terms,
  words,
} from "./text.js";
import {
  approxTokens,
  type ContextPiece,
  type GenChunk,
  type GenerateRequest,
  type Generator,
  type JsonSchemaSpec,
} from "./types.js";

/** The answer when nothing in the context supports one. */
export const NO_ANSWER = "Not enough data to answer this.";

interface Candidate {
  piece: number;
  /** Terms of the heading the sentence is under, in its passage. */
  heading: Set<string>;
  /** Terms of the sentence's passage and its resource's title. */
  around: Set<string>;
  id: string;
  block?: string;
  sent: Sentence;
  terms: string[];
  score: number;
}

/** A chosen sentence and the paragraph span it came from. */
export interface ExtractedSentence {
  id: string;
  block?: string;
  text: string;
  start: number;
  end: number;
}

type Cue = (s: string) => boolean;
const has =
  (re: RegExp): Cue =>
  (s) =>
    re.test(s);
const MONTHS =
  "january|february|march|april|may(?=\\s+\\d)|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday";
const WHEN_VERBS = new Set(
  "publish published release released found founded create created write written issue issued introduce introduced launch launched ship shipped start started begin began"
    .split(" ")
    .map((w) => terms(w)[0] ?? w),
);
/** Question words and what an answering sentence tends to contain. */
const CUES: [RegExp, Cue][] = [
  [
    /^\s*(when|what (year|date|day|time)|which (year|date|day))\b/i,
    has(
      new RegExp(
        `\\b(\\d{4}|\\d{1,2}:\\d{2}|${MONTHS}|today|tomorrow|yesterday|week|month|year|daily|weekly|morning|evening|night|\\d\\s?[ap]m)\\b`,
        "i",
      ),
    ),
  ],
  [
    /^\s*(how (many|much|long|old|big|large|far|often)|what (number|percentage|amount))\b/i,
    has(/\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|dozen|percent)\b/i),
  ],
  [/^\s*(who|whom|whose)\b/i, has(/(?:^|[^.!?]\s)[A-Z][a-z]+(?:\s[A-Z][a-z]+)*|\bby\b|\bteam\b|\bperson\b/)],
  [/^\s*where\b/i, has(/\b(in|at|near|from|inside|located|office|city|country|street|room|folder|directory)\b/i)],
  [/^\s*why\b/i, has(/\b(because|since|due to|so that|in order to|reason|therefore|as a result|caused)\b/i)],
  [
    /^\s*(what (is|are|was|were)|define|what does .* mean)\b/i,
    has(/\b(is|are|was|were|means|refers to|defined as|stands for)\b/i),
  ],
  [
    /^\s*how (do|does|did|can|to|should)\b/i,
    (s) => OPTION_LINE.test(s) || /\b(by|use|using|run|click|open|set|install|create|first|then|step)\b/i.test(s),
  ],
];

/** "What is X?" / "Define X": a sentence that states "X is …" answers it best. */
function definitionCue(question: string): Cue | undefined {
  const m =
    /^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+?)\s*\??\s*$/i.exec(question) ??
    /^\s*define\s+(.+?)\s*\.?\s*$/i.exec(question);
  const subject = m?.[1]?.trim();
  if (!subject || subject.split(/\s+/).length > 6) return undefined;
  const esc = subject.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^\\W*(?:the\\s+|an?\\s+)?${esc}\\s+(?:is|are|was|were|means|refers to|stands for)\\b`, "i");
  return (s) => re.test(s);
}

/** BM25 over sentences (each sentence a document), plus cue, coverage and rank priors. */
function scoreCandidates(question: string, cands: Candidate[], context = ""): void {
  const own = new Set(terms(question));
  // Words the follow-up borrowed from the conversation count, but less than the question's own.
  const weight = new Map<string, number>([...terms(context)].map((t) => [t, own.has(t) ? 1 : 0.3]));
  // Frame words (use, default, option) say what kind of answer; names (bzip2, ls) which document, which the
  // name factor below checks: the sentence itself is chosen by the rest.
  const named = questionNames(question);
  // "When was it published?": the date answers the verb, which the dated line need not repeat.
  const when = CUES[0][0].test(question);
  for (const t of own) weight.set(t, FRAME_WORDS.has(t) || named.has(t) || (when && WHEN_VERBS.has(t)) ? 0.3 : 1);
  const q = [...weight.keys()];
  const df = new Map<string, number>();
  for (const c of cands) for (const t of new Set(c.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = cands.length;
  const avgdl = cands.reduce((a, c) => a + c.terms.length, 0) / Math.max(1, n);
  const idf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  const qMass = q.reduce((a, t) => a + idf(t) * (weight.get(t) ?? 1), 0) || 1;
  const cue = CUES.find(([re]) => re.test(question))?.[1];
  const typed = CUES.slice(0, 2).some(([re]) => re.test(question));
  const definition = definitionCue(question);
  const names = [...named];
  for (const c of cands) {
    const tf = new Map<string, number>();
    for (const t of c.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    let bm25 = 0;
    let covered = 0;
    for (const t of q) {
      const f = tf.get(t) ?? 0;
      if (!f) continue;
      const w = weight.get(t) ?? 1;
      covered += idf(t) * w;
      bm25 += (w * idf(t) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * c.terms.length) / Math.max(1, avgdl)));
    }
    // The heading a sentence sits under says what it is about ("Version 3, 29 June 2007" under "GNU GENERAL PUBLIC LICENSE").
    if (!c.sent.heading) for (const t of q) if (!tf.has(t) && c.heading.has(t)) covered += 0.5 * idf(t) * (weight.get(t) ?? 1);
    let score = bm25 * (0.5 + covered / qMass);
    if (score > 0 && cue?.(c.sent.text)) score *= 1.35;
    // "When…" wants a date and "how many…" a number: a sentence without one does not answer.
    else if (typed && cue) score *= 0.5;
    if (score > 0 && definition?.(c.sent.text)) score *= 2;
    score *= shapeFactor(question, c.sent.text, own);
    // The names the question asks about (ls, Apache, X11) belong where the sentence is.
    if (names.length) score *= (1 + names.filter((t) => c.around.has(t)).length) / (1 + names.length);
    // Of two sentences that cover the question, the one that says less besides answers more directly.
    const distinct = new Set(c.terms);
    if (distinct.size) score *= 0.85 + (0.3 * [...distinct].filter((t) => own.has(t)).length) / distinct.size;
    if (c.sent.heading) score *= 0.4;
    const nWords = words(c.sent.text).length;
    if (nWords < 4) score *= 0.6;
    if (nWords > 60) score *= 0.8;
    if (/\?\s*$/.test(c.sent.text)) score *= 0.5;
    c.score = score * (1 + 0.2 / (1 + c.piece));
  }
}

/** "Which option…", "what flag…", "the option that…": the answer is an option line. */
const ASKS_OPTION = /\b(?:which|what)\s+(?:\S+\s+)?(?:option|flag|switch)s?\b|\b(?:option|flag|switch)\s+(?:that|to|for)\b/i;

const NEGATION = /\b(without|not|no|never|non|don't|doesn't|exclude|excluding|except|invert|inverse|unless)\b/i;
const NUMERIC_Q =
  /^\s*(how (many|much|long|big|large|often)|what (number|percentage|amount|size|level|value|limit|port|version))\b|\bdefault\b/i;

/** How well a sentence's shape fits the question: the option line for "which option", agreement in negation. */
function shapeFactor(question: string, text: string, own: Set<string>): number {
  let f = 1;
  const option = OPTION_LINE.test(text);
  const asksOption = ASKS_OPTION.test(question);
  if (asksOption) f *= option ? 1.6 : 0.8;
  // The option whose own name says what is asked (--decompress for "decompresses", --keep for "keep").
  if (option && (asksOption || /^\s*how (do|can|to)\b/i.test(question))) {
    const named = terms(OPTION_LINE.exec(text)?.[0] ?? "").filter((t) => own.has(t)).length;
    if (named) f *= 2 + named;
  }
  const qNeg = NEGATION.test(question);
  const tag = option ? text.split("\n")[0] : "";
  const tagNeg = /--?(?:\w+-)*(?:without|no|not|invert|exclude)\b/.test(tag);
  if (qNeg && !(NEGATION.test(text) || tagNeg)) f *= 0.55;
  if (!qNeg && tagNeg) f *= 0.75;
  if (NUMERIC_Q.test(question) && hasNumber(text)) f *= 1.2;
  return f;
}

/** Pick a few well-supported, non-redundant sentences and put them back in reading order. */
function select(cands: Candidate[], maxSentences: number, optionAnswer = false): Candidate[] {
  const ranked = [...cands].sort((a, b) => b.score - a.score);
  const best = ranked[0];
  if (!best) return [];
  if (best.score <= 0) {
    // Nothing shares a word with the question (a semantic match): lead with the top paragraph.
    return cands.filter((c) => c.piece === cands[0].piece).slice(0, 2);
  }
  // An option line that answers "which option…" is the whole answer.
  if (optionAnswer && OPTION_LINE.test(best.sent.text)) return [best];
  const chosen: Candidate[] = [best];
  const sets = [new Set(best.terms)];
  for (const c of ranked.slice(1)) {
    if (chosen.length >= maxSentences || c.score < best.score * 0.6) break;
    const set = new Set(c.terms);
    if (sets.some((s) => jaccard(s, set) > 0.6)) continue;
    chosen.push(c);
    sets.push(set);
  }
  // A sentence opening with a pronoun leans on the one before it: bring that one along.
  const antecedent = new Map<Candidate, Candidate>();
  for (const c of [...chosen]) {
    if (!/^(it|this|that|these|those|they|he|she|its|their|such)\b/i.test(c.sent.text)) continue;
    const prev = cands.filter((p) => p.piece === c.piece && p.sent.end <= c.sent.start).pop();
    if (!prev) continue;
    antecedent.set(c, prev);
    if (!chosen.includes(prev)) chosen.push(prev);
  }
  // The most direct answer leads (after the sentence it leans on); the rest follow in reading order.
  const lead = antecedent.has(best) ? [antecedent.get(best)!, best] : [best];
  const rest = chosen.filter((c) => !lead.includes(c)).sort((a, b) => a.piece - b.piece || a.sent.start - b.sent.start);
  return [...lead, ...rest];
}

/** "How many…"/"what default…": when the lead sentence has no number and the next one does, it follows. */
function withNumber(question: string, picked: Candidate[], cands: Candidate[]): Candidate[] {
  const lead = picked[0];
  if (!lead || !NUMERIC_Q.test(question) || hasNumber(lead.sent.text)) return picked;
  const next = cands.find((c) => c.piece === lead.piece && c.sent.start >= lead.sent.end);
  if (!next || !hasNumber(next.sent.text) || picked.includes(next)) return picked;
  return [lead, next, ...picked.slice(1)];
}

/** Compose an answer from the context's best-supported sentences (no model involved). */
export function extractAnswer(
  question: string,
  context: ContextPiece[],
  maxSentences = 3,
  retrievalQuery?: string,
): ExtractedSentence[] {
  const cands: Candidate[] = [];
  context.forEach((p, piece) => {
    const around = new Set([...terms(p.text), ...terms(p.title ?? "")]);
    let heading = new Set<string>();
    for (const sent of splitSentences(p.text)) {
      if (sent.heading) heading = new Set(terms(sent.text));
      if (isFurniture(sent.text)) continue;
      cands.push({ piece, around, heading, id: p.id, block: p.block, sent, terms: terms(sent.text), score: 0 });
    }
  });
  scoreCandidates(question, cands, retrievalQuery);
  const optionAnswer = ASKS_OPTION.test(question) || /^\s*how (do|can|to)\b/i.test(question);
  const picked = withNumber(question, select(cands, maxSentences, optionAnswer), cands);
  return picked.map((c) => ({
    id: c.id,
    block: c.block,
    text: cleanSentence(c.sent.text),
    start: c.sent.start,
    end: c.sent.end,
  }));
}

/** Fill a JSON schema's properties from the extracted answer (best effort, type-directed). */
export function answerObject(schema: JsonSchemaSpec, answer: string, sentences: string[]): Record<string, unknown> {
  const props = (schema.parameters.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const out: Record<string, unknown> = {};
  const found = sentences.length > 0;
  for (const [name, p] of Object.entries(props)) {
    if (p.enum?.length) out[name] = p.enum.find((v) => answer.toLowerCase().includes(String(v).toLowerCase())) ?? p.enum[0];
    else if (p.type === "boolean") out[name] = found;
    else if (p.type === "number" || p.type === "integer") {
      const m = /-?\d+(?:\.\d+)?/.exec(answer);
      out[name] = m ? (p.type === "integer" ? Math.round(Number(m[0])) : Number(m[0])) : 0;
    } else if (p.type === "array") out[name] = sentences;
    else if (p.type === "object") out[name] = {};
    else out[name] = answer;
  }
  return out;
}

/** The offline default: answers from the retrieved paragraphs' own sentences and cites them. */
export class ExtractiveGenerator implements Generator {
  readonly id = "extractive";
  readonly kind = "extractive" as const;

  async *generate(req: GenerateRequest): AsyncIterable<GenChunk> {
    const maxSentences = req.maxTokens && req.maxTokens < 60 ? 1 : 3;
    const picked = extractAnswer(req.question, req.context, maxSentences, req.retrievalQuery);
    const input = req.messages.reduce((a, m) => a + approxTokens(m.content), 0);
    const parts = picked.map((s) => (req.footnotes && s.block ? `${s.text} [${s.block}]` : s.text));
    let answer = parts.join(" ") || NO_ANSWER;
    if (req.maxTokens) answer = truncateTokens(answer, req.maxTokens);
    if (req.jsonSchema) {
      yield {
        type: "json",
        object: answerObject(
          req.jsonSchema,
          answer,
          picked.map((s) => s.text),
        ),
      };
    } else {
      // Stream a few words at a time, as a model would, so clients see chunks.
      for (const chunk of answer.match(/\S+(?:\s+\S+){0,3}\s*/g) ?? [answer]) {
        if (req.signal?.aborted) return;
        yield { type: "text", text: chunk };
      }
    }
    yield { type: "usage", input, output: approxTokens(answer) };
  }
}

function truncateTokens(text: string, max: number): string {
  const limit = max * 4;
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf(" "));
  return `${cut.slice(0, end > 0 ? end + 1 : limit).trimEnd()}`;
}
