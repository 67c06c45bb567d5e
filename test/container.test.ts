/**
 * The container image, as far as this machine can take it: the Containerfile is built
 * with Debian's buildah (`--isolation chroot`) on a Debian base that scripts/container-base.sh
 * makes locally with mmdebstrap (no registry), then the image's own entrypoint and command run
 * from the image's filesystem under chroot, as its non-root user, and answer /v1/readyz on
 * loopback. `podman run` cannot run here (crun: "cgroups in hybrid mode not supported"), so the
 * process shares the host's network rather than getting its own: a port is picked free and given
 * in place of 4010.
 *
 * Opt-in with SVC_CONTAINER_TEST=1: a first run downloads Debian's packages for the base (about
 * two minutes here); later runs reuse the base image. It needs root (buildah's storage and
 * mounts, chroot) and buildah, mmdebstrap and chroot; REQUIRE_CONTAINER=1 fails instead of skipping.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/test-support/ports.js';
import { ensureBuilt, ROOT } from '../src/test-support/serve-process.js';

const run = promisify(execFile);
const BASE = 'localhost/svc-base:trixie';
const IMAGE = 'localhost/svc:container-test';
const TOOLS = ['buildah', 'mmdebstrap', 'chroot'];

function availability(): { available: boolean; reason: string } {
  const missing = TOOLS.filter((tool) => !['/usr/bin', '/usr/sbin', '/bin', '/sbin'].some((dir) => existsSync(join(dir, tool))));
  const reason =
    process.env['SVC_CONTAINER_TEST'] !== '1'
      ? 'opt-in: set SVC_CONTAINER_TEST=1 (builds a Debian base with mmdebstrap, about two minutes the first time)'
      : process.getuid?.() !== 0
        ? 'needs root: buildah mounts the image and chroot runs its entrypoint'
        : missing.length > 0
          ? `${missing.join(', ')} not found: apt-get install -y buildah mmdebstrap`
          : '';
  if (reason !== '' && process.env['REQUIRE_CONTAINER'] === '1') throw new Error(`REQUIRE_CONTAINER=1 but ${reason}`);
  return { available: reason === '', reason };
}

const { available, reason } = availability();
if (!available) console.warn(`Skipping the container test: ${reason}`);

interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  ExposedPorts: Record<string, object>;
  Volumes: Record<string, object>;
  WorkingDir: string;
  Healthcheck: { Test: string[] };
}

const buildah = async (...args: string[]): Promise<string> => (await run('buildah', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();

/** A host address that is not loopback, to call the server as a caller from the network would. */
function networkAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
}

describe.skipIf(!available)('the container image, built here and run from its own files', () => {
  let config: ImageConfig;
  let container = '';
  let rootfs = '';
  let port = 0;
  let server: ChildProcess | undefined;
  let output = '';

  /** A command of the image run under chroot as the image's user, with the image's environment (and SVC_PORT). */
  const inImage = (command: string[]): string[] => [
    `--userspec=${config.User}`,
    rootfs,
    '/usr/bin/env',
    '-i',
    ...config.Env.filter((entry) => !entry.startsWith('SVC_PORT=')),
    `SVC_PORT=${port}`,
    'HOME=/data',
    ...command,
  ];
  const healthCheck = async (): Promise<number> => {
    const [kind, ...command] = config.Healthcheck.Test;
    expect(kind).toBe('CMD');
    return run('chroot', inImage(command)).then(
      () => 0,
      (failure: { code?: number }) => failure.code ?? -1,
    );
  };

  beforeAll(async () => {
    await ensureBuilt();
    if ((await buildah('images', '--quiet', BASE).catch(() => '')) === '') {
      await run(join(ROOT, 'scripts', 'container-base.sh'), [BASE], { cwd: ROOT });
    }
    await buildah('build', '--isolation', 'chroot', '--format', 'docker', '--quiet', '-t', IMAGE, '-f', 'Containerfile', '.');
    const inspected = JSON.parse(await buildah('inspect', '--type', 'image', IMAGE)) as { Docker: { config: ImageConfig } };
    config = inspected.Docker.config;
    container = await buildah('from', '--quiet', IMAGE);
    rootfs = await buildah('mount', container);
    port = await freePort();
    const command = [...config.Entrypoint, ...config.Cmd.map((arg, i) => (config.Cmd[i - 1] === '--port' ? String(port) : arg))];
    server = spawn('chroot', inImage(command), { stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  }, 600_000);

  afterAll(async () => {
    if (server?.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    if (container !== '') {
      await buildah('umount', container).catch(() => undefined);
      await buildah('rm', container).catch(() => undefined);
    }
    await buildah('rmi', IMAGE).catch(() => undefined);
  });

  it('is configured to serve on 0.0.0.0:4010 as a non-root user, data in a volume, with a health check in node', () => {
    expect(config.User).toBe('10001:10001');
    expect(config.Cmd).toEqual(['serve', '--host', '0.0.0.0', '--port', '4010', '--data-dir', '/data']);
    expect(config.Entrypoint).toEqual(['node', '/opt/svc/bin/svc.js']);
    expect(Object.keys(config.ExposedPorts)).toEqual(['4010/tcp']);
    expect(Object.keys(config.Volumes)).toEqual(['/data']);
    expect(config.Healthcheck.Test.slice(0, 2)).toEqual(['CMD', 'node']);
    // Nothing but the package: no node_modules, no sources, no tests.
    expect(existsSync(join(rootfs, 'opt/svc/dist/bundle/svc.cjs'))).toBe(true);
    for (const absent of ['opt/svc/node_modules', 'opt/svc/src', 'opt/svc/test']) expect(existsSync(join(rootfs, absent)), absent).toBe(false);
  });

  it("serves /v1/readyz from the image's entrypoint, on the image's own node, writing the volume as its user", async () => {
    let ready: { status: number; body: unknown } | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      if (server!.exitCode !== null) throw new Error(`the entrypoint exited ${server!.exitCode}:\n${output}`);
      const res = await fetch(`http://127.0.0.1:${port}/v1/readyz`).catch(() => undefined);
      if (res !== undefined) {
        ready = { status: res.status, body: await res.json() };
        break;
      }
    }
    expect(ready, output).toEqual({ status: 200, body: { data: { status: 'ready', store: 'file' } } });
    expect(output).toContain('svc emulator ready');
    const users = await fetch(`http://127.0.0.1:${port}/v1/users`, { headers: { 'x-api-key': 'sk_test_acmeLocalDevKey00000000000000001' } });
    expect(users.status).toBe(200);
    expect(statSync(join(rootfs, 'data', 'db.json')).uid).toBe(10001);
    expect(await healthCheck()).toBe(0);
  });

  it('keeps the control plane to loopback callers: from a network address it answers 403', async (context) => {
    const address = networkAddress();
    if (address === undefined) return context.skip('this machine has no non-loopback IPv4 address to call from');
    const res = await fetch(`http://${address}:${port}/_emulator/clock`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('permission_denied');
    expect((await fetch(`http://127.0.0.1:${port}/_emulator/clock`)).status).toBe(200);
  });

  it('stops cleanly on SIGTERM, and the health check then fails', async () => {
    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await healthCheck()).toBe(1);
  });
});
