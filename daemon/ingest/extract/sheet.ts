import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
import ExcelJS from "exceljs";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { asExtractionError } from "./errors.js";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** XLSX: one page per worksheet, its rows as a table. */
export async function extractXlsx(path: string): Promise<Extracted> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.readFile(path);
  } catch (err) {
    throw asExtractionError(err, "XLSX");
  }
  const b = new TextBuilder();
  const sheets: string[] = [];
  wb.eachSheet((ws) => {
    sheets.push(ws.name);
    b.startPage(sheets.length);
    const rows: string[][] = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cellText(cell);
      });
      rows.push(Array.from(cells, (c) => c ?? ""));
    });
    b.table(rows);
  });
  const md: Extracted["metadata"] = { mime_type: XLSX, page_count: sheets.length, sheets };
  if (wb.title) md.title = wb.title;
  if (wb.creator) md.author = wb.creator;
  return b.build(md);
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? "";
  } catch {
    // Formula cells without a cached result throw from .text in some files.
    return String(cell.result ?? "");
  }
}

/** CSV/TSV: rows as one table; the delimiter is sniffed from the first line. */
export async function extractCsv(path: string, encoding: BufferEncoding = "utf-8", mime = "text/csv"): Promise<Extracted> {
  const first = await firstLine(path, encoding);
  const delimiter = mime === "text/tab-separated-values" ? "\t" : sniffDelimiter(first);
  const rows: string[][] = [];
  try {
    const parser = createReadStream(path, { encoding }).pipe(
      parse({ delimiter, bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }),
    );
    for await (const row of parser) rows.push(row as string[]);
  } catch (err) {
    throw asExtractionError(err, "CSV");
  }
  const b = new TextBuilder();
  b.table(rows);
  return b.build({ mime_type: mime, rows: rows.length });
}

async function firstLine(path: string, encoding: BufferEncoding): Promise<string> {
  let acc = "";
  for await (const chunk of createReadStream(path, { encoding, highWaterMark: 16 * 1024 })) {
    acc += chunk;
    const nl = acc.indexOf("\n");
    if (nl !== -1) return acc.slice(0, nl);
    if (acc.length > 64 * 1024) break;
  }
  return acc;
}

function sniffDelimiter(line: string): string {
  const unquoted = line.replace(/"[^"]*"/g, "");
  let best = ",";
  let bestCount = 0;
  for (const d of [",", ";", "\t", "|"]) {
    const n = unquoted.split(d).length - 1;
    if (n > bestCount) [best, bestCount] = [d, n];
  }
  return best;
}
