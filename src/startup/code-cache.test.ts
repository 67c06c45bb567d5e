/**
 * The code cache, each load in a process of its own as in use: within one process V8 answers a
 * source it compiled before from its own in-memory cache and never looks at cachedData.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheDir, STALE_CACHE_MS, WRAPPER_HEAD, WRAPPER_TAIL, type CacheOutcome } from './code-cache.js';

const run = promisify(execFile);
const CODE_CACHE = fileURLToPath(new URL('./code-cache.ts', import.meta.url));

/** A stand-in for dist/bundle/svc.cjs: CommonJS that exports run() and uses require and __filename. */
const BUNDLE = `var path = require("node:path");
function greet(name) { return "hello " + name + " from " + path.basename(__filename); }
exports.run = async function run(argv) { console.log(greet(argv[2])); };
`;

let work: string;
let bundle: string;
let env: Record<string, string>;

function writeBundle(text: string, manifest = true, wrapped = false): void {
  writeFileSync(bundle, text);
  if (manifest)
    writeFileSync(
      join(work, 'manifest.json'),
      JSON.stringify({ main: 'svc.cjs', sha256: createHash('sha256').update(text).digest('hex'), ...(wrapped ? { wrapped } : {}) }),
    );
}

/** Loads the bundle in a new process for `command` and runs it; the cache is made as that process ends. */
async function load(command = 'serve'): Promise<{ cache: CacheOutcome; cacheFile: string | null; printed: string }> {
  const script = `import { loadBundle } from ${JSON.stringify(CODE_CACHE)};
const loaded = loadBundle(${JSON.stringify(bundle)}, ${JSON.stringify(command)});
await loaded.cli.run(['node', 'svc', 'there']);
console.log(JSON.stringify({ cache: loaded.cache, cacheFile: loaded.cacheFile }));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, SVC_CODE_CACHE: '', ...env },
  });
  const [printed, outcome] = stdout.trim().split('\n');
  return { ...(JSON.parse(outcome!) as { cache: CacheOutcome; cacheFile: string | null }), printed: printed! };
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-code-cache-'));
  bundle = join(work, 'svc.cjs');
  env = { SVC_CACHE_DIR: join(work, 'cache') };
  writeBundle(BUNDLE);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('loadBundle', () => {
  it('makes the cache on a first run and uses it on the next, the bundle running the same both times', async () => {
    const first = await load();
    expect(first).toMatchObject({ cache: 'made', printed: 'hello there from svc.cjs' });
    expect(existsSync(first.cacheFile!)).toBe(true);
    const second = await load();
    expect(second).toMatchObject({ cache: 'used', cacheFile: first.cacheFile, printed: 'hello there from svc.cjs' });
  });

  it('runs a bundle written inside the CommonJS wrapper as it is, with its cache', async () => {
    writeBundle(`${WRAPPER_HEAD}${BUNDLE}${WRAPPER_TAIL}`, true, true);
    expect(await load()).toMatchObject({ cache: 'made', printed: 'hello there from svc.cjs' });
    expect(await load()).toMatchObject({ cache: 'used', printed: 'hello there from svc.cjs' });
  });

  it('keeps one cache per command, bundle and Node version', async () => {
    const serve = await load('serve');
    expect(serve.cacheFile).toContain(`node${process.versions.node}-${process.arch}-serve`);
    expect((await load('clock')).cacheFile).not.toBe(serve.cacheFile);

    writeBundle(BUNDLE.replace('hello', 'hi'));
    const rebuilt = await load('serve');
    expect(rebuilt).toMatchObject({ cache: 'made', printed: 'hi there from svc.cjs' });
    expect(rebuilt.cacheFile).not.toBe(serve.cacheFile);
  });

  it("removes other bundles' caches made more than a day ago when it makes one, and keeps its own", async () => {
    const first = await load('serve');
    const dir = join(work, 'cache', 'code-cache');
    const old = new Date(Date.now() - STALE_CACHE_MS - 60_000);
    const other = (sha: string, name: string, at: Date): string => {
      const path = join(dir, `${sha}-${name}`);
      writeFileSync(path, 'an older build');
      utimesSync(path, at, at);
      return path;
    };
    const stale = other('a'.repeat(32), `node${process.versions.node}-${process.arch}-serve.v8cache`, old);
    const staleTemp = other('b'.repeat(32), 'node20.0.0-x64-clock.v8cache.123.abcd.tmp', old);
    const recent = other('c'.repeat(32), `node${process.versions.node}-${process.arch}-serve.v8cache`, new Date());
    const notOurs = join(dir, 'notes.txt');
    writeFileSync(notOurs, 'kept');
    utimesSync(notOurs, old, old);
    utimesSync(first.cacheFile!, old, old); // its own bundle's, however old
    await load('clock');
    const clock = basename(first.cacheFile!).replace(/-serve\.v8cache$/, '-clock.v8cache');
    expect(readdirSync(dir).sort()).toEqual([basename(recent), basename(first.cacheFile!), clock, 'notes.txt'].sort());
    expect([stale, staleTemp].filter((path) => existsSync(path))).toEqual([]);
  });

  it('runs without the cache, and makes a new one, when V8 refuses it', async () => {
    const first = await load();
    writeFileSync(first.cacheFile!, 'not a V8 code cache');
    expect(await load()).toMatchObject({ cache: 'rejected', printed: 'hello there from svc.cjs' });
    expect(readFileSync(first.cacheFile!).toString()).not.toBe('not a V8 code cache');
    expect((await load()).cache).toBe('used');
  });

  it('uses no cache when it is off or there is no manifest', async () => {
    env = { ...env, SVC_CODE_CACHE: '0' };
    expect(await load()).toMatchObject({ cache: 'none', printed: 'hello there from svc.cjs' });
    env = { SVC_CACHE_DIR: join(work, 'cache') };
    rmSync(join(work, 'manifest.json'));
    expect(await load()).toMatchObject({ cache: 'none', printed: 'hello there from svc.cjs' });
  });

  it.skipIf(process.platform === 'win32')('neither reads nor writes a cache in a dir others may write', async () => {
    const first = await load();
    const dir = join(work, 'cache', 'code-cache');
    chmodSync(dir, 0o777);
    expect((await load()).cache).toBe('made');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    chmodSync(dir, 0o700);
    expect(await load()).toMatchObject({ cache: 'used', cacheFile: first.cacheFile });
  });

  it('still runs when the cache dir cannot be made', async () => {
    writeFileSync(join(work, 'cache'), 'a file where the dir would go');
    expect(await load()).toMatchObject({ cache: 'made', printed: 'hello there from svc.cjs' });
  });
});

describe('cacheDir', () => {
  it('follows SVC_CACHE_DIR, then the platform: XDG_CACHE_HOME or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%', () => {
    expect(cacheDir({ SVC_CACHE_DIR: '/c' }, 'linux')).toBe(join('/c', 'code-cache'));
    expect(cacheDir({ XDG_CACHE_HOME: '/x' }, 'linux')).toBe(join('/x', 'svc', 'code-cache'));
    expect(cacheDir({}, 'linux')).toMatch(/\.cache[/\\]svc[/\\]code-cache$/);
    expect(cacheDir({}, 'darwin')).toMatch(/Library[/\\]Caches[/\\]svc[/\\]code-cache$/);
    expect(cacheDir({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'win32')).toBe(join('C:\\Users\\a\\AppData\\Local', 'svc', 'Cache', 'code-cache'));
  });
});
