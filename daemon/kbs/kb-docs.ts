import type { DocTable } from "../store/doc-table.js";
import type { KbStore } from "../store/index.js";
import type { KbService } from "./service.js";

/** A document table of every knowledge box under one name, opened once per box. */
export class KbDocs<T> {
  private readonly tables = new WeakMap<KbStore, Promise<DocTable<T>>>();
  constructor(
    private readonly kbs: KbService,
    private readonly name: string,
  ) {}

  /** The table of a knowledge box (404 when the box does not exist). */
  async of(kbid: string): Promise<DocTable<T>> {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    let t = this.tables.get(store);
    if (!t) {
      t = store.docTable<T>(this.name);
      this.tables.set(store, t);
    }
    return t;
  }
}
