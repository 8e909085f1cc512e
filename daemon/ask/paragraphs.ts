import { type KbStore, ridOf } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";

/** A stored paragraph as the context strategies need it. */
export type StoredParagraph = Pick<
  ParagraphRow,
  "id" | "rid" | "field" | "field_type" | "split" | "start" | "end" | "idx" | "text"
>;

/** Every paragraph of some resources, read once per ask and kept in reading order. */
export class ParagraphReader {
  private readonly byRid = new Map<string, StoredParagraph[]>();

  constructor(private readonly store: KbStore) {}

  /** Load the paragraphs of these resources (those not loaded yet) in one query. */
  async load(rids: Iterable<string>): Promise<void> {
    const missing = [...new Set(rids)].filter((r) => !this.byRid.has(r));
    if (!missing.length) return;
    const rows = await this.store.paragraphs.ofResources(missing, [
      "id",
      "rid",
      "field",
      "field_type",
      "split",
      "start",
      "end",
      "idx",
      "text",
    ]);
    for (const r of missing) this.byRid.set(r, []);
    for (const row of rows) this.byRid.get(row.rid)?.push(row);
    for (const r of missing) this.byRid.get(r)?.sort(readingOrder);
  }

  /** Paragraphs of a resource (optionally one field), in reading order; load() first. */
  of(rid: string, field?: string): StoredParagraph[] {
    const all = this.byRid.get(rid) ?? [];
    return field ? all.filter((p) => p.field === field) : all;
  }

  /** The paragraph with this id, if its resource is loaded. */
  get(id: string): StoredParagraph | undefined {
    const rid = ridOf(id);
    return rid === undefined ? undefined : this.of(rid).find((p) => p.id === id);
  }

  /** A field's text: its paragraphs joined in order. */
  fieldText(rid: string, field: string): string {
    return this.of(rid, field)
      .map((p) => p.text)
      .join("\n\n");
  }
}

const FIELD_ORDER: Record<string, number> = { a: 0, t: 1, f: 2, u: 3, c: 4, k: 5 };

function readingOrder(a: StoredParagraph, b: StoredParagraph): number {
  const fa = FIELD_ORDER[a.field[0]] ?? 9;
  const fb = FIELD_ORDER[b.field[0]] ?? 9;
  if (fa !== fb) return fa - fb;
  if (a.field !== b.field) return a.field.localeCompare(b.field);
  if (a.split !== b.split) return a.split.localeCompare(b.split, undefined, { numeric: true });
  return a.start - b.start;
}
