import { describe, expect, test } from "vitest";
import {
  ExtractionError,
  extractConversationField,
  extractGenericField,
  extractKeyValueField,
  extractTextField,
} from "../../../../daemon/ingest/extract/index.js";
import { detectLanguage, loadLanguageDetector } from "../../../../daemon/ingest/language.js";
import { splitParagraphs } from "../../../../daemon/ingest/split.js";
import type { Extracted } from "../../../../daemon/ingest/types.js";

const texts = (ex: Extracted) => splitParagraphs(ex).map((p) => p.text);

describe("extractTextField", () => {
  test("PLAIN keeps the text; blank lines separate paragraphs, single newlines do not", async () => {
    const ex = await extractTextField({ body: "Line one\nline two.\r\n\r\nNext paragraph here.", format: "PLAIN" });
    expect(ex.text).toBe("Line one\nline two.\n\nNext paragraph here.");
    expect(texts(ex)).toEqual(["Line one\nline two.", "Next paragraph here."]);
    expect((await extractTextField({ body: "no format given" })).text).toBe("no format given");
  });

  test("PLAIN_BLANKLINE_SPLIT: every blank-line block is its own paragraph, marked by breaks", async () => {
    const ex = await extractTextField({
      body: "A first block.\n\n\nB second block.\n  \nC third.",
      format: "PLAIN_BLANKLINE_SPLIT",
    });
    expect(ex.breaks).toEqual([ex.text.indexOf("B second"), ex.text.indexOf("C third")]);
    expect(texts(ex)).toEqual(["A first block.", "B second block.", "C third."]);
  });

  test("MARKDOWN becomes plain text; tables are table spans", async () => {
    const body =
      "# Heading\n\nSome **bold** and [a link](http://x.test).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode  block\n```";
    const ex = await extractTextField({ body, format: "MARKDOWN" });
    const ps = splitParagraphs(ex);
    expect(ps.map((p) => [p.text, p.is_a_table])).toEqual([
      ["Heading", false],
      ["Some bold and a link.", false],
      ["a | b\n1 | 2", true],
      ["code  block", false],
    ]);
  });

  test("KEEP_MARKDOWN keeps the markdown; headings are hard breaks and tables table spans", async () => {
    const body = "# Title\nintro line\n## Part\nbody text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const ex = await extractTextField({ body, format: "KEEP_MARKDOWN" });
    expect(ex.text).toBe(body);
    const ps = splitParagraphs(ex);
    expect(ps.map((p) => [p.text, p.is_a_table])).toEqual([
      ["# Title\nintro line", false],
      ["## Part\nbody text", false],
      ["| a | b |\n|---|---|\n| 1 | 2 |", true],
    ]);
  });

  test("HTML becomes its visible text", async () => {
    const ex = await extractTextField({
      body: "<h2>News</h2><p>Hello&nbsp;<i>world</i></p><ul><li>x</li><li>y</li></ul>",
      format: "HTML",
    });
    expect(texts(ex)).toEqual(["News", "Hello world", "x\ny"]);
  });

  test("RST: titles, inline markup and directives are reduced to text", async () => {
    const body =
      "Guide\n=====\n\nUse ``kbox add`` to *ingest* files, see `the docs <http://x.test>`_.\n\n.. note:: Keep it short.\n\nSection\n-------\nText under section.";
    const ex = await extractTextField({ body, format: "RST" });
    expect(texts(ex)).toEqual([
      "Guide",
      "Use kbox add to ingest files, see the docs.",
      "Keep it short.",
      "Section",
      "Text under section.",
    ]);
  });

  test("JSON: string values flattened; invalid JSON is an ExtractionError", async () => {
    const ex = await extractTextField({
      body: JSON.stringify({ a: "first", b: { c: ["second", 2, true], d: "third" } }),
      format: "JSON",
    });
    expect(texts(ex)).toEqual(["first", "second", "third"]);
    await expect(extractTextField({ body: "{nope", format: "JSON" })).rejects.toBeInstanceOf(ExtractionError);
  });

  test("JSONL: one paragraph per line, even when a line's strings hold blank lines", async () => {
    const body = `${JSON.stringify({ q: "What?", a: "This.\n\nAnd that." })}\n\n${JSON.stringify({ q: "Who?" })}\nnot json at all\n`;
    const ex = await extractTextField({ body, format: "JSONL" });
    expect(texts(ex)).toEqual(["What?\nThis.\nAnd that.", "Who?", "not json at all"]);
    expect(ex.breaks?.length).toBe(2);
  });
});

describe("conversation, key-value and generic fields", () => {
  test("a conversation has one split per message ident, each with its own text and language", async () => {
    const ex = await extractConversationField({
      messages: [
        { ident: "m1", who: "ann", content: { text: "Where is the nearest library, and when does it open in the morning?" } },
        {
          ident: "m2",
          who: "bob",
          content: { text: "<p>La biblioteca abre a las nueve de la mañana todos los días.</p>", format: "HTML" },
        },
        { ident: "m3", content: { text: "{broken", format: "JSON" } },
      ],
    });
    expect(Object.keys(ex.splits ?? {})).toEqual(["m1", "m2", "m3"]);
    expect(ex.splits?.m2.text).toBe("La biblioteca abre a las nueve de la mañana todos los días.");
    expect(ex.splits?.m1.metadata).toMatchObject({ who: "ann", language: "en" });
    expect(ex.splits?.m2.metadata.language).toBe("es");
    expect(ex.splits?.m3.text).toBe("{broken");
    expect(texts(ex)).toHaveLength(3);
    expect(ex.metadata.languages).toEqual(expect.arrayContaining(["en", "es"]));
  });

  test("key-value data is text, one entry per paragraph", async () => {
    const ex = extractKeyValueField({ data: { color: "blue", size: "large" } });
    expect(texts(ex)).toEqual(["color: blue", "size: large"]);
  });

  test("generic title and summary have kinds TITLE and DESCRIPTION", () => {
    const title = extractGenericField("title", "Annual report");
    expect(title.kind).toBe("TITLE");
    expect(splitParagraphs(title).map((p) => [p.text, p.kind])).toEqual([["Annual report", "TITLE"]]);
    expect(extractGenericField("summary", "A summary.").kind).toBe("DESCRIPTION");
    expect(extractGenericField("other", "x").kind).toBe("TEXT");
  });
});

describe("detectLanguage", () => {
  test("ISO 639-1 codes; short, empty or ambiguous text gives no language", async () => {
    await loadLanguageDetector();
    expect(detectLanguage("The quick brown fox jumps over the lazy dog near the river bank.").language).toBe("en");
    expect(detectLanguage("Le renard brun rapide saute par-dessus le chien paresseux.").language).toBe("fr");
    expect(detectLanguage("Der schnelle braune Fuchs springt über den faulen Hund.").language).toBe("de");
    expect(detectLanguage("")).toEqual({ languages: [] });
    expect(detectLanguage("ok")).toEqual({ languages: [] });
    expect(detectLanguage("12345 67890 !!! ???")).toEqual({ languages: [] });
  });

  test("a document in two languages lists both", async () => {
    await loadLanguageDetector();
    const en = "The library opens every morning at nine and closes in the evening after the last reader leaves. ".repeat(30);
    const es = "La biblioteca abre todas las mañanas a las nueve y cierra por la tarde cuando se va el último lector. ".repeat(
      30,
    );
    const r = detectLanguage(en + es);
    expect(r.languages).toEqual(expect.arrayContaining(["en", "es"]));
    expect(["en", "es"]).toContain(r.language);
  });
});
