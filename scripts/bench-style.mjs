// The style line of drift's benchmark (npm run bench): what comparing the providers' code costs, in
// drift CPU, with the outline cold (a fresh process: grammar, queries and every outline built anew).
// Each repetition runs two child processes over the bundled project, alike but for the style work:
//   on:  read the sources, compile the queries, outline every provider, judge the style
//   off: read the sources only
// The difference of their CPU (user + system, after the same module imports) is the style cost. Both run
// with drift's own V8 flags (bin/drift.js: no TurboFan), and the line says what reading the sources costs
// beside it: in both runs, so not in the difference.
import path from 'node:path';
import { driftV8Flags } from '../bin/v8-flags.js';
import { median, nodeChild } from './bench-util.mjs';

const CHILD = `
const [{ loadProject }, { readProjectSources }, { parserFor }, { buildOutline }, { compareStyle }, { readFileSync, readdirSync }, path, { parse }] = await Promise.all([
  import(process.argv[1] + '/dist/config/load.js'), import(process.argv[1] + '/dist/pipeline/sourcesRun.js'), import(process.argv[1] + '/dist/outline/grammar.js'),
  import(process.argv[1] + '/dist/outline/outline.js'), import(process.argv[1] + '/dist/compare/style.js'), import('node:fs'), import('node:path'), import('yaml'),
]);
// The source cache off in both modes: a hit would skip the depth check's parse in one mode and not the other.
const project = { ...(await loadProject(undefined, process.argv[1])), cache: undefined };
// Roles by composed key, as the run gets them from its skeletons: read from the goldens before measuring.
const keys = new Map(project.adapters.map((adapter) => {
  const dir = path.join(project.config.goldens, adapter.name);
  const map = new Map();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.yaml') && name !== 'outline.yaml')) {
    for (const [key, resource] of Object.entries(parse(readFileSync(path.join(dir, file), 'utf8')).resources ?? {})) map.set(key, resource.role);
  }
  return [adapter.name, map];
}));
const before = process.cpuUsage();
const read = await readProjectSources(project);
const readSpent = process.cpuUsage(before);
let findings = 0, outlineMs = 0, grammarCpu = 0;
if (process.argv[2] === 'on') {
  const loading = process.cpuUsage();
  const parse = await parserFor('.py');
  const loaded = process.cpuUsage(loading);
  grammarCpu = (loaded.user + loaded.system) / 1000;
  const subjects = read.map(({ adapter, sources }) => {
    const result = buildOutline(adapter.name, sources, parse);
    outlineMs += result.ms;
    return { provider: adapter.name, outline: result.outline, places: result.places, root: adapter.name, keys: keys.get(adapter.name) };
  });
  findings = compareStyle({ subjects }).length;
}
const used = process.cpuUsage(before);
// Once more in the same process: what the same work costs once the code is compiled (a warm outline).
let warmCpu = 0;
if (process.argv[2] === 'on') {
  const parse = await parserFor('.py');
  const again = process.cpuUsage();
  compareStyle({ subjects: read.map(({ adapter, sources }) => { const result = buildOutline(adapter.name, sources, parse); return { provider: adapter.name, outline: result.outline, places: result.places, root: adapter.name, keys: keys.get(adapter.name) }; }) });
  const spent = process.cpuUsage(again);
  warmCpu = (spent.user + spent.system) / 1000;
}
console.log(JSON.stringify({ cpu: (used.user + used.system) / 1000, readCpu: (readSpent.user + readSpent.system) / 1000, findings, outlineMs, grammarCpu, warmCpu }));
`;

// The V8 flags bin/drift.js runs drift with: the child measures drift, not a plain node.
const DRIFT_FLAGS = driftV8Flags(process.env);

export async function benchStyle(root, { reps }) {
  const on = [];
  const off = [];
  for (let rep = 0; rep < reps; rep++) {
    on.push(await nodeChild(path.resolve(root), DRIFT_FLAGS, CHILD, ['on'], 'bench-style child (on)'));
    off.push(await nodeChild(path.resolve(root), DRIFT_FLAGS, CHILD, ['off'], 'bench-style child (off)'));
  }
  const cost = on.map((run, index) => run.cpu - off[index].cpu);
  console.log(
    `style  on vs off, outline cold: ${median(cost).toFixed(0)} ms drift CPU (median of ${reps}; runs: ${cost.map((c) => c.toFixed(0)).join(', ')}; goal ≤150 ms), ` +
      `of which loading the grammar ${median(on.map((run) => run.grammarCpu)).toFixed(0)} ms CPU (0 when reading the sources loaded it; the queries compile on the first outline, inside this cost); not counted, in both runs: reading the sources ${median(on.map((run) => run.readCpu)).toFixed(0)} ms CPU (loading the grammar and parsing every file for the depth check; the outline takes those trees); outlining ${median(on.map((run) => run.outlineMs)).toFixed(0)} ms wall; warm (the same again in that process) ${median(on.map((run) => run.warmCpu)).toFixed(0)} ms CPU; ${on[0].findings} style findings`,
  );
}
