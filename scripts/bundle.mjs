// Bundles the compiled CLI (dist/cli/index.js) and its dependencies into dist/bundle/: the
// entry svc.mjs, which bin/svc.js loads, and chunks for what is imported on demand (the
// conformance suite, undici, the WebAuthn and QR code libraries). Few files start in a
// fraction of the time Node needs to resolve and compile hundreds of modules, and what
// `svc serve` does not need at start is never compiled then (npm run bench measures it).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// shamir-secret-sharing draws its randomness through its own subpath `csprng`, one
// node:crypto call per byte of secret; the bundle gives it svc's pooled CSPRNG instead
// (dist/crypto/shamir-csprng.js, the same contract).
const SHAMIR_CSPRNG = fileURLToPath(new URL('../dist/crypto/shamir-csprng.js', import.meta.url));
let shamirCsprngResolved = 0;
const pooledShamirCsprng = {
  name: 'pooled-shamir-csprng',
  setup(build) {
    build.onResolve({ filter: /^shamir-secret-sharing\/csprng$/ }, () => {
      shamirCsprngResolved += 1;
      return { path: SHAMIR_CSPRNG };
    });
  },
};

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
  plugins: [pooledShamirCsprng],
  // CommonJS dependencies inside an ES module still need a require().
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
});
if (shamirCsprngResolved === 0) {
  throw new Error('shamir-secret-sharing no longer imports `shamir-secret-sharing/csprng`: update the pooled-shamir-csprng plugin in scripts/bundle.mjs');
}
if (result.metafile) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) console.log(`${String(output.bytes).padStart(9)} ${file}`);
}
