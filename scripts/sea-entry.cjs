// The entry of the single-file executable (Node SEA; scripts/build-binary.mjs bundles it with
// dist/cli/index.js). The package's own files — package.json for the version and the default
// fixture — travel as SEA assets; they are written once to a cache dir named after their
// content, so the code finds them there as it finds them beside dist/ in the npm package.
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, renameSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const sea = require('node:sea');

const ASSETS = ['package.json', 'fixtures/default.json'];

function packageRoot() {
  const texts = ASSETS.map((name) => sea.getAsset(name, 'utf8'));
  const digest = createHash('sha256').update(texts.join('\0')).digest('hex').slice(0, 16);
  const root = join(process.env.SVC_CACHE_DIR || tmpdir(), `svc-sea-${digest}`);
  ASSETS.forEach((name, i) => {
    const path = join(root, name);
    if (existsSync(path)) return;
    mkdirSync(dirname(path), { recursive: true });
    // Write-then-rename: two starts at once never see half a file.
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, texts[i]);
    renameSync(temp, path);
  });
  return root;
}

// src/paths.ts walks up from its module's URL to the dir holding package.json and fixtures/.
globalThis.__svcModuleUrl = pathToFileURL(join(packageRoot(), 'dist', 'svc.cjs')).href;
const { run } = require('../dist/cli/index.js');
run(process.argv).catch((error) => {
  process.stderr.write(`error ${error && error.message ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
