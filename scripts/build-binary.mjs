// `npm run build:binary`: svc as one executable file with Node's single executable applications
// (SEA). esbuild bundles dist/ (from `npm run build`) and scripts/sea-entry.cjs into one
// CommonJS script, as SEA needs; `node --experimental-sea-config` turns it into a blob with
// package.json and fixtures/default.json as assets; postject injects the blob into a copy of
// this node binary. The result is dist-bin/svc (svc.exe on Windows).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { pooledShamirCsprng } from './esbuild-plugins.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist-bin');
const windows = process.platform === 'win32';
const binary = join(OUT, windows ? 'svc.exe' : 'svc');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const shamirCsprng = pooledShamirCsprng();
await build({
  entryPoints: [join(ROOT, 'scripts', 'sea-entry.cjs')],
  outfile: join(OUT, 'svc.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  // ES modules bundled as CommonJS have no import.meta; the entry sets the URL they would have.
  define: { 'import.meta.url': 'globalThis.__svcModuleUrl' },
  plugins: [shamirCsprng.plugin],
});
shamirCsprng.assertUsed();

const config = join(OUT, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: join(OUT, 'svc.cjs'),
    output: join(OUT, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    assets: { 'package.json': join(ROOT, 'package.json'), 'fixtures/default.json': join(ROOT, 'fixtures', 'default.json') },
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });

copyFileSync(process.execPath, binary);
const postject = [join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js'), binary, 'NODE_SEA_BLOB', join(OUT, 'sea-prep.blob'), '--sentinel-fuse', FUSE];
if (process.platform === 'darwin') {
  execFileSync('codesign', ['--remove-signature', binary]);
  postject.push('--macho-segment-name', 'NODE_SEA');
}
// postject's ELF writer warns about note sections it leaves alone; anything else is shown.
const injected = spawnSync(process.execPath, postject, { encoding: 'utf8' });
const warnings = injected.stderr.split('\n').filter((line) => line.trim() !== '' && !/Can't find string offset for section name/.test(line));
if (warnings.length > 0) console.error(warnings.join('\n'));
if (injected.status !== 0) throw new Error(`postject failed (exit ${injected.status})`);
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', binary]);

const mib = (statSync(binary).size / 1024 / 1024).toFixed(1);
console.log(`${binary} (${mib} MiB)`);
