// Preloaded into a spawned drift by the bench (NODE_OPTIONS=--import): at exit, the process's own CPU
// (user + system, in ms, its children's not included) into the file BENCH_OWN_CPU names, so the CLI
// line can tell drift's own cost from its functions', whose start-up varies by hundreds of ms.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  writeFileSync(process.env.BENCH_OWN_CPU, String((user + system) / 1000));
});
