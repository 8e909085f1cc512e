import { createRequire } from "node:module";

/**
 * apache-arrow as LanceDB sees it. LanceDB is CommonJS and checks `instanceof` against the CommonJS
 * build; classes from the ESM build are different classes, so all Arrow values come from here.
 */
export const arrow: typeof import("apache-arrow") = createRequire(import.meta.url)("apache-arrow");
