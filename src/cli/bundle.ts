/**
 * The entry of drift's one-file bundle (scripts/bundle.mjs), which bin/drift.js loads with V8's code
 * cache (codeCache.ts): the CLI, the reaper and the write guard, one instance of each, as bin/drift.js uses
 * them, and the MCP server's tools, which the tests call in-process from the same module.
 */
export { writeGuard } from '../goldens/atomicFile.js';
export * as reaper from '../functions/reaper.js';
export { main } from './main.js';
export { DriftTools } from '../mcp/tools.js';
export { setSpeedLayers, speedLayersOff } from '../util/speedLayers.js';
