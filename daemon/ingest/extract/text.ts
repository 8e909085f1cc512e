import type { TextFormat } from "../../../src/api/fields.js";
import type { Extracted } from "../types.js";
import { extractHtml } from "./html.js";
import { jsonlToText, jsonToText, keepMarkdown, markdownToText, rstToText } from "./markup.js";

/** Plain text kept verbatim (line endings normalised); `blankLineSplit` makes every block a hard break. */
export function plainText(body: string, blankLineSplit = false): Extracted {
  const text = body.replace(/\r\n?/g, "\n");
  const ex: Extracted = { text, metadata: { mime_type: "text/plain" } };
  if (blankLineSplit) {
    const breaks: number[] = [];
    const re = /\n[^\S\n]*\n\s*/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const at = m.index + m[0].length;
      if (at < text.length) breaks.push(at);
    }
    if (breaks.length) ex.breaks = breaks;
  }
  return ex;
}

/** Text of an inline text field in one of the service's formats. */
export function textByFormat(body: string, format: TextFormat = "PLAIN"): Extracted {
  switch (format) {
    case "PLAIN":
      return plainText(body);
    case "PLAIN_BLANKLINE_SPLIT":
      return plainText(body, true);
    case "MARKDOWN":
      return markdownToText(body);
    case "KEEP_MARKDOWN":
      return keepMarkdown(body);
    case "HTML":
      return extractHtml(body);
    case "RST":
      return rstToText(body);
    case "JSON":
      return jsonToText(body);
    case "JSONL":
      return jsonlToText(body);
    default:
      return plainText(body);
  }
}
