/**
 * A broken provider fails its own cells with a clear error while the others still render, and no
 * function process outlives the run. Each fixture under test/fixtures/broken breaks in one way.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAdapter, loadProject, loadScenario, selectProject } from '../../src/config/load.js';
import type { Adapter, Project } from '../../src/config/types.js';
import { runProject, type ProviderRun } from '../../src/pipeline/run.js';
import { encodeRequest } from '../../src/functions/encode.js';
import { FunctionProcess, StartError } from '../../src/functions/process.js';
import { buildRequest } from '../../src/world/protocol.js';
import type { Trace } from '../../src/world/trace.js';
import { buildXR } from '../../src/world/xr.js';
import { BROKEN, BROKEN_NAMES, brokenAdapter, REPO, tempProject } from '../helpers/project.js';
import { processesIn, waitFor } from '../helpers/processes.js';

const CALL_MS = 1500;
// Tag every process this file starts, so other test files' fixture processes never count here.
const TAG = randomUUID();

let project: Project;
let result: { providers: ProviderRun[]; traces: Trace[] };
let elapsedMs: number;
let survivors: ReturnType<typeof processesIn>;
/** Fixture processes seen while their provider was rendering: proves the survivor check can see them. */
const seenWhileRendering = new Map<string, ReturnType<typeof processesIn>>();
const temp = tempProject({
  providers: [path.join(REPO, 'providers/gke/provider.yaml'), ...BROKEN_NAMES.map(brokenAdapter)],
  scenarios: path.join(REPO, 'scenarios/converge.yaml'),
  concurrency: BROKEN_NAMES.length + 1,
  // Generous start: a crashed or exited process fails fast whatever this is; only a silent one waits it out.
  timeouts: { startMs: 20_000, callMs: CALL_MS },
});

beforeAll(async () => {
  process.env.DRIFT_TEST_TAG = TAG;
  project = selectProject(await loadProject(temp.configFile, undefined, process.env));
  const began = performance.now();
  const run = await runProject(project, {
    determinism: false,
    gating: false,
    onEvent: (event) => {
      if (event.type === 'provider-started' && event.provider !== 'gke') {
        seenWhileRendering.set(event.provider, processesIn(path.join(BROKEN, event.provider), TAG));
      }
    },
  });
  result = { providers: run.providers, traces: run.cells.map((cell) => cell.trace) };
  elapsedMs = performance.now() - began;
  survivors = processesIn(BROKEN, TAG);
});

afterAll(() => {
  temp.remove();
  // Vitest runs the files in one process (isolate: false): later files must not inherit this one's tag.
  delete process.env.DRIFT_TEST_TAG;
});

function trace(provider: string): Trace {
  const found = result.traces.filter((t) => t.provider === provider);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** A broken provider's cell: no steps, no convergence, an error. */
function failedCell(provider: string): string {
  const cell = trace(provider);
  expect(cell.scenario).toBe('converge');
  expect(cell.steps).toEqual([]);
  expect(cell.converged).toBeNull();
  expect(cell.error).toBeTypeOf('string');
  return cell.error!;
}

describe('a run with broken providers', () => {
  it('loads the real gke adapter and the five fixtures against one scenario', () => {
    expect(project.adapters.map((a) => a.name).sort()).toEqual(['crash', 'exit-zero', 'fatal', 'garbage', 'gke', 'hang']);
    expect(project.scenarios.map((s) => s.name)).toEqual(['converge']);
    // The fixtures' relative interpreter resolved against their own folder, to the repository's venv.
    for (const name of BROKEN_NAMES) {
      expect(project.adapters.find((a) => a.name === name)!.function.command[0]).toBe(path.join(REPO, '.venv/bin/python'));
    }
    expect(result.traces.map((t) => t.provider)).toEqual(['crash', 'exit-zero', 'fatal', 'garbage', 'gke', 'hang']);
  });

  it('crash: a start failure with the exit code and what the process printed', () => {
    const error = failedCell('crash');
    expect(error).toContain('crash: the function exited (code 1) before answering a call');
    expect(error).toContain('Command: ');
    expect(error).toContain('output (last lines):');
    expect(error).toContain('crash fixture: cannot load configuration /etc/drift-fixture.conf, giving up');
    // The command as the adapter wrote it: no random socket path, so reports are the same every run.
    // The interpreter's virtual environment is this machine's path: shown as <python> (src/util/redact.ts).
    expect(error).toContain(`Command: <python>/bin/python main.py --insecure --address {address}\n`);
    expect(error).not.toContain('unix:/');
    const start = result.providers.find((s) => s.provider === 'crash')!;
    expect(start.error).toBe(error);
  });

  it('exit-zero: an exit before answering is a start failure even with code 0', () => {
    const error = failedCell('exit-zero');
    expect(error).toContain('exit-zero: the function exited (code 0) before answering a call');
    // It printed nothing, so there is no output section to show.
    expect(error).not.toContain('output (last lines)');
    expect(result.providers.find((s) => s.provider === 'exit-zero')!.error).toBe(error);
  });

  it('hang: the call deadline fires and the error says it timed out, with the output tail', () => {
    const error = failedCell('hang');
    expect(error).toMatch(/timed out \(DEADLINE_EXCEEDED\): the function hung or is too slow/);
    // The function printed its address; the report shows it as {address}, never this run's socket path.
    expect(error).toContain('hang fixture: serving on {address}');
    expect(error).not.toContain('unix:/');
  });

  it('fatal: the Fatal result stops the simulation and its message is reported', () => {
    const error = failedCell('fatal');
    expect(error).toBe('step 0: the function returned a Fatal result: fatal fixture: spec.region us-central1 is not supported');
    expect(result.providers.find((s) => s.provider === 'fatal')!.error).toBeUndefined();
  });

  it('garbage: an answer that does not parse is named as not a RunFunctionResponse', () => {
    const error = failedCell('garbage');
    expect(error).toContain('the function answered something that is not a RunFunctionResponse');
    expect(error).toContain('garbage fixture: serving on {address}');
  });

  it('gke still renders and converges next to them', () => {
    const gke = trace('gke');
    expect(gke.error).toBeUndefined();
    expect(gke.converged).not.toBeNull();
    expect(gke.converged!.xrReady).toBe(true);
    const converged = gke.steps[gke.converged!.step]!;
    expect(converged.xrReady).toBe(true);
    expect(Object.keys(converged.resources).length).toBeGreaterThan(5);
    for (const [key, resource] of Object.entries(converged.resources)) expect([key, resource.ready]).toEqual([key, 'True']);
    expect(result.providers.find((s) => s.provider === 'gke')!.error).toBeUndefined();
  });

  it('leaves no fixture process running once the run returns', () => {
    // The providers that started were visible, in their own folders, while they rendered ...
    expect([...seenWhileRendering.keys()].sort()).toEqual(['fatal', 'garbage', 'hang']);
    for (const [provider, seen] of seenWhileRendering) {
      expect(seen.map((p) => [p.cwd, p.args.includes('main.py --insecure --address unix:')])).toEqual([[path.join(BROKEN, provider), true]]);
    }
    // ... and none is left.
    expect(survivors).toEqual([]);
  });

  it('is bounded by the call deadline, not by the start timeout', () => {
    // The hang provider costs one timed-out probe; nothing waits out startMs.
    expect(elapsedMs).toBeLessThan(project.config.timeouts.startMs);
  });
});

describe('FunctionProcess start failures and stop', () => {
  const python = path.join(REPO, '.venv/bin/python');
  const scenario = loadScenario(path.join(REPO, 'scenarios/converge.yaml'));
  const fatal = loadAdapter(brokenAdapter('fatal'));
  const probe = buildRequest(buildXR(fatal, scenario), new Map(), undefined);

  /** The fatal fixture's adapter, started another way. */
  function variant(command: string[], env: Record<string, string> = {}): Adapter {
    return { ...fatal, function: { ...fatal.function, command, env } };
  }

  async function startError(adapter: Adapter, startMs: number): Promise<string> {
    try {
      const fn = await FunctionProcess.start(adapter, { startMs, callMs: 1000, probe, env: process.env });
      await fn.stop();
    } catch (error) {
      expect(error).toBeInstanceOf(StartError);
      return (error as Error).message;
    }
    throw new Error('expected the start to fail');
  }

  it('a function that hangs on the probe is reported after one call deadline, not two', async () => {
    const hang = loadAdapter(brokenAdapter('hang'));
    const hangProbe = buildRequest(buildXR(hang, scenario), new Map(), undefined);
    const callMs = 1000;
    const fn = await FunctionProcess.start(hang, { startMs: 20_000, callMs, probe: hangProbe, env: process.env });
    try {
      // The first step asks what the probe asked: the answer is the probe's timeout, at once.
      const began = performance.now();
      const error = await fn.call(encodeRequest(hangProbe)).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const waited = performance.now() - began;
      expect(error?.message).toMatch(/timed out \(DEADLINE_EXCEEDED\): the function hung or is too slow/);
      expect(error?.message).toContain('hang fixture: serving on {address}');
      // A second wait would take a whole call deadline; anything short of one is "at once", however loaded the machine.
      expect(waited).toBeLessThan(callMs);
    } finally {
      await fn.stop();
    }
  });

  it('a start timeout says it timed out, not that the process exited from the SIGTERM drift sent', async () => {
    const error = await startError(variant([python, '-c', 'import time; time.sleep(60)', '--address', '{address}']), 400);
    expect(error).toMatch(/^fatal: the function did not answer a call within 400 ms \(/);
    expect(error).not.toContain('SIGTERM');
    expect(error).not.toContain('exited');
    expect(error).toContain('--address {address}');
    expect(error).not.toContain('unix:/');
  });

  it('a program that does not exist is named, with its error code and where to fix it', async () => {
    const error = await startError(variant(['/no/such/interpreter', 'main.py', '--address', '{address}']), 5000);
    expect(error).toBe(
      `fatal: could not run /no/such/interpreter: ENOENT (no such program or file); check function.command in ${fatal.file}. ` +
        'Command: /no/such/interpreter main.py --address {address}',
    );
  });

  it('a program that is not executable says EACCES, not "exited (code unknown)"', async () => {
    const error = await startError(variant([fatal.file, '--address', '{address}']), 5000);
    expect(error).toContain(`fatal: could not run ${fatal.file}: EACCES (permission denied: is it executable?); check function.command in ${fatal.file}`);
    expect(error).not.toContain('code unknown');
  });

  it('stop() kills what the function left in its process group, even once the leader is gone', async () => {
    const tag = randomUUID();
    // The grandchild ignores SIGTERM and holds none of the output pipes (which would keep drift
    // waiting); the leader (python, exec'd by sh) dies of SIGTERM at once.
    const script = `(trap '' TERM; exec sleep 777 </dev/null >/dev/null 2>&1) & exec "$0" main.py --insecure --address "$1"`;
    const fn = await FunctionProcess.start(variant(['sh', '-c', script, python, '{address}'], { DRIFT_TEST_TAG: tag }), { startMs: 20_000, callMs: 2000, probe, env: process.env });
    const folder = path.join(BROKEN, 'fatal');
    const socketFolder = path.dirname(fn.address.slice('unix:'.length));
    try {
      const running = processesIn(folder, tag);
      expect(running.map((p) => p.args).sort()).toEqual([`${python} main.py --insecure --address ${fn.address}`, 'sleep 777'].sort());
      await fn.stop();
      await waitFor(() => processesIn(folder, tag).length === 0, 3000, 'the grandchild to die with its group');
      expect(existsSync(socketFolder)).toBe(false);
    } finally {
      for (const { pid } of processesIn(folder, tag)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  });
});
