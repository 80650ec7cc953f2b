// drift's CPU per cold full run, this checkout's build against another's, both in this one process
// (`node scripts/bench-builds.mjs OTHER_ROOT [PAIRS]`; OTHER_ROOT a checkout of the reference commit,
// built with `npm run build`). A goal set against a commit holds on any machine only as a ratio, and
// only paired: on a shared machine two processes minutes apart differ by more than a change saves.
// Each build's modules load apart (their own dist/), the bundled project's every cache off; the pairs
// alternate which build runs first. Prints the medians, the ratio (this / other) per pair, its median
// and range, and the ratio of the sums. BENCH_REPS sets the pairs (default 16).
import './bench-flags.mjs'; // first: drift's V8 flags before any of its modules loads
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './bench-util.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const other = process.argv[2];
if (!other) {
  process.stderr.write('usage: node scripts/bench-builds.mjs OTHER_ROOT [PAIRS]  (OTHER_ROOT: a built checkout of the reference commit)\n');
  process.exit(2);
}
const pairs = Number(process.argv[3] ?? process.env.BENCH_REPS ?? 16);

/** One build's cold full run over its own bundled project: drift's CPU in ms, or an error if it finds anything. */
async function coldRun(root) {
  const dist = (file) => pathToFileURL(path.join(root, 'dist', file)).href;
  const [{ loadProject }, { diffProject }] = await Promise.all([import(dist('config/load.js')), import(dist('pipeline/diffRun.js'))]);
  // No cache on disk and none in memory: every call made, every outline built.
  const project = { ...(await loadProject(undefined, root, process.env)), cache: undefined, answerCache: false };
  return async () => {
    const before = process.cpuUsage();
    const result = await diffProject({ full: project, project, filters: { providers: [], scenarios: [] } });
    const spent = process.cpuUsage(before);
    if (result.findings.some((finding) => !finding.accepted)) throw new Error(`${root}: the bundled set has findings; the two builds must both pass it`);
    return (spent.user + spent.system) / 1000;
  };
}

const mine = await coldRun(here);
const theirs = await coldRun(path.resolve(other));
await mine();
await theirs(); // each build's first run loads its grammar and compiles its queries
const ours = [];
const reference = [];
for (let pair = 0; pair < pairs; pair++) {
  if (pair % 2 === 0) {
    ours.push(await mine());
    reference.push(await theirs());
  } else {
    reference.push(await theirs());
    ours.push(await mine());
  }
  process.stderr.write(`pair ${pair + 1}/${pairs}: ${ours.at(-1).toFixed(0)} ms against ${reference.at(-1).toFixed(0)} ms\n`);
}
const ratios = ours.map((ms, index) => ms / reference[index]);
const sum = (values) => values.reduce((total, value) => total + value, 0);
const fixed = (value) => value.toFixed(3);
console.log(`cold full run, drift CPU: this build ${median(ours).toFixed(0)} ms, ${other} ${median(reference).toFixed(0)} ms (medians of ${pairs} pairs)`);
console.log(`ratio this/other: median ${fixed(median(ratios))} (${fixed(Math.min(...ratios))}…${fixed(Math.max(...ratios))}), of the sums ${fixed(sum(ours) / sum(reference))}`);
