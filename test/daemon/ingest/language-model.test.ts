import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import eld from "eld/small";
import { beforeAll, describe, expect, test } from "vitest";
import { type Detector, eldDetector, LanguageModel } from "../../../daemon/ingest/language-model.js";
import { paragraphs, rng } from "../../fixtures/corpus.js";

const SENTENCES = [
  "The library opens every morning at nine and closes after the last reader leaves.",
  "La biblioteca abre todas las mañanas a las nueve y cierra por la tarde.",
  "La bibliothèque ouvre chaque matin à neuf heures et ferme le soir.",
  "Die Bibliothek öffnet jeden Morgen um neun Uhr und schließt am Abend.",
  "La biblioteca apre ogni mattina alle nove e chiude la sera.",
  "A biblioteca abre todas as manhãs às nove e fecha à noite.",
  "De bibliotheek gaat elke ochtend om negen uur open en sluit 's avonds.",
  "Biblioteka jest otwierana codziennie o dziewiątej i zamykana wieczorem.",
  "Библиотека открывается каждое утро в девять часов и закрывается вечером.",
  "Η βιβλιοθήκη ανοίγει κάθε πρωί στις εννέα ΚΑΙ ΚΛΕΙΝΕΙ ΤΟ ΒΡΑΔΥ ΣΤΟΥΣ ΑΝΘΡΩΠΟΥΣ.",
  "Kütüphane her sabah dokuzda açılır ve akşam İstanbul'da kapanır.",
  "図書館は毎朝九時に開館し、夕方に閉館します。",
  "图书馆每天早上九点开门，晚上关门。",
  "도서관은 매일 아침 아홉 시에 문을 열고 저녁에 닫습니다.",
  "المكتبة تفتح كل صباح في التاسعة وتغلق في المساء.",
  "पुस्तकालय हर सुबह नौ बजे खुलता है और शाम को बंद होता है।",
  "Kirjasto avataan joka aamu yhdeksältä ja suljetaan illalla.",
  "Knihovna se otevírá každé ráno v devět a zavírá se večer.",
  "It's the readers’ `favourite` place: don't miss it — 100% sure!!!",
];
const NOISE = [
  " ",
  "  ",
  "\n",
  "\t",
  ", ",
  ". ",
  "'",
  "’",
  "`",
  "''' ",
  "12345",
  "3.14",
  "😀",
  "👍🏽",
  " -- ",
  "...",
  "İ",
  "Σ",
  "ς",
  "\u00a0",
];

/** Texts of every kind the detector meets: prose, mixed scripts, separator runs, apostrophes, all lengths. */
function texts(): string[] {
  const rand = rng(17);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const out: string[] = ["", " ", "ok", "12345 67890 !!! ???", ...SENTENCES, ...paragraphs(rand, 200)];
  for (let i = 0; i < 2500; i++) {
    const target = Math.floor(rand() * rand() * 2600);
    let t = "";
    while (t.length < target) {
      const r = rand();
      if (r < 0.6) t += pick(SENTENCES).slice(0, 1 + Math.floor(rand() * 120));
      else if (r < 0.9) t += pick(NOISE);
      else t += pick(SENTENCES).split(" ").reverse().join(pick(NOISE));
    }
    out.push(t);
  }
  // Short words between separator runs, so that eld's byte cut falls near the 500th character, where
  // the model's first pass stops: every kind of character around it.
  const letters = ["a", "ab", "abc", "é", "Σα", "ΑΣ", "İ", "ж", "日本"];
  for (let i = 0; i < 3000; i++) {
    let t = "";
    const run = 1 + rand() * 3;
    while (t.length < 700) t += pick(letters) + pick(NOISE).repeat(Math.ceil(rand() * run));
    out.push(t);
  }
  // Words whose last letter is eld's 380th byte right at the 500th character: a Greek capital sigma
  // there is lower-cased as a final one when the text stops at it, and not in the whole text.
  const greek = "ΚΑΛΗΜΕΡΑΑΝΘΡΩΠΟΙΚΑΙΦΙΛΟΙΤΟΥΛΟΓΟΥ";
  for (let n = 10; n <= 30; n++)
    for (const bytes of [382 - 2 * n, 381 - 2 * n]) {
      // Units "ab!!!!" (6 characters, 3 bytes: "ab ") and "ab " (3 and 3) up to the word.
      const long = (500 - n - bytes) / 3;
      const short = bytes / 3 - long;
      if (!Number.isInteger(long) || !Number.isInteger(short) || long < 0 || short < 0) continue;
      out.push(`${"ab!!!!".repeat(long)}${"ab ".repeat(short)}${greek.slice(0, n - 1)}Σ${greek} λόγος`);
    }
  return out;
}

describe("the packed language model", () => {
  let model: LanguageModel;
  // What the daemon detects with where the model cannot load: eld itself, behind the same interface.
  let fallback: Detector;
  beforeAll(async () => {
    model = await LanguageModel.load();
    fallback = await eldDetector();
  });

  test("gives eld's own detection, language, reliability and the two best scores, on every text", () => {
    const all = texts();
    let detected = 0;
    for (const t of all) {
      const r = eld.detect(t);
      const scores = Object.values(r.getScores()).sort((a, b) => b - a);
      const want = r.language
        ? { language: r.language, reliable: r.isReliable(), top: scores[0], second: scores[1] ?? 0 }
        : undefined;
      if (want) detected++;
      expect(model.detect(t), JSON.stringify(t.slice(0, 200))).toEqual(want);
      expect(fallback.detect(t)).toEqual(want);
    }
    // Most texts are detected, in several languages: the comparison is not of empty results.
    expect(detected).toBeGreaterThan(all.length * 0.9);
    expect(new Set(all.map((t) => model.detect(t)?.language)).size).toBeGreaterThan(12);
  });

  test("loads from the packed file the build writes, and only from one packed from the installed eld", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbox-langmodel-"));
    const bytes = await model.toBytes();
    const sample = texts().filter((_, i) => i % 7 === 0);
    const same = join(dir, "same.bin");
    writeFileSync(same, bytes);
    const packed = await LanguageModel.load(same);
    for (const t of sample) expect(packed.detect(t)).toEqual(model.detect(t));
    // The same file with its scores zeroed detects otherwise: the file is what is read...
    const zeroed = Buffer.from(bytes);
    zeroed.fill(0, zeroed.length - 20000);
    const broken = join(dir, "zeroed.bin");
    writeFileSync(broken, zeroed);
    const fromBroken = await LanguageModel.load(broken);
    expect(sample.some((t) => JSON.stringify(fromBroken.detect(t)) !== JSON.stringify(model.detect(t)))).toBe(true);
    // ...unless it was packed from another eld (its stamp differs): then eld's own data is read.
    const stamp = zeroed.toString("latin1").match(/"eld":"([^"]+)"/)?.[1] ?? "";
    expect(stamp).toMatch(/^\d+\.\d+\.\d+\/\d+$/);
    const other = join(dir, "other.bin");
    writeFileSync(
      other,
      Buffer.from(zeroed.toString("latin1").replace(`"eld":"${stamp}"`, `"eld":"${"9".repeat(stamp.length)}"`), "latin1"),
    );
    const fromOther = await LanguageModel.load(other);
    for (const t of sample) expect(fromOther.detect(t)).toEqual(model.detect(t));
    // A missing or truncated file is no error either.
    writeFileSync(join(dir, "short.bin"), bytes.subarray(0, 100));
    for (const f of ["missing.bin", "short.bin"])
      expect((await LanguageModel.load(join(dir, f))).detect(SENTENCES[0])?.language).toBe("en");
  });
});
