// npm's `prepare`: builds dist/ after `npm install` in a checkout and before `npm pack`. Not under
// `npx svc` (`npm exec`), which installs the checkout into npm's cache and would run this with its
// output hidden, a build of minutes that looks like a hang: bin/svc.js builds there instead, saying
// so on stderr, when dist/ is missing (README: Running svc from a checkout).
import { spawnSync } from 'node:child_process';

if (process.env.npm_command === 'exec') process.exit(0);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const { status } = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(status ?? 1);
