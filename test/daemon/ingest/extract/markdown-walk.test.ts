import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Lexer } from "marked";
import { describe, expect, test } from "vitest";
import { noteText } from "../../../../bench/notes.js";
import { walkMarkdown } from "../../../../daemon/ingest/extract/markdown-walk.js";
import { markdownDocument, markdownToText } from "../../../../daemon/ingest/extract/markup.js";

/** The direct walk's result must be the HTML path's, member for member (text, breaks, tables, metadata). */
function same(md: string): void {
  expect(markdownDocument(md, "walk")).toStrictEqual(markdownDocument(md, "html"));
  expect(markdownToText(md, "walk")).toStrictEqual(markdownToText(md, "html"));
}

const walks = (md: string) => walkMarkdown(Lexer.lex(md, { gfm: true })) !== null;

/** Each construct the walk maps by hand, alone and mixed. */
const TRICKY: Record<string, string> = {
  entities: "Tom &amp; Jerry &copy; 2024 &notit; &notx; &foo; &#65;&#x42; &#0; & alone &amp &copy no semicolon &lt;b&gt;",
  entitiesInHeading: "# Fish &amp; Chips &nbsp; &copy;\n\nbody &quot;quoted&quot; &apos;",
  nbsp: "a &nbsp; b&nbsp;&nbsp;c\n\n```\nx &nbsp; y\n```",
  escapes: "\\*not em\\* \\_x\\_ \\# \\& \\&amp; \\< \\> \\\\ \\[link\\](x) \\`tick\\`",
  codeBlock: "```js\nconst a = 1;   \n\n  indented  \n\tfoo\n```\n\n    indented code\n    second  \n\n```\n```",
  codeEntities: "```\nif (a < b && c > d)  \n  s = 'x'  \"y\"  \n&amp;  <b>  \n```\n\n```toc\nnav\n```",
  codespans: "Use `a  <b>  &amp;` and ``` `` ``` and `  spaced  `.",
  tightList: "- one\n- two *em*\n- three\n  - nested a\n  - nested b\n    1. deep\n- four",
  looseList: "1. one\n\n2. two\n\n   second para\n\n3) three\n\n10. ten",
  startList: "7. seven\n8. eight\n\n* star\n+ plus",
  taskList: "- [ ] todo\n- [x] done **bold**\n- [X] upper\n\n- [ ] loose\n\n- [x] loose done\n\n  more",
  taskEmpty: "- [ ] \n- [x]\n- []",
  images: 'Text ![alt text](img.png "title") after. ![](empty.png) ![ref][r]\n\n[r]: x.png',
  imageOnly: "![just an image](a.png)",
  imageBadUrl: "Bad ![alt \uD800 x](\uD800.png) url",
  links: '[a link](http://x.test "t") <http://auto.test/?a=1&b=2> www.example.com x@y.test [ref] [ref][] [nope][]\n\n[ref]: /u',
  linkInline: "[**bold** `code` &amp;](u) and [![img](i.png) text](u)",
  hardBreaks: "line one  \nline two\\\nline three\nsoft",
  tables: "| a | b &amp; c |\n|:--|--:|\n| **x**  y | `z  w` |\n| [l](u) | ![i](i.png) |\n|  |  |\n| only |\n\n| h |\n|---|",
  tableEscapes: "| a \\| b | c |\n|---|---|\n| 1 \\| 2 | &lt;3 |",
  blockquotes: "> quote one\n> > nested\n> > - list in\n>\n> back\n\n> # heading in quote",
  hr: "para\n\n---\n\n***\n\n___\n\nafter",
  headings: "# H1\n\n## H2 *em*\n\nSetext\n======\n\nSub\n---\n\n###### H6 ##\n\n#\n\n# \n",
  titleNotFirst: "intro\n\n# First level one\n\ntext\n\n# Second",
  frontMatter: '---\ntitle: "Front"\ntags: x\n---\n# Front\n\nbody',
  frontMatterOther: "---\ntitle: Other\n---\n# Not it\n\nbody",
  strikeEm: "~~struck~~ ~single~ ***both*** _under_ __strong__ a*b*c",
  whitespace: "  leading\n\n\ttabbed\n\ntrailing   \n\n\n\nmany\u00a0nbsp\u2003em",
  lazy: "> lazy\ncontinuation\n\n- item\nlazy line",
  listCode: "- item\n\n  ```\n  code in item  \n  ```\n- next\n  > quote in item",
  listTable: "- item\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |",
  emptyDoc: "",
  spacesOnly: "   \n\n  \n",
  unicode: "Ünïcödé — “quotes” 😀 \u200b zero-width",
  numericRefs: "&#x1F600; &#128512; &#xD800; &#1114112; &#9;tab",
  angle: "a < b > c \"d\" 'e' <not a tag",
  defs: '[x]: http://x.test\n[y]: <http://y.test> "T"\n\ntext [x]',
  crlf: "# Title\r\n\r\nline\r\nnext\r\n\r\n- a\r\n- b\r\n",
  bom: "\uFEFF# Bom title\n\nbody",
};

/** Raw HTML anywhere: the walk declines and the HTML path answers. */
const HTML: Record<string, string> = {
  block: "<div>\n<p>raw <b>html</b></p>\n</div>\n\npara",
  inline: "text with <span>inline</span> tag",
  comment: "<!-- comment -->\n\nvisible",
  br: "line<br>break",
  inTable: "| a |\n|---|\n| x<br>y |",
  inList: "- <em>x</em>",
  inHeading: "# Title <small>v2</small>\n\nbody",
  details: "<details><summary>More</summary>\n\nhidden *md*\n\n</details>",
};

describe("walkMarkdown matches the HTML path", () => {
  for (const [name, md] of Object.entries(TRICKY)) {
    test(`tricky: ${name}`, () => {
      same(md);
      if (name !== "imageBadUrl") expect(walks(md.replace(/^\uFEFF/, ""))).toBe(true);
    });
  }

  test("an image whose address encodeURI refuses (alt text becomes text) takes the HTML path", () => {
    expect(walks(TRICKY.imageBadUrl)).toBe(false);
  });

  for (const [name, md] of Object.entries(HTML)) {
    test(`raw HTML falls back: ${name}`, () => {
      expect(walks(md)).toBe(false);
      same(md);
    });
  }

  test("every Markdown file of the repository", () => {
    const files = execFileSync("git", ["ls-files", "*.md"], { encoding: "utf8" }).split("\n").filter(Boolean);
    expect(files.length).toBeGreaterThan(10);
    let walked = 0;
    for (const f of files) {
      const md = readFileSync(f, "utf8");
      same(md);
      if (walks(md)) walked++;
    }
    // Most of them hold no raw HTML: the comparison is of the walk, not of the fallback with itself.
    expect(walked).toBeGreaterThan(files.length / 2);
  });

  test("the notes bench/notes.ts generates (each walked)", () => {
    for (let i = 0; i < 200; i++) {
      const md = noteText(i * 37, i % 3 ? "saved again" : "");
      expect(walks(md)).toBe(true);
      same(md);
    }
  });

  test("random mixes of the tricky pieces (seeded)", () => {
    const pieces = Object.values(TRICKY).flatMap((md) => md.split(/\n\n/));
    let seed = 17;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const joins = ["\n\n", "\n", "\n\n- ", "\n> ", " ", "\n\n    ", "\n\n1. ", "\n  "];
    let walked = 0;
    for (let i = 0; i < 400; i++) {
      let md = "";
      for (let k = 0, n = 2 + rand(6); k < n; k++) md += pieces[rand(pieces.length)] + joins[rand(joins.length)];
      same(md);
      if (walks(md)) walked++;
    }
    expect(walked).toBeGreaterThan(300);
  });

  test("random documents: lines of block markers and inline pieces (seeded)", () => {
    const starts = ["", "", "# ", "### ", "> ", "> > ", "- ", "  - ", "    - ", "1. ", "   2) ", "* [ ] ", "- [x] ", "    "];
    starts.push("```\n", "```py\n", "| a | b |\n|---|:-:|\n| ", "---\n", "Title\n===\n", "\t", "> - ", "- > ", "- ```\n  ");
    const pieces = ["text", "more words", " ", "*em*", "**strong**", "~~del~~", "`code  x`", "``a`b``", "[link](u)"];
    pieces.push('[**l**](u "t")', "![alt *x*](i.png)", "<http://a.b/?x&y>", "www.a.io", "&amp;", "&copy", "&notin;");
    pieces.push("&nbsp;", "&#35;", "\\*", "\\&", "\\|", "|", "a  \n", "b\\\n", "<", ">", "'q'", '"dq"', "&", "\u00a0x");
    pieces.push(" trailing  ", "[x]", "[ref]", "_u_", "__uu__", "***a***", "x_y_z", "http://bare.example.com/a_b");
    let seed = 4242;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let walked = 0;
    for (let i = 0; i < 1000; i++) {
      let md = "";
      for (let l = 0, lines = 1 + rand(12); l < lines; l++) {
        md += starts[rand(starts.length)];
        for (let k = 0, n = 1 + rand(6); k < n; k++) md += pieces[rand(pieces.length)] + (rand(3) ? " " : "");
        md += rand(3) ? "\n" : rand(2) ? "\n\n" : "\n```\n";
      }
      if (rand(5) === 0) md += "\n[ref]: /r\n";
      same(md);
      if (walks(md)) walked++;
    }
    expect(walked).toBe(1000);
  });
});
