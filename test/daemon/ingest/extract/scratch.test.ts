import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "vitest";
import { extractFileField } from "../../../../daemon/ingest/extract/index.js";
import { splitParagraphs } from "../../../../daemon/ingest/split.js";
import { buildDocx, buildEpub, buildOdt, buildPdf, buildPptx, buildXlsx } from "../../../fixtures/documents.js";

test("scratch", async () => {
  const dir = await mkdtemp(join(tmpdir(), "kx-"));
  const t = [["Name", "Qty"], ["apple", "3"], ["pear", "5"]];
  await buildPdf(join(dir, "a.pdf"), ["Page one first para.\n\nPage one second para.", "Page two."], { title: "T" });
  await buildPdf(join(dir, "e.pdf"), ["Secret"], { userPassword: "pw" });
  await buildDocx(join(dir, "a.docx"), { title: "Doc", sections: [{ heading: "Intro", paragraphs: ["Hello docx world.", "Second."] }], table: t });
  await buildPptx(join(dir, "a.pptx"), [{ title: "Slide A", lines: ["alpha", "beta"], table: t }, { title: "Slide B", lines: ["gamma"] }]);
  await buildXlsx(join(dir, "a.xlsx"), [{ name: "S1", rows: t }, { name: "S2", rows: [["x", 1]] }]);
  await buildEpub(join(dir, "a.epub"), { title: "Book", language: "en", chapters: [{ title: "Ch1", paragraphs: ["One."] }, { title: "Ch2", paragraphs: ["Two."] }] });
  await buildOdt(join(dir, "a.odt"), { title: "Odt", sections: [{ heading: "H", paragraphs: ["odt para"] }], table: t });
  for (const f of ["a.pdf", "e.pdf", "a.docx", "a.pptx", "a.xlsx", "a.epub", "a.odt"]) {
    try {
      const ex = await extractFileField({ path: join(dir, f), password: f === "e.pdf" ? "pw" : undefined });
      console.log(f, JSON.stringify(ex), JSON.stringify(splitParagraphs(ex).map((p) => [p.text, p.page_number, p.is_a_table])));
    } catch (e) { console.log(f, "ERR", e); }
  }
});
