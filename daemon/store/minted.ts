/**
 * Groups (resource ids) minted by this process, with the keys of theirs written since. A key of a
 * minted group not written yet is certainly not on disk, so writing it needs no delete and no merge:
 * an append does. Forgotten at restart, and all at once when large: callers then take the safe path.
 */
export class MintedKeys {
  private readonly groups = new Map<string, Set<string>>();

  constructor(private readonly limit = 100_000) {}

  /** A group id was just minted: none of its keys exists yet. */
  mint(group: string): void {
    if (this.groups.size >= this.limit) this.groups.clear();
    this.groups.set(group, new Set());
  }

  /** Certainly absent from disk (false when unsure). */
  absent(group: string, key: string): boolean {
    return this.groups.get(group)?.has(key) === false;
  }

  /** The key is on disk now. */
  written(group: string, key: string): void {
    this.groups.get(group)?.add(key);
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
