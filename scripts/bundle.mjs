// Bundles the compiled CLI (dist/cli/index.js) and its dependencies into dist/bundle/: the
// entry svc.mjs, which bin/svc.js loads, and chunks for what is imported on demand (the
// conformance suite, undici, the WebAuthn and QR code libraries). Few files start in a
// fraction of the time Node needs to resolve and compile hundreds of modules, and what
// `svc serve` does not need at start is never compiled then (npm run bench measures it).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { pooledShamirCsprng } from './esbuild-plugins.mjs';

const shamirCsprng = pooledShamirCsprng();

rmSync('dist/bundle', { recursive: true, force: true });
rmSync('dist/svc.mjs', { force: true }); // the one-file bundle of earlier builds
const result = await build({
  entryPoints: { svc: 'dist/cli/index.js' },
  outdir: 'dist/bundle',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: process.env['BUNDLE_REPORT'] === '1',
  plugins: [shamirCsprng.plugin],
  // CommonJS dependencies inside an ES module still need a require().
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
});
shamirCsprng.assertUsed();
if (result.metafile) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) console.log(`${String(output.bytes).padStart(9)} ${file}`);
}
