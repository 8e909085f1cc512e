import type { AugmentedText, RagStrategy } from "../../src/api/ask.js";
import type { ContextPiece } from "../models/generate/types.js";
import { approxTokens } from "../models/generate/types.js";
import { fieldRecordKey, type ResourceDoc, ridOf } from "../store/index.js";
import type { ParagraphReader, StoredParagraph } from "./paragraphs.js";

/** A retrieved paragraph, in final rank order. */
export interface Ranked {
  id: string;
  rid: string;
  text: string;
}

export interface BuiltContext {
  pieces: ContextPiece[];
  augmented: { paragraphs: Record<string, AugmentedText>; fields: Record<string, AugmentedText> };
  tokens: number;
  /** Pieces dropped or cut to stay within the context budget. */
  truncated: boolean;
}

export interface ContextInput {
  ranked: Ranked[];
  strategies: RagStrategy[];
  extraContext: string[];
  budgetTokens: number;
  footnotes: boolean;
  reader: ParagraphReader;
  resource: (rid: string) => ResourceDoc | undefined;
}

type Strategy<N extends RagStrategy["name"]> = Extract<RagStrategy, { name: N }> | undefined;
const pick = <N extends RagStrategy["name"]>(s: RagStrategy[], name: N) => s.find((x) => x.name === name) as Strategy<N>;

/** Build the prompt context from the ranked paragraphs and the rag strategies, within the token budget. */
export async function buildContext(input: ContextInput): Promise<BuiltContext> {
  const { ranked, strategies, reader } = input;
  const augmented: BuiltContext["augmented"] = { paragraphs: {}, fields: {} };
  const full = pick(strategies, "full_resource");
  const neighbours = pick(strategies, "neighbouring_paragraphs");
  const conversation = pick(strategies, "conversation");
  // Stored paragraphs are read only when a strategy needs more than the retrieved ones.
  if (full || neighbours || conversation || pick(strategies, "field_extension")) await reader.load(ranked.map((r) => r.rid));
  const fullRids = new Set<string>();
  if (full) for (const r of ranked) if (full.count == null || fullRids.size < full.count) fullRids.add(r.rid);

  const pieces: ContextPiece[] = input.extraContext.map((text, i) => ({ id: `extra_context/${i}`, text }));
  const seen = new Set<string>();
  const add = (p: { id: string; text: string }, parent: string | null, type: string | null) => {
    if (seen.has(p.id)) return;
    seen.add(p.id);
    pieces.push({ id: p.id, text: p.text });
    if (type) augmented.paragraphs[p.id] = { id: p.id, text: p.text, parent, augmentation_type: type };
  };
  const doneRids = new Set<string>();
  for (const r of ranked) {
    if (fullRids.has(r.rid)) {
      if (doneRids.has(r.rid)) continue;
      doneRids.add(r.rid);
      for (const p of reader.of(r.rid)) add(p, null, null);
      for (const field of new Set(reader.of(r.rid).map((p) => p.field))) {
        const id = fieldRecordKey(r.rid, field);
        augmented.fields[id] = { id, text: reader.fieldText(r.rid, field), parent: null, augmentation_type: "full_resource" };
      }
      continue;
    }
    const stored = reader.get(r.id);
    const siblings = stored ? reader.of(r.rid, stored.field) : [];
    const at = stored ? siblings.findIndex((p) => p.id === r.id) : -1;
    if (conversation && stored?.field_type === "conversation") {
      for (const p of conversationWindow(siblings, stored, conversation.full, conversation.max_messages))
        add(p, r.id === p.id ? null : r.id, r.id === p.id ? null : "conversation");
      continue;
    }
    if (neighbours && at >= 0)
      for (const p of siblings.slice(Math.max(0, at - neighbours.before), at)) add(p, r.id, "neighbouring_paragraphs");
    add(r, null, null);
    if (neighbours && at >= 0)
      for (const p of siblings.slice(at + 1, at + 1 + neighbours.after)) add(p, r.id, "neighbouring_paragraphs");
  }
  extendFields(pick(strategies, "field_extension"), ranked, reader, add, augmented);
  decorate(pieces, strategies, input.resource, augmented);
  return budget(pieces, input.budgetTokens, input.footnotes, augmented);
}

/** The matched message and the ones after it (or the whole conversation). */
function conversationWindow(siblings: StoredParagraph[], hit: StoredParagraph, full: boolean, max: number): StoredParagraph[] {
  if (full) return siblings;
  const splits = [...new Set(siblings.map((p) => p.split))];
  const from = splits.indexOf(hit.split);
  const keep = new Set(splits.slice(from, from + max));
  return siblings.filter((p) => keep.has(p.split));
}

function extendFields(
  s: Strategy<"field_extension">,
  ranked: Ranked[],
  reader: ParagraphReader,
  add: (p: StoredParagraph, parent: string | null, type: string | null) => void,
  augmented: BuiltContext["augmented"],
): void {
  if (!s) return;
  for (const rid of new Set(ranked.map((r) => r.rid))) {
    for (const field of s.fields) {
      const paras = reader.of(rid, field);
      if (!paras.length) continue;
      for (const p of paras) add(p, null, null);
      const id = fieldRecordKey(rid, field);
      augmented.fields[id] = { id, text: reader.fieldText(rid, field), parent: null, augmentation_type: "field_extension" };
    }
  }
}

/** hierarchy and metadata_extension: extend each paragraph's text with its resource's title, summary and metadata. */
function decorate(
  pieces: ContextPiece[],
  strategies: RagStrategy[],
  resource: ContextInput["resource"],
  augmented: BuiltContext["augmented"],
): void {
  const hierarchy = pick(strategies, "hierarchy");
  const meta = pick(strategies, "metadata_extension");
  if (!hierarchy && !meta) return;
  for (const piece of pieces) {
    const rid = ridOf(piece.id);
    const res = rid === undefined ? undefined : resource(rid);
    if (!res) continue;
    let text = piece.text;
    if (hierarchy) {
      const head = [res.title ? `# ${res.title}` : "", res.summary ?? ""].filter(Boolean).join("\n\n");
      if (head) text = `${head}\n\n${text}`;
    }
    if (meta) text += metadataText(res, meta.types);
    if (text === piece.text) continue;
    piece.text = text;
    const prev = augmented.paragraphs[piece.id];
    augmented.paragraphs[piece.id] = {
      id: piece.id,
      text,
      parent: prev?.parent ?? null,
      augmentation_type: hierarchy ? "hierarchy" : "metadata_extension",
    };
  }
}

function metadataText(res: ResourceDoc, types: string[]): string {
  let out = "";
  if (types.includes("origin") && res.origin) out += `\n\nDOCUMENT METADATA AT ORIGIN:\n${JSON.stringify(res.origin)}`;
  if (types.includes("classification_labels")) {
    const labels = (res.usermetadata?.classifications ?? []).map((c) => ` - ${c.labelset}/${c.label}`);
    if (labels.length) out += `\n\nDOCUMENT CLASSIFICATION LABELS:\n${labels.join("\n")}`;
  }
  if (types.includes("extra_metadata") && res.extra?.metadata)
    out += `\n\nDOCUMENT EXTRA METADATA:\n${JSON.stringify(res.extra.metadata)}`;
  return out;
}

/** Keep pieces in order until the budget is spent (the last one cut to fit); number the footnote blocks. */
function budget(
  pieces: ContextPiece[],
  maxTokens: number,
  footnotes: boolean,
  augmented: BuiltContext["augmented"],
): BuiltContext {
  const kept: ContextPiece[] = [];
  let tokens = 0;
  let truncated = false;
  for (const p of pieces) {
    const t = approxTokens(p.text);
    if (tokens + t > maxTokens) {
      truncated = true;
      const room = maxTokens - tokens;
      if (room >= 16) {
        kept.push({ ...p, text: p.text.slice(0, room * 4) });
        tokens += room;
      }
      break;
    }
    kept.push(p);
    tokens += t;
  }
  if (footnotes) {
    for (const [i, p] of kept.entries()) p.block = blockId(i);
  }
  return { pieces: kept, augmented, tokens, truncated };
}

/** `block-AA`, `block-AB`, … */
export function blockId(i: number): string {
  const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return `block-${a[Math.floor(i / 26) % 26]}${a[i % 26]}`;
}
