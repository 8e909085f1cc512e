import { describe, expect, test } from "vitest";
import { fileBlobKey } from "../../../daemon/store/keys.js";

describe("blob keys", () => {
  test("a new key for every file blob: its last part 8 random hex digits, the pool refilled with new bytes, not replayed", () => {
    const rid = "a".repeat(32);
    // 1,024 nonces per 4 KiB pool: three pools' worth.
    const keys = Array.from({ length: 3072 }, () => fileBlobKey(rid, "my file"));
    for (const k of keys) expect(k).toMatch(new RegExp(`^r/${rid}/f/my_20file/[0-9a-f]{8}$`));
    const nonces = keys.map((k) => k.slice(-8));
    // 32 random bits: a handful of repeats at most among 3,072 (expected 0.001), never a replayed pool.
    expect(new Set(nonces).size).toBeGreaterThan(3068);
    expect(nonces.slice(1024, 2048)).not.toEqual(nonces.slice(0, 1024));
  });
});
