import { describe, expect, it } from "vitest";
import { MintedKeys } from "../../../daemon/store/minted.js";

describe("MintedKeys (keys of groups this process minted)", () => {
  it("knows what a minted group has on disk, for a few keys and for many", () => {
    const m = new MintedKeys();
    expect(m.versions("r1", "a")).toBeUndefined(); // not minted here: unsure
    m.mint("r1");
    expect(m.absent("r1", "a")).toBe(true);
    m.written("r1", "a", 7);
    m.written("r1", "b"); // written without a version: on disk, version unknown
    expect(m.versions("r1", "a")).toEqual([7]);
    expect(m.versions("r1", "b")).toBeUndefined();
    expect(m.absent("r1", "b")).toBe(false);
    m.written("r1", "a", 9);
    expect(m.versions("r1", "a")).toEqual([9]);
    // Past the small array: the same answers from the map it becomes.
    for (let i = 0; i < 20; i++) m.written("r1", `k${i}`, 100 + i);
    for (let i = 0; i < 20; i++) expect(m.versions("r1", `k${i}`)).toEqual([100 + i]);
    expect(m.versions("r1", "a")).toEqual([9]);
    expect(m.absent("r1", "zz")).toBe(true);
    m.mint("r2");
    m.written("r2", "k3", 1);
    m.deleted("k3");
    expect(m.absent("r1", "k3")).toBe(true);
    expect(m.absent("r2", "k3")).toBe(true);
    expect(m.versions("r1", "k4")).toEqual([104]);
    m.forget("r1");
    expect(m.versions("r1", "a")).toBeUndefined();
  });

  it("forgets every group at once past its limit (callers then take the safe path)", () => {
    const m = new MintedKeys(3);
    for (const g of ["a", "b", "c"]) m.mint(g);
    expect(m.absent("a", "x")).toBe(true);
    m.mint("d");
    expect(m.versions("a", "x")).toBeUndefined();
    expect(m.absent("d", "x")).toBe(true);
  });
});
