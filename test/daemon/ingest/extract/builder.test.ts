import { describe, expect, it } from "vitest";
import { collapseSpaces } from "../../../../daemon/ingest/extract/builder.js";
import { pieceTexts } from "../../../helpers/piece-texts.js";

describe("collapseSpaces", () => {
  it("collapses as the expression it stands for, on texts built on every kind of whitespace and run", () => {
    const pieces = ["a", "word", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\u3000", "\ufeff", " \n", "é", "."];
    const texts = pieceTexts(pieces, 3000);
    for (const t of texts) expect(collapseSpaces(t)).toBe(t.replace(/\s+/g, " "));
    expect(collapseSpaces("three plain words")).toBe("three plain words");
    expect(collapseSpaces("a\u00a0b")).toBe("a b");
  });
});
