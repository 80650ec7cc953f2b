import { contractJson } from './contractJson.js';
import { contractMarkdown } from './contractMarkdown.js';
import { CONTRACT_FILES, type ContractInput } from './contractModel.js';
import { skillMarkdown } from './skill.js';

/** Every file `drift contract` writes, relative to the contract folder, in a fixed order. */
export function contractFiles(input: ContractInput): Array<{ file: string; text: string }> {
  return [
    { file: CONTRACT_FILES.markdown, text: contractMarkdown(input) },
    { file: CONTRACT_FILES.skill, text: skillMarkdown(input) },
    { file: CONTRACT_FILES.json, text: contractJson(input) },
  ];
}
