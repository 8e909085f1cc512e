import type { DocObserver } from "./doc-table.js";
import type { ResourceDoc } from "./records.js";

/** The sync configuration that owns a resource and the resource's file id there, if any. */
function ownerOf(r: ResourceDoc | undefined): { source: string; file: string } | undefined {
  const file = r?.origin?.sync_metadata?.file_id;
  const source = r?.origin?.source_id;
  return file && source ? { source, file } : undefined;
}

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * The resources each sync configuration owns, by file id (a relative path, a URL, an object key), kept
 * with the resources table's cache: a watched save looks its file up instead of reading every resource
 * of the box (a pass over 10,000 resources was 4 ms of every save, twice, and grew with the box).
 *
 * Holds the documents' own id strings, never copies of them.
 */
export class OriginIndex {
  private readonly bySource = new Map<string, Map<string, string>>();

  constructor(table: { observe(fn: DocObserver<ResourceDoc>): void }) {
    table.observe((rid, before, after) => this.changed(rid, before, after));
  }

  /** The resources a sync configuration owns, by file id: a live view that changes with the table. */
  owned(source: string): ReadonlyMap<string, string> {
    return this.bySource.get(source) ?? NONE;
  }

  private changed(rid: string, before: ResourceDoc | undefined, after: ResourceDoc | undefined): void {
    const was = ownerOf(before);
    const now = ownerOf(after);
    if (was && now && was.source === now.source && was.file === now.file) return;
    if (was) {
      const files = this.bySource.get(was.source);
      // Only its own entry: another resource claiming the same file keeps the place it took.
      if (files?.get(was.file) === rid) {
        files.delete(was.file);
        if (!files.size) this.bySource.delete(was.source);
      }
    }
    if (now) {
      let files = this.bySource.get(now.source);
      if (!files) {
        files = new Map();
        this.bySource.set(now.source, files);
      }
      files.set(now.file, rid);
    }
  }
}
