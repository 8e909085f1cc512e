// Part of `npm run build`: reduce the entity tagger's lexicon (the `compromise` library's, to a bit
// mask per word) once, into a file next to the compiled module (dist/daemon/entities/lexicon.json),
// so that the daemon reads it instead of loading the library the first time it extracts entities.
import { writeFileSync } from "node:fs";

const { fromLibrary, packLexicon } = await import("../dist/daemon/entities/lexicon.js");
writeFileSync(new URL("../dist/daemon/entities/lexicon.json", import.meta.url), packLexicon(fromLibrary()));
