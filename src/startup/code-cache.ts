/**
 * Loads the CLI bundle (dist/bundle/svc.cjs, made by scripts/bundle.mjs) with a V8 code cache.
 * Node 20 compiles every module from source on every start (the module compile cache came in
 * Node 22); a vm.Script can take the cachedData V8 made from the same source, and then runs
 * without parsing or compiling what the cache holds. The cache is made on a command's first
 * run, once it has started (so it holds what starting compiled), and written beside the user's
 * other caches, one file per command, bundle (its SHA-256) and Node version.
 *
 * Where: $SVC_CACHE_DIR, else the platform's per-user cache dir ($XDG_CACHE_HOME or
 * ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows) under `svc/`. Not
 * the data dir: `--in-memory` has none, tests and benchmarks start from fresh ones, and the
 * cache belongs to the installed svc, not to the data. Not a shared temp dir unless there is
 * no home: V8 trusts cachedData it accepts, so the dir must be writable by this user only
 * (created 0700; a dir owned by someone else is not used).
 *
 * Nothing here may stop a start: a missing, unreadable, stale or rejected cache means a normal
 * compile (and a new cache); a cache that cannot be written is skipped. SVC_CODE_CACHE=0
 * turns it off.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The bundle's exports: the CLI's run(). */
export interface CliModule {
  run(argv: string[]): Promise<void>;
}

/** What became of the code cache in a load: none (off, or no place for it), made anew, used, or refused by V8 (and made anew). */
export type CacheOutcome = 'none' | 'made' | 'used' | 'rejected';

export interface LoadedBundle {
  cli: CliModule;
  cache: CacheOutcome;
  /** The cache file this load reads or writes, if any. */
  cacheFile: string | null;
}

/** What scripts/bundle.mjs writes beside the bundle. */
interface Manifest {
  main: string;
  sha256: string;
  /** The file is already wrapped in WRAPPER_HEAD and WRAPPER_TAIL. */
  wrapped?: boolean;
}

/** How long a command runs before its cache is made: long enough to have started, and served a first request. */
export const CACHE_AFTER_MS = 1_000;

/**
 * Node's CommonJS wrapper, so the bundle runs as if require() had loaded it. scripts/bundle.mjs
 * writes the bundle already wrapped (manifest `wrapped`): wrapping 3 MB of source here joined
 * two strings that V8 then copied whole into one before compiling it.
 */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const WRAPPER_TAIL = '\n})';

/** The per-user dir for the cache, or null when there is none fit for it. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (env['SVC_CACHE_DIR']) return join(env['SVC_CACHE_DIR'], 'code-cache');
  let home = '';
  try {
    home = homedir();
  } catch {
    /* no home (a service account): the temp dir below */
  }
  if (platform === 'win32' && env['LOCALAPPDATA']) return join(env['LOCALAPPDATA'], 'svc', 'Cache', 'code-cache');
  if (platform === 'darwin' && home) return join(home, 'Library', 'Caches', 'svc', 'code-cache');
  if (env['XDG_CACHE_HOME']) return join(env['XDG_CACHE_HOME'], 'svc', 'code-cache');
  if (home) return join(home, '.cache', 'svc', 'code-cache');
  const uid = process.getuid?.();
  return uid === undefined ? null : join(tmpdir(), `svc-${uid}`, 'code-cache');
}

/** Whether `dir` is this user's own: V8 runs what an accepted cache holds. */
function trusted(dir: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true; // Windows: the per-user %LOCALAPPDATA%
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The cache file of one command of one bundle on this Node: any change of either is another file. */
export function cacheFile(dir: string, sha256: string, command: string): string {
  const safeCommand = /^[a-z][\w-]{0,31}$/.test(command) ? command : 'other';
  return join(dir, `${sha256.slice(0, 32)}-node${process.versions.node}-${process.arch}-${safeCommand}.v8cache`);
}

function readCache(dir: string, file: string): Buffer | undefined {
  if (!trusted(dir)) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** How long the caches of other bundles (an earlier svc, another build) are kept after they were made. */
export const STALE_CACHE_MS = 24 * 60 * 60 * 1000;

/** Writes through a temp file and a rename, so that two starts at once never read half a cache. */
function writeCache(dir: string, file: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!trusted(dir)) return;
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, data, { mode: 0o600 });
    try {
      renameSync(temp, file);
    } catch {
      unlinkSync(temp);
    }
    pruneCaches(dir, basename(file));
  } catch {
    /* a cache is an optimisation: a read-only home is not an error */
  }
}

/**
 * Removes what other bundles left in `dir` more than a day ago: every upgrade or rebuild makes
 * a new bundle and a cache file per command, about a megabyte each, and nothing else ever
 * removes the old ones. A removed cache that is still in use (two installed versions) is made
 * again on that version's next start. Files of the bundle that is writing (`current`) stay.
 */
function pruneCaches(dir: string, current: string, now = Date.now()): void {
  const bundle = current.slice(0, current.indexOf('-'));
  for (const name of readdirSync(dir)) {
    if (name.startsWith(`${bundle}-`) || !/^[0-9a-f]{32}-.*\.v8cache(\..*\.tmp)?$/.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_CACHE_MS) unlinkSync(path);
    } catch {
      /* gone already, or removed by another start at the same time */
    }
  }
}

/**
 * Loads the bundle at `bundleFile` for `command` (the CLI's first argument), with the code
 * cache when it is on and usable; the bundle's own errors are not caught here.
 */
export function loadBundle(bundleFile: string, command: string, env: NodeJS.ProcessEnv = process.env): LoadedBundle {
  // Read as UTF-8 (the file is ASCII, scripts/bundle.mjs) so that V8 holds the text in its own
  // heap. Read as latin1, Node hands V8 a text this large as an external string, and with one
  // the request path ran ~10% slower for the life of the process (docs/performance.md#external-source).
  const source = readFileSync(bundleFile, 'utf8');
  let dir: string | null = null;
  let file: string | null = null;
  let cached: Buffer | undefined;
  let manifest: Manifest | undefined;
  try {
    manifest = JSON.parse(readFileSync(join(dirname(bundleFile), 'manifest.json'), 'utf8')) as Manifest;
    if (env['SVC_CODE_CACHE'] !== '0') {
      dir = cacheDir(env);
      if (dir !== null && /^[0-9a-f]{64}$/.test(manifest.sha256)) {
        file = cacheFile(dir, manifest.sha256, command);
        cached = readCache(dir, file);
      }
    }
  } catch {
    dir = file = null; // no manifest (a hand-made bundle): no cache
  }
  const wrapped = manifest?.wrapped === true ? source : `${WRAPPER_HEAD}${source}${WRAPPER_TAIL}`;
  let script: Script;
  try {
    script = new Script(wrapped, { filename: bundleFile, ...(cached ? { cachedData: cached } : {}) });
  } catch (error) {
    if (cached === undefined) throw error;
    cached = undefined; // V8 refuses bad cachedData by flagging it; should it ever throw, compile afresh
    script = new Script(wrapped, { filename: bundleFile });
  }
  if (dir !== null && file !== null && (cached === undefined || script.cachedDataRejected === true)) {
    const [cacheDirectory, cachePath] = [dir, file];
    let made = false;
    const make = (): void => {
      process.off('beforeExit', make);
      if (made) return;
      made = true;
      writeCache(cacheDirectory, cachePath, script.createCachedData());
    };
    // Made once the command has started, so the cache holds what starting compiled; a command
    // done sooner makes it as it ends.
    setTimeout(make, CACHE_AFTER_MS).unref();
    process.once('beforeExit', make);
  }
  const module = { exports: {} as CliModule };
  const evaluate = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  evaluate(module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  const cache: CacheOutcome = file === null ? 'none' : cached === undefined ? 'made' : script.cachedDataRejected === true ? 'rejected' : 'used';
  return { cli: module.exports, cache, cacheFile: file };
}
