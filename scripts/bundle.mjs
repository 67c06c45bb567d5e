// Bundles the compiled CLI (dist/cli/index.js) and its dependencies into one CommonJS file,
// dist/bundle/svc.cjs, which bin/svc.js loads through dist/startup/code-cache.js with a V8 code cache
// (Node 20 has no compile cache for ES modules; a vm.Script can take V8's cachedData). One
// file starts in a fraction of the time Node needs to resolve and compile hundreds of modules;
// what `svc serve` does not need at start (the conformance suite, undici, the WebAuthn and QR
// code libraries) sits in the file as functions that are neither compiled nor run until first
// used. Whitespace and comments are left out, so the file is ASCII and a third smaller to read.
// The file is written inside the CommonJS wrapper (manifest `wrapped`), so it is loaded only
// through dist/startup/code-cache.js. dist/bundle/manifest.json names the file and its SHA-256, which
// keys the code cache.
// `npm run bench` measures the start.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { WRAPPER_HEAD, WRAPPER_TAIL } from '../dist/startup/code-cache.js';
import { pooledShamirCsprng } from './esbuild-plugins.mjs';

const OUT = 'dist/bundle';
const MAIN = 'svc.cjs';
const shamirCsprng = pooledShamirCsprng();

rmSync(OUT, { recursive: true, force: true });
rmSync('dist/svc.mjs', { force: true }); // the one-file ES module bundle of earlier builds
const result = await build({
  entryPoints: ['dist/cli/index.js'],
  outfile: `${OUT}/${MAIN}`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  charset: 'ascii',
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: process.env['BUNDLE_REPORT'] === '1',
  plugins: [shamirCsprng.plugin],
  // ES modules bundled as CommonJS have no import.meta: the URL they would have is the bundle's.
  // The banner goes before esbuild's own "use strict", which would then not be a directive
  // and leave the whole bundle in sloppy mode: it opens with the directive itself.
  define: { 'import.meta.url': '__svcModuleUrl' },
  banner: { js: '"use strict";var __svcModuleUrl=require("node:url").pathToFileURL(__filename).href;' },
});
shamirCsprng.assertUsed();
// Written inside the CommonJS wrapper that dist/startup/code-cache.js compiles it in, so that a start
// compiles the text as it was read instead of a copy of it joined to the wrapper.
const wrapped = `${WRAPPER_HEAD}${readFileSync(`${OUT}/${MAIN}`, 'latin1')}${WRAPPER_TAIL}`;
writeFileSync(`${OUT}/${MAIN}`, wrapped, 'latin1');
const sha256 = createHash('sha256').update(wrapped, 'latin1').digest('hex');
writeFileSync(`${OUT}/manifest.json`, `${JSON.stringify({ main: MAIN, sha256, wrapped: true }, null, 2)}\n`);
if (result.metafile) {
  const inputs = Object.entries(result.metafile.outputs[`${OUT}/${MAIN}`]?.inputs ?? {}).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [file, input] of inputs.slice(0, 40)) console.log(`${String(input.bytesInOutput).padStart(9)} ${file}`);
}
