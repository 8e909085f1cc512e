import { describe, expect, it } from "vitest";
import { extractEntities, fieldEntities } from "../../../daemon/entities/index.js";

const TEXT = "Marie Curie met Albert Einstein in Paris on March 3, 1921. IBM paid 3,000 dollars to the Acme lab.";

describe("extractEntities", () => {
  it("finds people, places, organisations, dates and numbers with their positions", () => {
    const found = extractEntities(TEXT);
    const at = (label: string, text: string) => found.find((e) => e.label === label && e.text === text);
    expect(at("PERSON", "Marie Curie")?.positions).toEqual([{ start: 0, end: 11 }]);
    expect(at("PERSON", "Albert Einstein")).toBeDefined();
    expect(at("LOC", "Paris")?.positions).toEqual([{ start: 35, end: 40 }]);
    expect(at("ORG", "IBM")).toBeDefined();
    expect(at("DATE", "March 3, 1921")).toBeDefined();
    expect(at("NUMBER", "3,000")).toBeDefined();
    // The 3 and 1921 of the date are not numbers of their own.
    expect(found.filter((e) => e.label === "NUMBER").map((e) => e.text)).toEqual(["3,000"]);
    for (const e of found) for (const p of e.positions) expect(TEXT.slice(p.start, p.end)).toBe(e.text);
  });

  it("matches a user's entities group and its synonyms as whole words, naming the entity", () => {
    const groups = [
      { id: "ANIMALS", entities: { cat: { value: "cat", represents: ["kitty", "felis catus"] }, dog: { value: "dog" } } },
    ];
    const found = extractEntities("A Kitty is a felis catus; catalogue and dogma are not animals.", groups, { nlp: false });
    expect(found).toEqual([
      {
        label: "ANIMALS",
        text: "cat",
        positions: [
          { start: 2, end: 7 },
          { start: 13, end: 24 },
        ],
      },
    ]);
  });

  it("leaves the English library out of text in another language, groups still match", () => {
    const groups = [{ id: "CITY", entities: { bcn: { value: "Barcelona" } } }];
    const found = extractEntities("El presidente Pedro Sánchez visitó Barcelona.", groups, { language: "es" });
    expect(found).toEqual([{ label: "CITY", text: "Barcelona", positions: [{ start: 35, end: 44 }] }]);
  });
});

describe("fieldEntities", () => {
  it("builds FieldMetadata members, paragraph facets and relations in the upstream shapes", () => {
    const units = [{ split: "", lang: "en", paragraphs: [{ start: 100, end: 100 + TEXT.length, text: TEXT }] }];
    const f = fieldEntities(units, [], "rid1", (s, a, b) => `rid1/t/body${s}/${a}-${b}`);
    expect(f.metadata.ner["Marie Curie"]).toBe("PERSON");
    expect(f.metadata.positions["PERSON/Marie Curie"]).toEqual({ entity: "Marie Curie", position: [{ start: 100, end: 111 }] });
    expect(f.metadata.entities.processor.entities).toContainEqual({
      text: "Paris",
      label: "LOC",
      positions: [{ start: 135, end: 140 }],
    });
    expect(f.facets.get(`rid1/t/body/100-${100 + TEXT.length}`)).toContain("/e/PERSON/Marie Curie");
    expect(f.relations).toContainEqual({
      relation: "ENTITY",
      label: "met",
      metadata: {
        paragraph_id: `rid1/t/body/100-${100 + TEXT.length}`,
        source_start: 100,
        source_end: 111,
        to_start: 116,
        to_end: 131,
      },
      from: { value: "Marie Curie", type: "entity", group: "PERSON" },
      to: { value: "Albert Einstein", type: "entity", group: "PERSON" },
    });
    expect(f.relations.filter((r) => r.from.type === "resource").map((r) => r.to.value)).toContain("Paris");
    expect(f.paragraphs).toBe(1);
  });
});

describe("the text budget of a field", () => {
  it("reads a long field for entities up to the budget and skips the rest", () => {
    const text = "Marie Curie lived in Paris.";
    const units = [
      {
        split: "",
        lang: "en",
        paragraphs: Array.from({ length: 50 }, (_, i) => ({ text, start: i * 100, end: i * 100 + text.length })),
      },
    ];
    const f = fieldEntities(units, [], "rid1", (s, a, b) => `rid1/t/body${s}/${a}-${b}`, text.length * 10);
    expect(f.paragraphs).toBe(10);
    expect(f.skipped).toBe(40);
    expect(f.metadata.ner).toMatchObject({ "Marie Curie": "PERSON", Paris: "LOC" });
    expect(f.facets.size).toBe(10);
  });
});
