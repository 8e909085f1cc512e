import { appended, without } from "./small-arrays.js";

/**
 * A minted group's written keys: up to `SMALL_KEYS` as an array of key, version pairs (a resource's
 * few fields), a Map beyond. A Map per group cost about 200 bytes for two keys, twice a resource
 * (fields and paragraphs): 40 MB at 100,000 resources, kept until the limit clears them.
 */
type Keys = (string | number | undefined)[] | Map<string, number | undefined>;
const SMALL_KEYS = 8;
/** A group with no key written yet (shared, never changed: a write replaces it). */
const NONE: Keys = [];

/**
 * Groups (resource ids) minted by this process, with the keys of theirs written since. A key of a
 * minted group not written yet is certainly not on disk, so writing it needs no delete and no merge:
 * an append does. Forgotten at restart, and all at once when large: callers then take the safe path.
 */
export class MintedKeys {
  /** Minted groups, and their keys written since with the version on disk when the writer gave one. */
  private readonly groups = new Map<string, Keys>();

  constructor(private readonly limit = 100_000) {}

  /** A group id was just minted: none of its keys exists yet. */
  mint(group: string): void {
    if (this.groups.size >= this.limit) this.groups.clear();
    this.groups.set(group, NONE);
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
    let seq: number | undefined;
    if (Array.isArray(keys)) {
      const i = indexOf(keys, key);
      if (i < 0) return [];
      seq = keys[i + 1] as number | undefined;
    } else {
      if (!keys.has(key)) return [];
      seq = keys.get(key);
    }
    return seq === undefined ? undefined : [seq];
  }

  /** The key is on disk now (as version `seq`, when the table has versions). */
  written(group: string, key: string, seq?: number): void {
    const keys = this.groups.get(group);
    if (!keys) return;
    if (!Array.isArray(keys)) {
      keys.set(key, seq);
      return;
    }
    const i = indexOf(keys, key);
    if (i >= 0) keys[i + 1] = seq;
    else if (keys.length < 2 * SMALL_KEYS) this.groups.set(group, appended(keys, key, seq));
    else {
      const map = new Map<string, number | undefined>();
      for (let j = 0; j < keys.length; j += 2) map.set(keys[j] as string, keys[j + 1] as number | undefined);
      this.groups.set(group, map.set(key, seq));
    }
  }

  /** The key was deleted: absent again. */
  deleted(key: string): void {
    for (const [group, keys] of this.groups) {
      if (!Array.isArray(keys)) keys.delete(key);
      else {
        const i = indexOf(keys, key);
        if (i >= 0) this.groups.set(group, without(keys, i, 2));
      }
    }
  }

  /** The group was deleted, or what landed of it is unsure: back to the safe path. */
  forget(group: string): void {
    this.groups.delete(group);
  }
}

function indexOf(keys: (string | number | undefined)[], key: string): number {
  for (let i = 0; i < keys.length; i += 2) if (keys[i] === key) return i;
  return -1;
}
