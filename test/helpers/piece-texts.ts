/**
 * Deterministic random texts made of the given pieces (seeded linear congruential choice): for tests
 * that compare a scanner with the regular expression it stands for on every boundary the pieces sit on.
 */
export function pieceTexts(pieces: readonly string[], count: number, maxLength = 90): string[] {
  const out: string[] = [];
  for (let seed = 1; seed <= count; seed++) {
    let s = seed;
    let text = "";
    while (text.length < 1 + (seed % maxLength)) {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      text += pieces[s % pieces.length];
    }
    out.push(text);
  }
  return out;
}
