import { describe, expect, it } from "vitest";
import { splitParagraphs } from "../../../daemon/ingest/split.js";
import { splitOptionsOf } from "../../../daemon/ingest/strategy.js";
import type { Extracted } from "../../../daemon/ingest/types.js";
import { CUSTOM_SPLIT } from "../../../src/api/strategies.js";

const ex = (text: string): Extracted => ({ text, metadata: {} });
const texts = (text: string, opts: Parameters<typeof splitParagraphs>[1]) => splitParagraphs(ex(text), opts).map((p) => p.text);

describe("split options", () => {
  it("a literal splitter replaces blank lines; empty pieces and the separator itself vanish", () => {
    expect(texts("--a\n\nb----c--", { splitter: "--" })).toEqual(["a\n\nb", "c"]);
    // Regex characters are literal.
    expect(texts("x.*y.*z", { splitter: ".*" })).toEqual(["x", "y", "z"]);
  });

  it("pieces longer than maxChars are still cut at sentence ends, positions slice the text", () => {
    const text = "Aaaa aaaa aaaa aaaa. Bbbb bbbb.|Cc.";
    const ps = splitParagraphs(ex(text), { splitter: "|", maxChars: 24 });
    expect(ps.map((p) => p.text)).toEqual(["Aaaa aaaa aaaa aaaa.", "Bbbb bbbb.", "Cc."]);
    for (const p of ps) expect(text.slice(p.start, p.end)).toBe(p.text);
  });

  it("maps hosted configurations: LLM options are ignored, 0 means the default", () => {
    expect(splitOptionsOf({ name: "", max_paragraph: 0 })).toBeUndefined();
    expect(splitOptionsOf({ name: "", max_paragraph: 300, custom_split: CUSTOM_SPLIT.LLM, llm_split: { rules: ["x"] } })).toEqual(
      { maxChars: 300 },
    );
    expect(
      splitOptionsOf({ name: "", max_paragraph: 0, custom_split: CUSTOM_SPLIT.MANUAL, manual_split: { splitter: "#" } }),
    ).toEqual({ splitter: "#" });
  });
});
