// Bundles the compiled CLI (dist/cli/index.js) and its dependencies into one ES module,
// dist/svc.mjs, which bin/svc.js loads: one file starts in a fraction of the time Node needs
// to resolve and compile hundreds of modules (npm run bench measures the cold start).
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/index.js'],
  outfile: 'dist/svc.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies inside an ES module still need a require().
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
});
