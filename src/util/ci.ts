import type { Environment } from './envVars.js';

/** Whether drift runs in CI: `CI` set to anything but `false` or `0`, as CI services set it. */
export function isCI(env: Environment): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
