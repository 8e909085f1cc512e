/**
 * The folder of issue 17 that the folder benches share (sync.ts, add.ts, memory.ts): N small Markdown
 * notes of about 1.5 KB (a heading and three paragraphs), 100 to a folder, each with its own token
 * `tok{i}x`; 10,000 of them are 14.5 MiB of text.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PER_DIR = 100;
const WORDS = "river stone cloud lantern harbor meadow copper violet thunder orchard glacier ember".split(" ");

/** Path of note `i` under the folder. */
export const noteRel = (i: number) => `d${String(Math.floor(i / PER_DIR)).padStart(3, "0")}/note-${i}.md`;

/** The word only note `i` holds. */
export const noteToken = (i: number) => `tok${i}x`;

/** Text of note `i`; `extra` is appended to its last paragraph (a save that changes it). */
export function noteText(i: number, extra = ""): string {
  const para = (p: number) => Array.from({ length: 75 }, (_, k) => WORDS[(i * 3 + p * 5 + k * 7) % WORDS.length]).join(" ");
  return `# Note ${i}\n\n${para(0)} ${noteToken(i)}.\n\n${para(1)}.\n\n${para(2)} ${extra}\n`;
}

/** Write notes 0..n-1 under `root`; returns their bytes of text. */
export function writeNotes(root: string, n: number): number {
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    if (i % PER_DIR === 0) mkdirSync(join(root, noteRel(i), ".."), { recursive: true });
    const t = noteText(i);
    writeFileSync(join(root, noteRel(i)), t);
    bytes += Buffer.byteLength(t);
  }
  return bytes;
}
