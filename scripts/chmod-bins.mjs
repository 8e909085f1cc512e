// tsc drops the executable bit; npm links the bins, but `node dist/bin/kbox.js` and direct runs need it.
import { chmodSync, existsSync } from "node:fs";

for (const f of ["dist/bin/kbox.js", "dist/bin/kboxd.js"]) if (existsSync(f)) chmodSync(f, 0o755);
