#!/usr/bin/env node
// Drives the built `drift mcp` once over stdio with the MCP inspector's CLI (a client drift does not
// own): lists tools, resources and prompts, reads the contract, calls list, facets and one render,
// and asks for a path outside the project. Each answer is checked; any mismatch exits 1. Run by .ci/run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inspector = path.dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/inspector-cli/build/index.js')));
const server = [process.execPath, path.join(root, 'bin', 'drift.js'), '-c', path.join(root, 'drift.config.yaml'), 'mcp'];

/** One inspector call; its JSON answer. */
function call(method, ...extra) {
  // inspector-cli 1.0.3 looks for its own package.json relative to the working directory: run it from its build folder.
  const result = spawnSync(process.execPath, [path.join(inspector, 'index.js'), ...server, '--method', method, ...extra], {
    cwd: inspector,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) return { failed: true, text: `${result.stdout}${result.stderr}` };
  return JSON.parse(result.stdout);
}

let failures = 0;
function check(what, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) {
    failures += 1;
    if (detail !== undefined) console.log(typeof detail === 'string' ? detail : JSON.stringify(detail, null, 2).slice(0, 2000));
  }
}

const tools = call('tools/list');
const names = (tools.tools ?? []).map((tool) => tool.name).sort();
check('tools/list offers the judge and never accept or lock', ['diff', 'expect', 'explain', 'facets', 'list', 'render', 'rules', 'update'].every((name) => names.includes(name)) && !names.includes('accept') && !names.includes('lock'), names);

const resources = call('resources/list');
const uris = (resources.resources ?? []).map((resource) => resource.uri);
check('resources/list has the contract, the skill and every adapter', uris.some((uri) => uri.endsWith('CONTRACT.md')) && uris.some((uri) => uri.endsWith('SKILL.md')) && uris.filter((uri) => uri.startsWith('drift://adapter/')).length === 5, uris);

const contract = call('resources/read', '--uri', uris.find((uri) => uri.endsWith('CONTRACT.md')) ?? '');
check('resources/read returns CONTRACT.md', /#/.test(contract.contents?.[0]?.text ?? ''), contract);

const prompts = call('prompts/list');
check('prompts/list has the add-a-provider prompt', (prompts.prompts ?? []).length === 1, prompts);

const list = call('tools/call', '--tool-name', 'list');
check('list names the five bundled providers', list.structuredContent?.providers?.length === 5, list);

const render = call('tools/call', '--tool-name', 'render', '--tool-arg', 'provider=gke', '--tool-arg', 'scenario=converge', '--tool-arg', 'limit=40');
check('render returns a bounded YAML page of a real render', render.structuredContent?.provider === 'gke' && /kind:/.test(render.structuredContent?.yaml ?? ''), render);

const outside = call('tools/call', '--tool-name', 'render', '--tool-arg', 'provider=../../etc', '--tool-arg', 'scenario=converge');
check('a name that leaves the project is refused', outside.failed === true || outside.isError === true, outside);

if (failures) {
  console.log(`${failures} check(s) of drift mcp through the MCP inspector failed`);
  process.exit(1);
}
console.log('drift mcp answered the MCP inspector as expected');
