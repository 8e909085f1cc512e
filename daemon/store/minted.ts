/**
 * Groups (resource ids) minted by this process, with the keys of theirs written since. A key of a
 * minted group not written yet is certainly not on disk, so writing it needs no delete and no merge:
 * an append does. Forgotten at restart, and all at once when large: callers then take the safe path.
 */
export class MintedKeys {
  /** Minted groups, and their keys written since with the version on disk when the writer gave one. */
  private readonly groups = new Map<string, Map<string, number | undefined>>();

  constructor(private readonly limit = 100_000) {}

  /** A group id was just minted: none of its keys exists yet. */
  mint(group: string): void {
    if (this.groups.size >= this.limit) this.groups.clear();
    this.groups.set(group, new Map());
  }

  /** Certainly absent from disk (false when unsure). */
  absent(group: string, key: string): boolean {
    return this.versions(group, key)?.length === 0;
  }

  /**
   * The versions of a key on disk when certainly known: none for a key of a minted group not written
   * yet, the one written for a key written with its version; undefined when unsure.
   */
  versions(group: string, key: string): number[] | undefined {
    const keys = this.groups.get(group);
    if (!keys) return undefined;
    if (!keys.has(key)) return [];
    const seq = keys.get(key);
    return seq === undefined ? undefined : [seq];
  }

  /** The key is on disk now (as version `seq`, when the table has versions). */
  written(group: string, key: string, seq?: number): void {
    this.groups.get(group)?.set(key, seq);
  }

  /** The key was deleted: absent again. */
  deleted(key: string): void {
    for (const keys of this.groups.values()) keys.delete(key);
  }

  /** The group was deleted, or what landed of it is unsure: back to the safe path. */
  forget(group: string): void {
    this.groups.delete(group);
  }
}
