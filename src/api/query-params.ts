/** How one query-parameter key becomes a body member. */
export interface ParamRules {
  /** Keys whose repeated values form a list. */
  lists: ReadonlySet<string>;
  /** A single (last) value of another key; JSON objects and arrays are parsed before this is asked. */
  scalar: (key: string, value: string) => unknown;
  /** A list key's values (default: as given). */
  list?: (key: string, values: string[]) => unknown;
  /** Renamed keys (query name → body name). */
  rename?: Readonly<Record<string, string>>;
}

/**
 * GET routes that mirror a POST body (find, search, catalog) take the same members as query
 * parameters: lists as repeated keys, objects as JSON. This turns them back into a body, unvalidated:
 * the POST body schema validates it.
 */
export function paramsToBody(q: Record<string, string | string[]>, rules: ParamRules): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k0, v] of Object.entries(q)) {
    const k = rules.rename?.[k0] ?? k0;
    const arr = Array.isArray(v) ? v : [v];
    const one = arr[arr.length - 1];
    if (rules.lists.has(k)) out[k] = rules.list ? rules.list(k, arr) : arr;
    else if (/^\s*[{[]/.test(one) && k !== "query") out[k] = parseJson(one);
    else out[k] = rules.scalar(k, one);
  }
  return out;
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
