#!/usr/bin/env node
// The svc command. It runs the bundle that `npm run build` makes (dist/bundle/svc.cjs, which
// starts fastest, through dist/speed/code-cache.js and its V8 code cache), or the compiled modules
// when no bundle was made.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/bundle/svc.cjs', import.meta.url));
const { run } = existsSync(bundle)
  ? (await import('../dist/speed/code-cache.js')).loadBundle(bundle, process.argv[2] ?? '').cli
  : await import('../dist/cli/index.js');
await run(process.argv);
