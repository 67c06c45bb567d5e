#!/usr/bin/env node
// The svc command. It runs the bundle that `npm run build` makes (dist/bundle/svc.mjs,
// which starts fastest), or the compiled modules when no bundle was made.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/bundle/svc.mjs', import.meta.url);
const { run } = await import(existsSync(bundle) ? bundle.href : '../dist/cli/index.js');
await run(process.argv);
