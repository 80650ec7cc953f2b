#!/usr/bin/env node
// Runs each bundled provider's pytest suite in its own folder, all in one Python process: starting
// Python and importing pytest, grpc and the SDK once instead of once per provider. Every provider is
// a separate Python project with its own `function` package, so between providers the driver forgets
// every module loaded from the previous one's folder and the import paths pytest added for it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const python = path.join(root, '.venv', 'bin', 'python');
const providers = path.join(root, 'providers');
const dirs = readdirSync(providers)
  .sort()
  .map((name) => path.join(providers, name))
  .filter((dir) => existsSync(path.join(dir, 'tests')));

const DRIVER = `
import os, sys
import pytest

failed = []
for folder in sys.argv[1:]:
    # What the previous provider left: its modules (function, builders, its tests) and pytest's rootdir paths.
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None) or ""
        if where.startswith(os.path.dirname(folder) + os.sep):
            del sys.modules[name]
    sys.path[:] = [entry for entry in sys.path if not entry.startswith(os.path.dirname(folder) + os.sep)]
    os.chdir(folder)
    sys.path.insert(0, folder)
    print(f"providers/{os.path.basename(folder)}:", flush=True)
    code = pytest.main(["-q", "-p", "no:cacheprovider", "tests"])
    sys.path.remove(folder)
    if code != 0:
        failed.append(os.path.basename(folder))
if failed:
    print("providers failing their tests: " + ", ".join(failed), flush=True)
sys.exit(1 if failed else 0)
`;

const result = spawnSync(python, ['-c', DRIVER, ...dirs], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
