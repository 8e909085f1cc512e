// Part of `npm run build`: pack eld's language database next to the compiled detector
// (dist/daemon/ingest/language-model.bin), so that the daemon reads typed arrays instead of
// evaluating eld's 1.6 MB data module (about a second of its thread) the first time it ingests.
import { writeFileSync } from "node:fs";

const { LanguageModel } = await import("../dist/daemon/ingest/language-model.js");
const out = new URL("../dist/daemon/ingest/language-model.bin", import.meta.url);
writeFileSync(out, await (await LanguageModel.fromEld()).toBytes());
