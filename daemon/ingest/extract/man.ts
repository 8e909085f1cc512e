/**
 * Manual pages: troff source (`.TH`, `.SH`, `.TP`, font macros and escapes) as readable text, and
 * pages already formatted for a terminal (bold and underline by overstrike, `x\bx`, `_\bx`) as plain
 * text. Section headings are hard breaks; an option's tag line (`.TP`) opens the block of its
 * description, so "-r, --recursive" and what it does stay one paragraph.
 */
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";

/** Troff source, judged by its first requests. */
export function looksLikeTroff(sample: string): boolean {
  return /^(?:\.\\"|'\\"|\.TH\s|\.Dd\s|\.so\s)/.test(sample) || /(?:^|\n)\.TH\s+\S+/.test(sample.slice(0, 4096));
}

/** Terminal overstrike (bold `x\bx`, underline `_\bx`) removed. */
export function stripOverstrike(text: string): string {
  return text.includes("\b") ? text.replace(/[^\n]\x08/g, "") : text;
}

const CHARS: Record<string, string> = {
  em: "—",
  en: "–",
  aq: "'",
  dq: '"',
  lq: "“",
  rq: "”",
  oq: "‘",
  cq: "’",
  bu: "•",
  co: "©",
  rg: "®",
  tm: "™",
  hy: "-",
  mi: "-",
  pl: "+",
  mu: "×",
  ga: "`",
  ti: "~",
  ha: "^",
  rs: "\\",
  "<=": "≤",
  ">=": "≥",
  "->": "→",
  "<-": "←",
  R: "®",
};

/** Inline escapes of a text line: fonts dropped, special characters spelled out. */
function troffEscapes(s: string): string {
  return s
    .replace(/\\".*$/, "")
    .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, "")
    .replace(/\\s[+-]?\d/g, "")
    .replace(/\\\*(?:\[([^\]]*)\]|\((..)|(.))/g, (_, a, b, c) => CHARS[a ?? b ?? c] ?? "")
    .replace(/\\\[([^\]]*)\]/g, (_, n) => CHARS[n] ?? "")
    .replace(/\\\((..)/g, (_, n) => CHARS[n] ?? "")
    .replace(/\\[-]/g, "-")
    .replace(/\\e/g, "\\")
    .replace(/\\ /g, " ")
    .replace(/\\[&|^%c:)d u,/]/g, "")
    .replace(/\\(.)/g, "$1");
}

/** A request's arguments, quotes honoured. */
function args(rest: string): string[] {
  return [...rest.matchAll(/"((?:[^"]|"")*)"?|((?:\\.|[^\s\\])+\\?)/g)].map((m) => (m[1] ?? m[2]).replace(/""/g, '"'));
}

/** mdoc's inline macros (`.It Fl p Ar port`): their names go, `Fl` makes a flag, `Xr` a page reference. */
const MDOC = new Set(
  "Fl Ar Cm Pa Ev Nm Li Sy Em Dq Ql Xr Va Ic Op Oo Oc Ns Pq Sq Aq Dv Er Fa Fn Ft Ic In Lk Mt No Qq Sx Tn Ux Bq Brq Bro Brc Eo Ec Qo Qc Do Dc Po Pc So Sc".split(
    " ",
  ),
);

function mdoc(rest: string, name: string): string {
  const toks = args(troffEscapes(rest));
  let out = "";
  let glue = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (MDOC.has(t)) {
      if (t === "Fl") {
        out += `${out && !glue ? " " : ""}-`;
        glue = true;
      } else if (t === "Nm" && (i + 1 >= toks.length || MDOC.has(toks[i + 1]))) {
        out += `${out && !glue ? " " : ""}${name}`;
        glue = false;
      } else if (t === "Xr" && toks[i + 2]) {
        out += `${out && !glue ? " " : ""}${toks[i + 1]}(${toks[i + 2]})`;
        i += 2;
        glue = false;
      } else if (t === "Ns") glue = true;
      continue;
    }
    out += /^[.,;:)\]]$/.test(t) || glue || !out ? t : ` ${t}`;
    glue = false;
  }
  return out;
}

const ALTERNATING = /^(?:BR|RB|IR|RI|BI|IB)$/;
const FONT = /^(?:B|I|SM|SB)$/;
const BREAKS = /^(?:PP|P|LP|sp|HP|RS|RE|SY|YS|EX|EE|Sh|Pp|Bl|El|Bd|Ed)$/;

/** Troff manual source as text: title `name(section)`, headings, paragraphs, option tags with their text. */
export function troffToText(src: string): Extracted {
  const b = new TextBuilder();
  let title: string | undefined;
  let fill = true;
  let tagNext = false;
  let skipping = false;
  // A section heading waits as the first line of the section's first block.
  let heading = false;
  // The text of the block being written (to tell an option's tag line from a paragraph).
  let block = "";
  const endBlock = () => {
    if (heading) return;
    b.endBlock();
    block = "";
  };
  const text = (t: string) => {
    if (!t.trim()) return;
    heading = false;
    block += t;
    b.inline(fill ? `${t.trim()} ` : t);
    if (!fill || tagNext) {
      b.endLine();
      tagNext = false;
    }
  };
  for (const raw of stripOverstrike(src).replace(/\r\n?/g, "\n").split("\n")) {
    if (skipping) {
      if (/^\.\.\s*$/.test(raw)) skipping = false;
      continue;
    }
    const req = /^[.'][ \t]*([A-Za-z]{1,3}|\\")(?:[ \t]+(.*))?$/.exec(raw);
    if (!req) {
      if (/^[.']/.test(raw)) continue;
      if (!raw.trim()) endBlock();
      else text(troffEscapes(raw));
      continue;
    }
    const [, name, rest = ""] = req;
    if (name === "de" || name === "ig") skipping = true;
    else if (name === "TH" || name === "Dt") {
      const [n, sec] = args(rest);
      if (n) title = sec ? `${n.toLowerCase()}(${sec})` : n.toLowerCase();
    } else if (name === "SH" || name === "SS" || name === "Sh" || name === "Ss") {
      // The heading opens the section's first block (its own line) rather than standing alone.
      b.hardBreak();
      b.inline(args(troffEscapes(rest)).join(" "));
      b.endLine();
      heading = true;
    } else if (name === "TP" || name === "IP" || name === "It" || name === "TQ") {
      const tagged = name === "IP" && rest.trim() && troffEscapes(args(rest)[0] ?? "").trim();
      // An untagged .IP right after a tag line (jq's "--raw-output / -r:") is that tag's description.
      if (name === "IP" && !tagged && block.trim().length < 80 && /^\s*-|:\s*$/.test(block)) b.endLine();
      else if (name !== "TQ") endBlock();
      const tag = name === "IP" ? args(rest)[0] : name === "It" ? mdoc(rest, title?.replace(/\(.*$/, "") ?? "") : undefined;
      if (tag && !/^\\\(bu|^•$/.test(tag)) text(name === "It" ? tag : troffEscapes(tag));
      if (name === "TP" || name === "TQ") tagNext = true;
      else if (tag) b.endLine();
    } else if (MDOC.has(name)) text(mdoc(`${name} ${rest}`, title?.replace(/\(.*$/, "") ?? ""));
    else if (name === "Nd") text(`- ${troffEscapes(rest)}`);
    else if (FONT.test(name)) text(args(troffEscapes(rest)).join(" "));
    else if (ALTERNATING.test(name)) text(args(rest).map(troffEscapes).join(""));
    else if (name === "br") b.endLine();
    else if (name === "nf") {
      b.endLine();
      fill = false;
    } else if (name === "fi") fill = true;
    else if (BREAKS.test(name)) endBlock();
  }
  return b.build({ mime_type: "text/troff", ...(title ? { title } : {}) });
}
