import { describe, expect, test } from "vitest";
import { blobNonce, fileBlobKey } from "../../../daemon/store/keys.js";

describe("blob keys", () => {
  test("a new nonce for every file blob: 8 hex digits, the pool refilled with new bytes, not replayed", () => {
    // 1,024 nonces per 4 KiB pool: three pools' worth.
    const nonces = Array.from({ length: 3072 }, () => blobNonce());
    for (const n of nonces) expect(n).toMatch(/^[0-9a-f]{8}$/);
    // 32 random bits: a handful of repeats at most among 3,072 (expected 0.001), never a replayed pool.
    expect(new Set(nonces).size).toBeGreaterThan(3068);
    expect(nonces.slice(1024, 2048)).not.toEqual(nonces.slice(0, 1024));
    expect(fileBlobKey("a".repeat(32), "my file", nonces[0])).toBe(`r/${"a".repeat(32)}/f/my_20file/${nonces[0]}`);
  });
});
