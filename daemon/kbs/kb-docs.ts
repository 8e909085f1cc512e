import type { DocTable } from "../store/doc-table.js";
import type { KbStore } from "../store/index.js";
import type { KbService } from "./service.js";

/** Document tables opened, by box and name: one instance per table, whoever reads it (a service, ingestion). */
const opened = new WeakMap<KbStore, Map<string, Promise<DocTable<unknown>>>>();

/** The document table `name` of an open knowledge box, opened once. */
export function docTableOf<T>(store: KbStore, name: string): Promise<DocTable<T>> {
  let byName = opened.get(store);
  if (!byName) {
    byName = new Map();
    opened.set(store, byName);
  }
  let t = byName.get(name);
  if (!t) {
    t = store.docTable<unknown>(name);
    byName.set(name, t);
  }
  return t as Promise<DocTable<T>>;
}

/** A document table of every knowledge box under one name, opened once per box. */
export class KbDocs<T> {
  constructor(
    private readonly kbs: KbService,
    private readonly name: string,
  ) {}

  /** The table of a knowledge box (404 when the box does not exist). */
  async of(kbid: string): Promise<DocTable<T>> {
    const { store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return docTableOf<T>(store, this.name);
  }
}
