import { describe, expect, it } from "vitest";
import { alignCitations, footnoteMap } from "../../../daemon/ask/citations.js";
import { rephraseQuery, shouldRephrase } from "../../../daemon/ask/rephrase.js";
import { extractAnswer } from "../../../daemon/models/generate/extractive.js";
import { splitSentences } from "../../../daemon/models/generate/text.js";
import { FootnoteNumberer } from "../../../src/tui/answer.js";

const R = "0123456789abcdef0123456789abcdef";
const ctx = [
  {
    id: `${R}/t/body/0-120`,
    text: "Our company was founded in 1998 by Ana Silva. It now has offices in Porto, Berlin and Austin.",
  },
  {
    id: `${R}/t/body/121-260`,
    text: "The company employs 450 people. Most of them work remotely. The Porto office has a rooftop garden.",
  },
  {
    id: `${R}/t/body/261-380`,
    text: "Employees get 25 vacation days because rest improves focus. The vacation policy was updated in 2021.",
  },
];
const answer = (q: string) =>
  extractAnswer(q, ctx)
    .map((s) => s.text)
    .join(" ");

describe("extractive answerer", () => {
  it("answers the question type with the supporting sentence", () => {
    expect(answer("When was the company founded?")).toMatch(/^Our company was founded in 1998 by Ana Silva\./);
    expect(answer("How many people does the company employ?")).toContain("450 people");
    expect(answer("How many people does the company employ?")).not.toContain("rooftop");
    expect(answer("Why do employees get 25 vacation days?")).toContain("because rest improves focus");
    expect(answer("Who founded the company?")).toContain("Ana Silva");
  });

  it("keeps pronoun sentences with their antecedent and in reading order", () => {
    const s = extractAnswer("Where does it have offices?", ctx);
    const texts = s.map((x) => x.text);
    expect(texts).toContain("It now has offices in Porto, Berlin and Austin.");
    expect(texts.indexOf("Our company was founded in 1998 by Ana Silva.")).toBe(
      texts.indexOf("It now has offices in Porto, Berlin and Austin.") - 1,
    );
  });

  it("leads a definition question with the sentence that defines the subject", () => {
    const defs = [
      { id: `${R}/t/a/0-90`, text: "Run kbox add to ingest a folder. Use kbox watch to keep it indexed; kbox is fast." },
      {
        id: `${R}/t/b/0-90`,
        text: "Install it with npm. kbox is a local-first knowledge retrieval service. It answers with citations.",
      },
    ];
    const s = extractAnswer("What is kbox?", defs).map((x) => x.text);
    expect(s[0]).toBe("kbox is a local-first knowledge retrieval service.");
  });

  it("splits sentences without breaking on abbreviations", () => {
    expect(splitSentences("Use e.g. the CLI. Then stop.").map((s) => s.text)).toEqual(["Use e.g. the CLI.", "Then stop."]);
  });

  it("splits the hard cases: eg./i.e., code spans, option lines, headings, list items", () => {
    const texts = (t: string) => splitSentences(t).map((s) => (s.heading ? `# ${s.text}` : s.text));
    expect(texts("Use eg. the CLI, i.e. kbox. Then stop.")).toEqual(["Use eg. the CLI, i.e. kbox.", "Then stop."]);
    expect(texts("Run `cfg.load()` first. Then `x. y` works.")).toEqual(["Run `cfg.load()` first.", "Then `x. y` works."]);
    expect(texts("-r, --raw-output\n   With this option, strings are written directly.\n-j, --join-output\n   Like -r.")).toEqual(
      ["-r, --raw-output\n   With this option, strings are written directly.", "-j, --join-output\n   Like -r."],
    );
    expect(texts("Installation\nRun npm install. It is quick.\nThe PQ-3 pressure gauge")).toEqual([
      "# Installation",
      "Run npm install.",
      "It is quick.",
      "# The PQ-3 pressure gauge",
    ]);
    expect(texts("Steps:\n1. Open the lid\n2. Fill it. Close it.")).toEqual([
      "Steps:",
      "1. Open the lid",
      "2. Fill it.",
      "Close it.",
    ]);
    expect(texts("Dr. Smith wrote version 1.2. It shipped.")).toEqual(["Dr. Smith wrote version 1.2.", "It shipped."]);
  });

  it("never answers with a heading or a table of contents, and cleans hard line breaks", () => {
    const pieces = [
      { id: `${R}/t/toc/0-90`, text: "Contents\nInstallation .......... 3\nConfiguration .......... 7" },
      {
        id: `${R}/t/cfg/0-90`,
        text: "Configuration\nThe configuration file lives in\n    /etc/harbour.conf and is read at start.",
      },
    ];
    const s = extractAnswer("Where does the configuration file live?", pieces).map((x) => x.text);
    expect(s).toEqual(["The configuration file lives in /etc/harbour.conf and is read at start."]);
  });
});

describe("citations", () => {
  it("aligns answer sentences to paragraphs, honouring the threshold", () => {
    const a = "The company employs 450 people. Vacation is 25 days for everyone in Berlin.";
    const c = alignCitations(a, ctx, 0.5);
    expect(c[`${R}/t/body/121-260`]).toEqual([[0, 31]]);
    expect(c[`${R}/t/body/261-380`]).toEqual([[32, 75]]);
    expect(Object.keys(alignCitations(a, ctx, 0.99))).toEqual([`${R}/t/body/121-260`]);
  });

  it("maps footnotes and renumbers them across chunks", () => {
    const pieces = ctx.map((p, i) => ({ ...p, block: `block-A${"ABC"[i]}` }));
    expect(footnoteMap("Founded in 1998 [block-AA]. 450 people [block-AB].", pieces)).toEqual({
      "block-AA": ctx[0].id,
      "block-AB": ctx[1].id,
    });
    const n = new FootnoteNumberer();
    const out = ["Founded [blo", "ck-AB] and [block-AA]", " and again [block-AB]."].map((c) => n.push(c)).join("") + n.flush();
    expect(out).toBe("Founded[1] and[2] and again[1].");
  });
});

describe("rephrasing", () => {
  const history = [
    { author: "USER" as const, text: "Tell me about the Porto office" },
    { author: "NUCLIA" as const, text: "It has a rooftop garden." },
  ];
  it("adds the topic of the conversation to a follow-up", () => {
    expect(rephraseQuery("When does it open?", history)).toBe("When does it open porto office");
    expect(shouldRephrase("When does it open?", history, true, undefined)).toBe(true);
    expect(shouldRephrase("When does it open?", [], true, undefined)).toBe(false);
    expect(shouldRephrase("Completely separate question about taxes", history, undefined, 0.5)).toBe(false);
    expect(shouldRephrase("When does it open?", history, undefined, 0.5)).toBe(true);
  });

  it("rephrases only a question that leans on the conversation (the CLI's threshold, 0.5)", () => {
    const trademarks = [
      { author: "USER" as const, text: "Who owns the trademark on the name?" },
      { author: "NUCLIA" as const, text: "The trademark is owned by the foundation." },
    ];
    const leans = (q: string) => shouldRephrase(q, trademarks, true, 0.5);
    for (const q of [
      "How do I create a tar archive?",
      "Is there a way to list files that contain a word?",
      "What is the default compression level?",
      "Which option prints the version?",
    ])
      expect([q, leans(q)]).toEqual([q, false]);
    for (const q of ["And when?", "What about the logo?", "Who registered it?", "Is that free?", "Which one is older?", "Why?"])
      expect([q, leans(q)]).toEqual([q, true]);
  });
});
