// Imported first by scripts/bench.mjs, so it runs before any of drift's modules is evaluated: the
// bench's in-process runs measure drift under the V8 flags `drift diff` itself runs with
// (bin/v8-flags.js), not under Node's defaults, which no drift run uses. DRIFT_TURBOFAN=1 measures
// the other way, as it runs drift that way too.
import { setFlagsFromString } from 'node:v8';
import { driftV8Flags } from '../bin/v8-flags.js';

for (const flag of driftV8Flags(process.env)) setFlagsFromString(flag);
