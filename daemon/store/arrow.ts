import { createRequire } from "node:module";

/**
 * apache-arrow as LanceDB sees it. LanceDB is CommonJS and checks `instanceof` against the CommonJS
 * build; classes from the ESM build are different classes, so all Arrow values come from here.
 */
export const arrow: typeof import("apache-arrow") = createRequire(import.meta.url)("apache-arrow");

/**
 * Field metadata that has Lance compress the column's pages with zstd. Given to the columns of text
 * and JSON documents of tables created from now on (a table keeps the schema it was created with):
 * they take a fraction of the disk, for a decompression on read that costs less than reading them.
 */
export const ZSTD_KEY = "lance-encoding:compression";
export const ZSTD: Map<string, string> = new Map([[ZSTD_KEY, "zstd"]]);

type ArrowSchema = InstanceType<typeof arrow.Schema>;
type ArrowTable = InstanceType<typeof arrow.Table>;

/**
 * An Arrow table of `rows` in `schema`, built column by column (one builder per column). LanceDB's
 * `makeArrowTable` walks every key of every row and transposes them first, which cost as much again
 * as building the columns: most of the daemon's time writing a batch of small paragraphs.
 */
export function tableOf(schema: ArrowSchema, rows: Record<string, unknown>[]): ArrowTable {
  const children = schema.fields.map((f) => {
    if (arrow.DataType.isFixedSizeList(f.type)) return fixedSizeList(f.type, rows, f.name);
    if (arrow.DataType.isUtf8(f.type)) return utf8(f.type, rows, f.name, f.nullable);
    const b = arrow.makeBuilder({ type: f.type, nullValues: f.nullable ? [null, undefined] : [] });
    // A required column takes its type's empty value for a missing one, as makeArrowTable does.
    const empty = f.nullable ? null : emptyOf(f.type);
    for (const r of rows) b.append(r[f.name] ?? empty);
    return b.finish().flush();
  });
  const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new arrow.Table(schema, [new arrow.RecordBatch(schema, data)]);
}

/** A required column's value for a row that lacks it (strings: see `utf8`). */
function emptyOf(type: InstanceType<typeof arrow.DataType>): unknown {
  if (arrow.DataType.isBool(type)) return false;
  if (arrow.DataType.isList(type)) return [];
  if (arrow.DataType.isInt(type)) return (type as InstanceType<typeof arrow.Int>).bitWidth === 64 ? 0n : 0;
  if (arrow.DataType.isFloat(type)) return 0;
  return null;
}

/**
 * A string column: the offsets from each value's UTF-8 length, then each value encoded in place into
 * one buffer of that size. Joining the values into one string and encoding that (as before) took ten
 * times as long (1.5 MB of resource records: 7.5 against 0.6 ms), and the builder encodes each value
 * into buffers it grows as it goes. Lone surrogates become U+FFFD (3 bytes, as counted); each value is
 * encoded alone, so a lone surrogate at the end of one never pairs with one at the start of the next.
 * A required column takes "" for a missing value.
 */
function utf8(type: InstanceType<typeof arrow.Utf8>, rows: Record<string, unknown>[], name: string, nullable: boolean) {
  const n = rows.length;
  const offsets = new Int32Array(n + 1);
  const texts: string[] = new Array(n);
  const valid = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    const v = rows[i][name];
    if (v == null && nullable) {
      nulls++;
      texts[i] = "";
    } else {
      const text = v == null ? "" : String(v);
      texts[i] = text;
      valid[i >> 3] |= 1 << (i & 7);
      end += Buffer.byteLength(text, "utf8");
    }
    offsets[i + 1] = end;
  }
  const bytes = Buffer.allocUnsafeSlow(end);
  let at = 0;
  for (let i = 0; i < n; i++) if (texts[i]) at += bytes.write(texts[i], at, "utf8");
  if (at !== end) throw new Error(`column ${name}: ${at} bytes encoded for ${end} counted`);
  return arrow.makeData({
    type,
    length: n,
    nullCount: nulls,
    nullBitmap: nulls ? valid : undefined,
    valueOffsets: offsets,
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
  });
}

/**
 * A fixed-size list column (vectors) with its nulls: the builder leaves a null's slots out of the
 * child values, which must hold `size` of them per row, so LanceDB would read the rows after it shifted.
 */
function fixedSizeList(type: InstanceType<typeof arrow.FixedSizeList>, rows: Record<string, unknown>[], name: string) {
  const size = type.listSize;
  const values = new Float32Array(rows.length * size);
  const valid = new Uint8Array(Math.ceil(rows.length / 8));
  let nulls = 0;
  rows.forEach((r, i) => {
    const v = r[name] as ArrayLike<number> | null | undefined;
    if (v == null) {
      nulls++;
      return;
    }
    valid[i >> 3] |= 1 << (i & 7);
    for (let k = 0; k < size; k++) values[i * size + k] = v[k] ?? 0;
  });
  const child = arrow.makeData({
    type: type.children[0].type as InstanceType<typeof arrow.Float32>,
    length: values.length,
    data: values,
  });
  return arrow.makeData({ type, length: rows.length, nullCount: nulls, nullBitmap: nulls ? valid : undefined, child });
}
