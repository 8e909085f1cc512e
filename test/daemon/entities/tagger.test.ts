import { describe, expect, it } from "vitest";
import { eachToken, tag } from "../../../daemon/entities/tagger.js";
import { pieceTexts } from "../../helpers/piece-texts.js";

/** The tokens of the expression the tagger's scanner stands for. */
const TOKEN = /\d+(?:[.,/:-]\d+)*(?:%|st|nd|rd|th|s)?|[\p{L}\p{M}\p{N}]+(?:['’\-&][\p{L}\p{M}\p{N}]+)*/gu;

/** Pieces chosen to sit on every boundary of the expression. */
const PIECES = [
  "a",
  "Z",
  "7",
  "42",
  "é",
  "e\u0301",
  "\u0301",
  "ß",
  "İ",
  "'",
  "’",
  "-",
  "&",
  "%",
  "st",
  "nd",
  "rd",
  "th",
  "s",
  "t",
  "x",
  ".",
  ",",
  "/",
  ":",
  " ",
  "\n",
  "²",
  "٣",
  "漢字",
  "한",
  "𝒳",
  "😀",
  "\ud800",
  "\udc00",
  "Ⅻ",
  "क्षि",
  "_",
  "3rd",
  "1990s",
  "2.5%",
  "2024-01-31",
  "rock'n'roll",
  "AT&T",
  "e-mail",
  "O’Neil",
  "1,000,000",
  "12:30",
  "3/4",
];

/** The tagger's spans as `LABEL:text`, verbs left out. */
const named = (text: string) =>
  tag(text)
    .filter((t) => t.label !== "VERB")
    .map((t) => `${t.label}:${text.slice(t.start, t.end)}`);

describe("the entity tagger", () => {
  it("reads the tokens of its expression, at the same offsets, on texts built to sit on its boundaries", () => {
    for (const t of pieceTexts(PIECES, 3000)) {
      const got: [number, number][] = [];
      eachToken(t, (start, end) => got.push([start, end]));
      expect(got, JSON.stringify(t)).toEqual([...t.matchAll(TOKEN)].map((m) => [m.index, m.index + m[0].length]));
    }
  });

  it("reads names by their first word, head word or a known place, titles left out of the name", () => {
    expect(named("The University of Warsaw hired Dr. Anna Kowalska in 2019.")).toEqual([
      "ORG:University of Warsaw",
      "PERSON:Anna Kowalska",
      "DATE:2019",
    ]);
    expect(named("The Mississippi River floods every spring near St. Louis.")).toEqual([
      "LOC:Mississippi River",
      "LOC:St. Louis",
    ]);
    expect(named("Microsoft and Google opened offices in New York, not in Dublin.")).toEqual([
      "ORG:Microsoft",
      "ORG:Google",
      "LOC:New York",
      "LOC:Dublin",
    ]);
    expect(named("Einstein's letter reached Ludwig van Beethoven Street.")).toContain("LOC:Ludwig van Beethoven Street");
  });

  it("takes dates with their day and year, weekdays, years after a preposition, numbers with their multiples", () => {
    expect(named("On Monday, 3 March 1921, sales grew 12% to 3.4 million dollars; twenty one came in 1990.")).toEqual([
      "DATE:Monday",
      "DATE:3 March 1921",
      "NUMBER:12%",
      "NUMBER:3.4 million",
      "NUMBER:twenty one",
      "DATE:1990",
    ]);
    // "may" and "march" are months only as names next to a day or year.
    expect(named("We may march on.")).toEqual([]);
    expect(named("It opened May 4 and closed 2024-01-31.")).toEqual(["DATE:May 4", "DATE:2024-01-31"]);
  });

  it("names nothing from a capitalised common word opening a sentence, headings in capitals or unknown words", () => {
    expect(named("Compilers are programs. Alterations of the architecture matter.")).toEqual([]);
    expect(named("DATA SOURCES Medline and EXPERIMENTAL DESIGN notes by Acme.")).toEqual([]);
    // A known organisation in capitals still is one.
    expect(named("The FDA approved it.")).toEqual(["ORG:FDA"]);
  });

  it("reads the verbs between names, a possessive left out of the name", () => {
    const text = "Marie Curie's friend Albert Einstein visited Warsaw.";
    expect(tag(text).map((t) => `${t.label}:${text.slice(t.start, t.end)}`)).toEqual([
      "PERSON:Marie Curie",
      "PERSON:Albert Einstein",
      "VERB:visited",
      "LOC:Warsaw",
    ]);
  });

  it("reads what lies between words by its characters: a comma before a year, a full stop after an initial, tabs, line breaks", () => {
    const all = (text: string) => tag(text).map((t) => `${t.label}:${text.slice(t.start, t.end)}`);
    // A comma (or nothing) then spaces or tabs joins a year to its date; a comma after a space does not.
    expect(all("It opened on March 3,\t1921 in Paris.")).toEqual(["VERB:opened", "DATE:March 3,\t1921", "LOC:Paris"]);
    expect(all("It opened on March 3 ,1921 and on March 4,,1921.")).toEqual([
      "VERB:opened",
      "DATE:March 3",
      "NUMBER:1921",
      "DATE:March 4",
      "NUMBER:1921",
    ]);
    // ". " after an initial keeps the name going; two spaces or none do not.
    expect(all("J. Smith met\tAnna Kowalska and J.  Smith met Dr.Anna Kowalska.")).toEqual([
      "PERSON:J. Smith",
      "VERB:met",
      "PERSON:Anna Kowalska",
      "PERSON:Smith",
      "VERB:met",
      "PERSON:Anna Kowalska",
    ]);
    // A line break or a colon ends a sentence: "May" opening a line is still a month next to its day.
    expect(all("He left Warsaw.\nMay 5 came; Anna Kowalska stayed:Albert Einstein wrote.")).toEqual([
      "LOC:Warsaw",
      "DATE:May 5",
      "VERB:came",
      "PERSON:Anna Kowalska",
      "VERB:stayed",
      "PERSON:Albert Einstein",
      "VERB:wrote",
    ]);
    // Capitals beyond ASCII: words in capitals only name what the lexicon knows.
    expect(all("Émile Zola visited Zürich with ÉCOLE NORMALE and the UNESCO's Paris office.")).toEqual([
      "VERB:visited",
      "ORG:UNESCO",
      "LOC:Paris",
    ]);
    expect(all("ANNA KOWALSKA met anna kowalska in 1990s.")).toEqual(["VERB:met", "DATE:1990s"]);
  });
});
