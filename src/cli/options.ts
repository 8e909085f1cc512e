import type { Classification } from "../client/routes/common.js";
import { usageError } from "./errors.js";

/** Commander collector for repeatable options (`--label a/b --label c/d`). */
export const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `labelset/label` strings into classifications (usage error, exit 2, for a malformed one). */
export function parseLabels(labels: string[] | undefined): Classification[] | undefined {
  if (!labels?.length) return undefined;
  return labels.map((l) => {
    const i = l.indexOf("/");
    if (i <= 0 || i === l.length - 1) throw usageError(`label ${JSON.stringify(l)} is not labelset/label`);
    return { labelset: l.slice(0, i), label: l.slice(i + 1) };
  });
}
