import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fromLibrary, packLexicon, readPacked, W } from "../../../daemon/entities/lexicon.js";

const dir = mkdtempSync(join(tmpdir(), "kbox-lexicon-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the entity tagger's lexicon", () => {
  it("reads the file the build packs as the lexicon reduced from the library, and only one packed from the installed library", () => {
    const lib = fromLibrary();
    expect(lib.words.size).toBeGreaterThan(10_000);
    expect((lib.words.get("london") ?? 0) & W.PLACE).toBeTruthy();
    const packed = packLexicon(lib);
    const file = join(dir, "lexicon.json");
    writeFileSync(file, packed);
    const read = readPacked(file);
    expect(read?.words).toEqual(lib.words);
    expect(read?.multi).toEqual(lib.multi);
    expect(read?.maxWords).toBe(lib.maxWords);
    // Packed from another version of the library (its stamp differs): not read, the library is.
    const stamp = (JSON.parse(packed) as { library: string }).library;
    const other = join(dir, "other.json");
    writeFileSync(other, packed.replace(JSON.stringify(stamp), JSON.stringify(`0.0.0/${stamp}`)));
    expect(readPacked(other)).toBeUndefined();
    // Missing or torn: nothing read, no error.
    writeFileSync(join(dir, "torn.json"), packed.slice(0, 1000));
    expect(readPacked(join(dir, "torn.json"))).toBeUndefined();
    expect(readPacked(join(dir, "missing.json"))).toBeUndefined();
  });
});
