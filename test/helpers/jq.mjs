// A tiny stand-in for `jq -r '<path>'` used by the shell-script test where jq is not installed:
// supports `.a.b`, `.a[]`, `.a[0]`, `| length` and `type`.
import { readFileSync } from "node:fs";

const expr = process.argv[2];
const input = JSON.parse(readFileSync(0, "utf8"));
const apply = (values, step) => {
  step = step.trim();
  if (step === "length") return values.map((v) => (Array.isArray(v) ? v.length : Object.keys(v).length));
  if (step === "type") return values.map((v) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v));
  let out = values;
  for (const m of step.matchAll(/\.([A-Za-z_][\w-]*)|\[(\d*)\]/g)) {
    if (m[1]) out = out.map((v) => v?.[m[1]]);
    else if (m[2] === "") out = out.flatMap((v) => v);
    else out = out.map((v) => v?.[Number(m[2])]);
  }
  return out;
};
const result = expr.split("|").reduce(apply, [input]);
for (const v of result) process.stdout.write(`${typeof v === "string" ? v : JSON.stringify(v)}\n`);
