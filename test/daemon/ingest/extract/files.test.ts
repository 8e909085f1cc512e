import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ExtractionError, extractFileField } from "../../../../daemon/ingest/extract/index.js";
import { splitParagraphs } from "../../../../daemon/ingest/split.js";
import type { Extracted } from "../../../../daemon/ingest/types.js";
import { buildDocx, buildEpub, buildOdt, buildPdf, buildPptx, buildXlsx } from "../../../fixtures/documents.js";

let dir: string;
const at = (name: string) => join(dir, name);
const TABLE = [
  ["Fruit", "Quantity"],
  ["apple", "3"],
  ["pear", "5"],
];
const EN = "The library opens every morning at nine and closes in the evening after the last reader leaves.";

/** [text, page_number, is_a_table] of every paragraph. */
const paras = (ex: Extracted) => splitParagraphs(ex).map((p) => [p.text, p.page_number, p.is_a_table]);

async function extractionError(p: Promise<unknown>): Promise<ExtractionError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kbox-extract-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("extractFileField: PDF", () => {
  test("multi-page PDF: text per page, page numbers, paragraphs, metadata and language", async () => {
    await buildPdf(
      at("multi.pdf"),
      [`Chapter one.\n\n${EN}`, "The second page talks about rivers.", "Third page: café, naïve, ünïcode."],
      {
        title: "Handbook",
        author: "Ada",
      },
    );
    const ex = await extractFileField({ path: at("multi.pdf"), filename: "multi.pdf" });
    expect(ex.metadata).toMatchObject({
      mime_type: "application/pdf",
      page_count: 3,
      title: "Handbook",
      author: "Ada",
      language: "en",
    });
    expect(ex.pages?.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(ex.text.slice(ex.pages?.[1].start, ex.pages?.[1].end)).toBe("The second page talks about rivers.");
    expect(paras(ex)).toEqual([
      ["Chapter one.", 1, false],
      [EN, 1, false],
      ["The second page talks about rivers.", 2, false],
      ["Third page: café, naïve, ünïcode.", 3, false],
    ]);
    const ps = splitParagraphs(ex);
    expect(ps[2].start).toBe(ex.text.indexOf("The second page"));
    expect(ps.map((p) => p.index)).toEqual([0, 1, 2, 3]);
  });

  test("a long PDF (40 pages) keeps every page in order", async () => {
    const pages = Array.from({ length: 40 }, (_, i) => `This is page number ${i + 1} of the long report.`);
    await buildPdf(at("long.pdf"), pages);
    const ex = await extractFileField({ path: at("long.pdf") });
    expect(ex.metadata.page_count).toBe(40);
    expect(paras(ex)).toEqual(pages.map((t, i) => [t, i + 1, false]));
  });

  test("password-protected PDF: opened with the password, clear errors without or with a wrong one", async () => {
    await buildPdf(at("secret.pdf"), ["The vault code is kept on page one."], { userPassword: "s3cret" });
    const ex = await extractFileField({ path: at("secret.pdf"), password: "s3cret" });
    expect(ex.text).toBe("The vault code is kept on page one.");
    expect(ex.pages).toEqual([{ start: 0, end: ex.text.length, page: 1 }]);
    const missing = await extractionError(extractFileField({ path: at("secret.pdf") }));
    expect(missing.code_str).toBe("PASSWORD_REQUIRED");
    expect(missing.message).toMatch(/password/i);
    const wrong = await extractionError(extractFileField({ path: at("secret.pdf"), password: "nope" }));
    expect(wrong.code_str).toBe("WRONG_PASSWORD");
  });

  test("a corrupt PDF ends in ExtractionError with a message", async () => {
    await writeFile(at("corrupt.pdf"), "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a pdf body\n%%EOF");
    const err = await extractionError(extractFileField({ path: at("corrupt.pdf"), filename: "corrupt.pdf" }));
    expect(err.code_str).toBe("CORRUPT_FILE");
    expect(err.code).toBe(1);
    expect(err.message).toMatch(/PDF/);
  });

  test("a trap in PDFium costs that document only: the next one is read by a fresh module", async () => {
    const { loadPdfium } = await import("../../../../daemon/ingest/extract/pdfium.js");
    await buildPdf(at("trap.pdf"), ["Text read after a trap."]);
    const first = await loadPdfium();
    // A bad memory access in the middle of a page, as a malformed document could cause.
    const raw = first.raw;
    const trap = () => {
      throw new WebAssembly.RuntimeError("memory access out of bounds");
    };
    (first as { raw: typeof raw }).raw = { ...raw, FPDFText_CountChars: trap };
    const err = await extractionError(extractFileField({ path: at("trap.pdf") }));
    expect(err.message).toMatch(/memory access out of bounds/);
    const next = await loadPdfium();
    expect(next).not.toBe(first);
    expect((await extractFileField({ path: at("trap.pdf") })).text).toBe("Text read after a trap.");
  });

  test("a truncated real PDF ends in ExtractionError", async () => {
    await buildPdf(at("whole.pdf"), ["Some text that will be cut off."]);
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(at("whole.pdf"));
    await writeFile(at("truncated.pdf"), bytes.subarray(0, Math.floor(bytes.length / 3)));
    const err = await extractionError(extractFileField({ path: at("truncated.pdf") }));
    expect(err.message.length).toBeGreaterThan(10);
  });

  test("reading a PDF leaves the engine's Array.prototype.push and JSON in place (pdf.js's legacy build replaces them)", async () => {
    // A fresh process: this one may have loaded pdf.js already, and its polyfills pass for native code.
    await buildPdf(at("natives.pdf"), ["Some text about engines."]);
    const script = at("natives.mts");
    const ext = new URL("../../../../daemon/ingest/extract/index.ts", import.meta.url).href;
    // PDFium reads the text; pdf.js is loaded only to render pages for OCR: load it as that path does.
    const pdfjs = new URL("../../../../daemon/ingest/extract/pdfjs.ts", import.meta.url).href;
    await writeFile(
      script,
      `const natives = [Array.prototype.push, JSON.parse, JSON.stringify];
const { extractFileField } = await import(${JSON.stringify(ext)});
await (await import(${JSON.stringify(pdfjs)})).loadPdfjs();
const ex = await extractFileField({ path: ${JSON.stringify(at("natives.pdf"))} });
const now = [Array.prototype.push, JSON.parse, JSON.stringify];
console.log(JSON.stringify({ text: ex.text, same: natives.map((f, i) => f === now[i]), added: typeof Promise.withResolvers }));`,
    );
    const { execFile } = await import("node:child_process");
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", script], { cwd: new URL("../../../../", import.meta.url) }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const r = JSON.parse(out.trim().split("\n").at(-1) as string);
    expect(r.text).toContain("Some text about engines.");
    expect(r.same).toEqual([true, true, true]);
    expect(r.added).toBe("function"); // what pdf.js needs and Node 20 lacks stays
  });
});

describe("extractFileField: office and e-book formats", () => {
  test("DOCX: headings, paragraphs and a table marked is_a_table", async () => {
    await buildDocx(at("report.docx"), {
      title: "Quarterly report",
      sections: [
        { heading: "Introduction", paragraphs: [EN, "Second paragraph of the introduction."] },
        { heading: "Inventory", paragraphs: ["The table below lists the fruit."] },
      ],
      table: TABLE,
    });
    const ex = await extractFileField({ path: at("report.docx") });
    expect(ex.metadata).toMatchObject({ title: "Quarterly report", language: "en" });
    expect(ex.metadata.mime_type).toContain("wordprocessingml");
    expect(paras(ex)).toEqual([
      ["Introduction", 0, false],
      [EN, 0, false],
      ["Second paragraph of the introduction.", 0, false],
      ["Inventory", 0, false],
      ["The table below lists the fruit.", 0, false],
      ["Fruit | Quantity\napple | 3\npear | 5", 0, true],
    ]);
  });

  test("PPTX: one page per slide, slide tables are tables", async () => {
    await buildPptx(at("deck.pptx"), [
      { title: "Roadmap", lines: ["Ship the daemon", "Ship the CLI"], table: TABLE },
      { title: "Questions", lines: ["Ask anything"] },
    ]);
    const ex = await extractFileField({ path: at("deck.pptx") });
    expect(ex.metadata.page_count).toBe(2);
    expect(paras(ex)).toEqual([
      ["Roadmap", 1, false],
      ["Ship the daemon", 1, false],
      ["Ship the CLI", 1, false],
      ["Fruit | Quantity\napple | 3\npear | 5", 1, true],
      ["Questions", 2, false],
      ["Ask anything", 2, false],
    ]);
  });

  test("XLSX: each sheet is a page of table rows", async () => {
    await buildXlsx(at("book.xlsx"), [
      { name: "Fruit", rows: TABLE },
      {
        name: "Prices",
        rows: [
          ["item", "price"],
          ["apple", 1.5],
        ],
      },
    ]);
    const ex = await extractFileField({ path: at("book.xlsx") });
    expect(ex.metadata).toMatchObject({ page_count: 2, sheets: ["Fruit", "Prices"] });
    expect(paras(ex)).toEqual([
      ["Fruit | Quantity\napple | 3\npear | 5", 1, true],
      ["item | price\napple | 1.5", 2, true],
    ]);
  });

  test("EPUB: chapters in spine order, one page each, with book metadata", async () => {
    await buildEpub(at("book.epub"), {
      title: "River Stories",
      language: "en",
      chapters: [
        { title: "Spring", paragraphs: [EN] },
        { title: "Autumn", paragraphs: ["Leaves fall on the water.", "The river slows down."] },
      ],
    });
    const ex = await extractFileField({ path: at("book.epub") });
    expect(ex.metadata).toMatchObject({
      mime_type: "application/epub+zip",
      title: "River Stories",
      language: "en",
      page_count: 2,
    });
    expect(paras(ex)).toEqual([
      ["Spring", 1, false],
      [EN, 1, false],
      ["Autumn", 2, false],
      ["Leaves fall on the water.", 2, false],
      ["The river slows down.", 2, false],
    ]);
  });

  test("ODT: headings, paragraphs and tables", async () => {
    await buildOdt(at("notes.odt"), { title: "Notes", sections: [{ heading: "Plan", paragraphs: [EN] }], table: TABLE });
    const ex = await extractFileField({ path: at("notes.odt") });
    expect(ex.metadata).toMatchObject({ mime_type: "application/vnd.oasis.opendocument.text", title: "Notes" });
    expect(paras(ex)).toEqual([
      ["Plan", 0, false],
      [EN, 0, false],
      ["Fruit | Quantity\napple | 3\npear | 5", 0, true],
    ]);
  });
});

describe("extractFileField: text formats", () => {
  test("CSV rows become a table (delimiter sniffed, quotes honoured)", async () => {
    await writeFile(at("data.csv"), 'name;note\nann;"likes; semicolons"\nbob;plain\n');
    const ex = await extractFileField({ path: at("data.csv") });
    expect(ex.metadata.mime_type).toBe("text/csv");
    expect(paras(ex)).toEqual([["name | note\nann | likes; semicolons\nbob | plain", 0, true]]);
  });

  test("HTML file: visible text, title and language; scripts and styles dropped", async () => {
    await writeFile(
      at("page.html"),
      `<!doctype html><html lang="fr"><head><title>Accueil</title><style>p{color:red}</style></head><body><h1>Bonjour</h1><p>Le <b>texte</b> visible.</p><script>var hidden = 1;</script><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>`,
    );
    const ex = await extractFileField({ path: at("page.html") });
    expect(ex.metadata).toMatchObject({ mime_type: "text/html", title: "Accueil", language: "fr" });
    expect(paras(ex)).toEqual([
      ["Bonjour", 0, false],
      ["Le texte visible.", 0, false],
      ["a | b\n1 | 2", 0, true],
    ]);
  });

  test("Markdown, plain text, source code, JSON", async () => {
    await writeFile(at("readme.md"), "# Title\n\nSome *emphasis* and `code`.\n\n- one\n- two\n");
    const md = await extractFileField({ path: at("readme.md") });
    expect(md.metadata.mime_type).toBe("text/markdown");
    // The opening heading is the document's title, not a paragraph of its own.
    expect(md.metadata.title).toBe("Title");
    expect(paras(md).map((p) => p[0])).toEqual(["Some emphasis and code.", "one\ntwo"]);
    await writeFile(at("fm.md"), '---\ntitle: "Front: matter"\ntags: [a]\n---\nIntro line.\n\n# Not the title\n\nBody.\n');
    const fm = await extractFileField({ path: at("fm.md") });
    expect(fm.metadata.title).toBe("Front: matter");
    expect(paras(fm).map((p) => p[0])).toEqual(["Intro line.", "Not the title", "Body."]);

    await writeFile(at("notes.txt"), "First line\nsame paragraph.\r\n\r\nSecond paragraph.");
    const txt = await extractFileField({ path: at("notes.txt") });
    expect(txt.text).toBe("First line\nsame paragraph.\n\nSecond paragraph.");
    expect(paras(txt).map((p) => p[0])).toEqual(["First line\nsame paragraph.", "Second paragraph."]);

    const code = "def add(a, b):\n    return a + b\n";
    await writeFile(at("add.py"), code);
    const py = await extractFileField({ path: at("add.py") });
    expect(py.metadata.mime_type).toBe("text/x-source;ext=py");
    expect(py.text).toBe(code);

    await writeFile(at("doc.json"), JSON.stringify({ title: "Hello", items: [{ body: "World" }, 3, null] }));
    const json = await extractFileField({ path: at("doc.json") });
    expect(paras(json).map((p) => p[0])).toEqual(["Hello", "World"]);
  });

  test("Latin-1 and UTF-16 text files are decoded", async () => {
    await writeFile(at("latin1.txt"), Buffer.from("Café crème brûlée", "latin1"));
    expect((await extractFileField({ path: at("latin1.txt") })).text).toBe("Café crème brûlée");
    await writeFile(at("utf16.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Grüße aus Köln", "utf16le")]));
    expect((await extractFileField({ path: at("utf16.txt") })).text).toBe("Grüße aus Köln");
  });
});

describe("extractFileField: type detection and failures", () => {
  test("the type comes from the content, not the name or the declared type", async () => {
    await buildPdf(at("real.pdf"), ["Hidden behind a misleading name."]);
    await copyFile(at("real.pdf"), at("misnamed.txt"));
    const ex = await extractFileField({ path: at("misnamed.txt"), filename: "misnamed.txt", contentType: "text/plain" });
    expect(ex.metadata.mime_type).toBe("application/pdf");
    expect(ex.text).toBe("Hidden behind a misleading name.");

    await buildDocx(at("real.docx"), { sections: [{ heading: "Misnamed", paragraphs: ["A DOCX saved as .bin"] }] });
    await copyFile(at("real.docx"), at("upload.bin"));
    const docx = await extractFileField({ path: at("upload.bin"), contentType: "application/octet-stream" });
    expect(docx.text).toBe("Misnamed\n\nA DOCX saved as .bin");
  });

  test("an unknown binary ends in ExtractionError UNSUPPORTED_FORMAT with a message", async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    await writeFile(at("blob.dat"), bytes);
    const err = await extractionError(extractFileField({ path: at("blob.dat"), filename: "blob.dat" }));
    expect(err.code_str).toBe("UNSUPPORTED_FORMAT");
    expect(err.message).toContain("blob.dat");
  });

  test("with OCR off, an image (PNG) is reported as unsupported, by its type", async () => {
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000020001e221bc330000000049454e44ae426082",
      "hex",
    );
    await writeFile(at("pixel.png"), png);
    const err = await extractionError(extractFileField({ path: at("pixel.png"), ocr: false }));
    expect(err.code_str).toBe("UNSUPPORTED_FORMAT");
    expect(err.message).toContain("image/png");
    expect(err.message).toContain("OCR is off");
  });

  test("a damaged DOCX (zip signature, broken archive) is CORRUPT_FILE", async () => {
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(at("real.docx"));
    await writeFile(at("broken.docx"), bytes.subarray(0, 200));
    const err = await extractionError(extractFileField({ path: at("broken.docx") }));
    expect(["CORRUPT_FILE", "UNSUPPORTED_FORMAT"]).toContain(err.code_str);
    expect(err.message.length).toBeGreaterThan(10);
  });

  test("an empty file extracts to empty text", async () => {
    await writeFile(at("empty.txt"), "");
    const ex = await extractFileField({ path: at("empty.txt") });
    expect(ex.text).toBe("");
    expect(splitParagraphs(ex)).toEqual([]);
  });

  test("the caller's language wins over detection", async () => {
    await writeFile(at("lang.txt"), EN);
    expect((await extractFileField({ path: at("lang.txt") })).metadata.language).toBe("en");
    expect((await extractFileField({ path: at("lang.txt"), language: "ca" })).metadata.language).toBe("ca");
  });
});
