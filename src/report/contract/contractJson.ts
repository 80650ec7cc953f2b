import { CONTRACT_FILES, SKILL_NAME, sortedAccepted, sortedLocked, type ContractInput } from './contractModel.js';

/** The contract for tools: the same content as CONTRACT.md, as data. Bump `schemaVersion` on an incompatible change. */
export function contractJson(input: ContractInput): string {
  const contract = {
    schemaVersion: 1,
    tool: 'drift',
    files: { ...CONTRACT_FILES },
    skill: SKILL_NAME,
    roles: input.roles,
    rules: input.rules,
    locked: sortedLocked(input.locked),
    style: input.style,
    accepted: sortedAccepted(input.accepted),
    providers: input.providers,
  };
  return `${JSON.stringify(contract, null, 2)}\n`;
}
