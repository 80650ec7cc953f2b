import type { Invocation } from './io.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DriftError } from '../errors.js';
import { projectFor } from './context.js';

interface RenderOptions {
  provider: string;
  scenario: string;
  step?: number;
  allSteps?: boolean;
}

const parseStep = (value: string): number => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a step is a whole number from 0');
  return Number(value);
};

export function registerRender(program: Command, cli: Invocation): void {
  program
    .command('render')
    .description("render one provider × scenario and print a step's output as a YAML stream (default: the last step)")
    .requiredOption('-p, --provider <name>', 'the provider')
    .requiredOption('-s, --scenario <name>', 'the scenario')
    .addOption(new Option('--step <n>', 'print only step N').argParser(parseStep).conflicts('allSteps'))
    .addOption(new Option('--all-steps', 'print every step').conflicts('step'))
    .action(async (options: RenderOptions, command: Command) => {
      const project = await projectFor(command, cli, [options.provider], [options.scenario]);
      const [{ runProject }, { renderStep }, { CROSSPLANE_VERSION }] = await Promise.all([import('../pipeline/run.js'), import('../functions/stream.js'), import('../world/crossplane.js')]);
      // Only the trace is printed: no replays, no ablations.
      const { providers, cells } = await runProject(project, { determinism: false, gating: false });
      const startError = providers.find((provider) => provider.error)?.error;
      if (startError) throw new DriftError(startError);
      const trace = cells[0]!.trace;
      const last = trace.steps.length - 1;
      if (options.step !== undefined && options.step > last) {
        throw new DriftError(`${trace.provider}/${trace.scenario} has steps 0 to ${last}; there is no step ${options.step}`);
      }
      const steps = options.allSteps ? trace.steps : trace.steps.filter((step) => step.index === (options.step ?? last));
      cli.io.stdout.write(steps.map(renderStep).join(''));
      const summary = trace.converged
        ? `converged at step ${trace.converged.step}, XR ${trace.converged.xrReady ? 'Ready' : 'not Ready'}`
        : `did not converge within ${project.config.maxSteps} steps`;
      cli.io.stderr.write(`# ${trace.provider}/${trace.scenario}: ${trace.steps.length} steps, ${summary} (Crossplane ${CROSSPLANE_VERSION} semantics)\n`);
      if (trace.error) {
        cli.io.stderr.write(`error: ${trace.provider}/${trace.scenario}: ${trace.error}\n`);
        cli.code = 1;
      }
    });
}
