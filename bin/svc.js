#!/usr/bin/env node
// The svc command. It runs the bundle that `npm run build` makes (dist/bundle/svc.cjs, which
// starts fastest, through dist/startup/code-cache.js and its V8 code cache), or the compiled modules
// when no bundle was made. In a checkout with no dist/ yet (`npx svc` skips npm's build, see
// scripts/prepare.mjs) it builds first, saying so on stderr: never a silent wait.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/bundle/svc.cjs', import.meta.url));
const modules = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
const checkout = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(bundle) && !existsSync(modules) && existsSync(fileURLToPath(new URL('../src/cli/index.ts', import.meta.url)))) {
  process.stderr.write('svc: dist/ is not built in this checkout; building it first (npm run build, a minute or more)…\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { spawnSync } = await import('node:child_process');
  const built = spawnSync(npm, ['run', 'build'], { cwd: checkout, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
  if (built.status !== 0) {
    process.stderr.write('error: the build failed (above); run npm run build in the checkout to see why\n');
    process.exit(1);
  }
  process.stderr.write('svc: built; running the command\n');
}
const { run } = existsSync(bundle)
  ? (await import('../dist/startup/code-cache.js')).loadBundle(bundle, process.argv[2] ?? '').cli
  : await import('../dist/cli/index.js');
await run(process.argv);
