/** `svc serve`: the emulator of the whole API on a file-backed store, or on a PostgreSQL one that several processes share. */
import { isIP } from 'node:net';
import chalk from 'chalk';
import type { Command } from 'commander';
import { publicUrl, PublicUrlError } from '../../base-url.js';
import { DEFAULT_HOST, DEFAULT_PORT, startEmulator, type EmulatorOptions } from '../../emulator.js';
import { createLogger, type LogFormat, type Logger } from '../../logger.js';
import { parseDuration } from '../../duration.js';
import { dnsServerProblem } from '../../services/dns.js';
import { redactUrl } from '../../store/postgres/url.js';
import { addressRange, parseTargetPolicy, TargetPolicyError } from '../../webhooks/targets.js';
import type { CorsSetting } from '../../runtime.js';
import { ALL_HOSTS, allowedHostEntry, type AllowedHosts } from '../../middleware/host-check.js';
import { CliError, parseIntegerOption, parsePositiveNumberOption } from '../output.js';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir?: string;
  seed?: string;
  idSeed?: string;
  snapshot?: string;
  inMemory?: boolean;
  store?: string;
  storeTimeout?: number;
  logFormat: LogFormat;
  quiet?: boolean;
  clockSpeed?: number;
  startTime?: string;
  retrySchedule?: number[];
  deliveryTimeout?: number;
  adminToken?: string;
  dnsServer?: string;
  rateLimit?: number | 'off';
  webhookTargets?: string;
  cors?: CorsSetting;
  allowedHosts?: AllowedHosts;
  journalSize?: number;
  publicUrl?: string;
}

function parseDnsServer(text: string): string {
  const problem = dnsServerProblem(text);
  if (problem !== null) throw new CliError(`--dns-server "${text}": ${problem}`, 2);
  return text;
}

/** Whether `svc serve --host` keeps the emulator to this machine. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) === 0 ? /^localhost\.?$/i.test(bare) : addressRange(bare) === 'loopback';
}

/** A `--public-url` (or SVC_PUBLIC_URL), read now so a bad one stops the start. */
function parsePublicUrl(text: string, from = '--public-url'): string {
  try {
    return publicUrl(text);
  } catch (error) {
    if (error instanceof PublicUrlError) throw new CliError(`${from} ${error.message}`, 2);
    throw error;
  }
}

/** A webhook target policy (from the flag or SVC_WEBHOOK_TARGETS), read now so a bad one stops the start. */
function parseWebhookTargets(text: string, from = '--webhook-targets'): string {
  try {
    return parseTargetPolicy(text).text;
  } catch (error) {
    if (error instanceof TargetPolicyError) throw new CliError(`${from} "${text}": ${error.message}`, 2);
    throw error;
  }
}

function parseRateLimit(text: string): number | 'off' {
  if (text === 'off') return 'off';
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0))
    throw new CliError(`--rate-limit must be a positive number of requests per second or "off", got "${text}"`, 2);
  return value;
}

/** `*`, `off`, or a comma list of origins (scheme://host[:port]), each checked now rather than never matching later. */
function parseCors(text: string): CorsSetting {
  if (text === '*' || text === 'off') return text;
  return text.split(',').map((part) => {
    const origin = part.trim();
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // Reported below with the rest.
    }
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin)
      throw new CliError(`--cors "${origin}" is not an origin such as http://localhost:5173 (scheme, host, optional port, no path); or give * or off`, 2);
    return origin;
  });
}

/** `all`, or a comma list of host names and addresses (no port, no scheme), each checked now. */
function parseAllowedHosts(text: string, from = '--allowed-hosts'): AllowedHosts {
  if (text.trim() === ALL_HOSTS) return ALL_HOSTS;
  return text.split(',').map((part) => {
    if (allowedHostEntry(part) === null)
      throw new CliError(
        `${from} "${part.trim()}" is not a host name or address such as svc.internal, .example.test or 10.0.0.5 (no scheme, no port); or give all`,
        2,
      );
    return part.trim();
  });
}

function parseDurationOption(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw new CliError(`${name} "${text}" is not a duration such as 500ms, 30s or 2m`, 2);
  return ms;
}

/** `1m,5m,30m,2h,24h` → milliseconds; at least one delay. */
function parseSchedule(text: string): number[] {
  return text.split(',').map((part) => parseDurationOption('--retry-schedule', part.trim()));
}

/**
 * The options of `svc serve`, on `command`; `svc exec` takes the same, with its own defaults
 * for where the emulator listens and keeps its data.
 */
export function addServeOptions(command: Command, defaults: { port: number; dataDir?: string }): Command {
  return command
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parseIntegerOption('--port', 0, 65535), defaults.port)
    .option('--host <host>', 'address to bind; keep the loopback default unless others must reach it', DEFAULT_HOST)
    .option(
      '--public-url <url>',
      "the URL others reach svc at, through a proxy or a published port (https://svc.example.test, or with the prefix a proxy serves it under; no /v1): the OpenAPI documents' servers, checkout links and the addresses printed here name it, never a Host a request was sent with (default where it listens, http://127.0.0.1:PORT; env SVC_PUBLIC_URL)",
      (text) => parsePublicUrl(text),
    )
    .option('--data-dir <dir>', 'where the store lives (db.json, the lock and the seal key)', defaults.dataDir)
    .option('--seed <file>', 'fixture that seeds an empty store (default: fixtures/default.json)')
    .option(
      '--id-seed <seed>',
      'what the ids of seeded records the fixture does not name are derived from, so every start and reset seeds the same ones; "random" for random ids (default: a fixed seed)',
    )
    .option('--snapshot <name>', 'start from a snapshot of the data dir (svc snapshot save NAME) instead of what the store holds')
    .option('--in-memory', 'keep everything in memory; nothing is written (for tests)')
    .option(
      '--store <url>',
      'keep the store in PostgreSQL (postgres://user:pass@host:5432/db) instead of --data-dir, shared by every svc serve given the same URL (env SVC_STORE_URL)',
    )
    .option(
      '--store-timeout <duration>',
      'with --store: how long a stalled process (paused, cut off) may hold the others before its session is ended and its write refused; every wait for the database is bounded from it (default 3s)',
      (text) => parseDurationOption('--store-timeout', text),
    )
    .option(
      '--log-format <format>',
      'request log: pretty or json',
      (value) => {
        if (value !== 'pretty' && value !== 'json') throw new CliError(`--log-format must be pretty or json, got "${value}"`, 2);
        return value;
      },
      'pretty',
    )
    .option('-q, --quiet', 'log only warnings and errors')
    .option(
      '--clock-speed <n>',
      "emulated seconds per real second (default: as the data dir's clock was left, else 1)",
      parsePositiveNumberOption('--clock-speed'),
    )
    .option('--start-time <iso>', "emulated time to start at, e.g. 2026-11-21T10:00:00Z (default: the data dir's clock goes on where it was, else now)")
    .option('--retry-schedule <delays>', 'emulated delays between webhook attempts (default 1m,5m,30m,2h,24h)', parseSchedule)
    .option('--delivery-timeout <duration>', 'real time a webhook target has to answer (default 30s)', (text) =>
      parseDurationOption('--delivery-timeout', text),
    )
    .option('--dns-server <host:port>', "DNS server for custom-domain verification (default: the system's)", parseDnsServer)
    .option('--rate-limit <n|off>', "requests per second for every API key, or off (default: the tenant plan's rate)", parseRateLimit)
    .option(
      '--webhook-targets <policy>',
      'addresses webhooks may reach: local (loopback, private networks, the internet; never link-local), public (the internet only: for a shared host), any, or networks and host names, comma-separated (default local; env SVC_WEBHOOK_TARGETS)',
      (text) => parseWebhookTargets(text),
    )
    .option(
      '--cors <origins>',
      "browser origins that may call /v1: * (any), off, or a comma list. A list does not keep the localhost default: it replaces it, so a localhost or 127.0.0.1 origin is refused unless the list or a tenant names it (default: any localhost or 127.0.0.1 origin; the tenants' configured origins count unless off)",
      parseCors,
    )
    .option(
      '--allowed-hosts <names>',
      'host names (and addresses) svc answers besides localhost, *.localhost, 127.0.0.1 and [::1], and --host: a comma list, .example.test for every name under it, or all to answer any (a guard against DNS rebinding; env SVC_ALLOWED_HOSTS)',
      (text) => parseAllowedHosts(text),
    )
    .option(
      '--admin-token <token>',
      'require Authorization: Bearer <token> on every /_emulator call, from loopback too, and let non-loopback callers in with it (env SVC_ADMIN_TOKEN)',
      process.env['SVC_ADMIN_TOKEN'],
    )
    .option(
      '--journal-size <n>',
      'answered requests the request journal keeps in memory; 0 turns it off (default 1000)',
      parseIntegerOption('--journal-size', 0, 1_000_000),
    );
}

export function registerServe(program: Command): void {
  addServeOptions(
    program
      .command('serve')
      .description('Run the emulator: the whole API on a local, file-backed store (or, with --store, a PostgreSQL one several processes share)'),
    { port: DEFAULT_PORT, dataDir: './.svc' },
  )
    .addHelpText(
      'after',
      `
Examples:
  $ svc serve                         # http://127.0.0.1:4010/v1, data in ./.svc
  $ svc serve --port 0 --in-memory    # a throwaway instance on a free port
  $ svc serve --seed fixtures/mine.json --data-dir /tmp/svc
  $ svc serve --log-format json --quiet
  $ svc serve --host 0.0.0.0 --webhook-targets public,10.20.0.0/16,hooks.internal
                                      # a shared host: the internet, one internal network, one internal name
  $ svc serve --cors http://myapp.test:3000,http://localhost:5173   # browser origins beside the tenants'
  $ svc serve --host 0.0.0.0 --allowed-hosts svc,svc.internal --admin-token "$TOKEN"
                                      # reached as http://svc:4010 (compose) or through a proxy; the
                                      # control plane and dashboard then need the token
  $ svc serve --public-url https://svc.example.test --allowed-hosts svc.example.test
                                      # behind a proxy: the OpenAPI document's servers names it`,
    )
    .action(async (options: ServeOptions) => {
      await serve(options);
    });
}

/** A PostgreSQL URL, checked before anything starts. */
function parseStoreUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`--store "${text}" is not a URL; give postgres://user:pass@host:5432/db`, 2);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new CliError(`--store takes a postgres:// URL (got ${url.protocol}//…); without it the store lives in --data-dir`, 2);
  }
  return text;
}

/** What startEmulator() takes for the options of `svc serve` (and `svc exec`); bad values are refused here. */
export function emulatorOptions(options: ServeOptions, logger: Logger): EmulatorOptions & { storeUrl?: string } {
  const fromEnv = process.env['SVC_STORE_URL'];
  const store = options.store ?? (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv);
  if (store !== undefined) parseStoreUrl(store);
  const targetsFromEnv = process.env['SVC_WEBHOOK_TARGETS'];
  const webhookTargets =
    options.webhookTargets ?? (targetsFromEnv === undefined || targetsFromEnv === '' ? undefined : parseWebhookTargets(targetsFromEnv, 'SVC_WEBHOOK_TARGETS'));
  if (webhookTargets === undefined && !isLoopbackHost(options.host)) {
    // Others can reach this emulator, so its tenants may not be you: say what they can reach.
    logger.log(
      'warn',
      `--host ${options.host} lets others reach this emulator, and their webhooks may reach this host's private networks (--webhook-targets local, the default); on a shared host set --webhook-targets public (docs/webhook-targets.md)`,
    );
  }
  const hostsFromEnv = process.env['SVC_ALLOWED_HOSTS'];
  const listedHosts =
    options.allowedHosts ?? (hostsFromEnv === undefined || hostsFromEnv === '' ? undefined : parseAllowedHosts(hostsFromEnv, 'SVC_ALLOWED_HOSTS'));
  if (listedHosts === ALL_HOSTS) {
    logger.log(
      'warn',
      `--allowed-hosts all: svc answers any Host name, so a web page whose name is made to resolve to this address (DNS rebinding) can call /v1 with a key it knows; the control plane still needs a loopback name${options.adminToken ? ' or the admin token' : ''}. List the names instead (docs/control-plane.md#host-names)`,
    );
  }
  // The address svc listens on is a name it is reached by: 0.0.0.0 stands for every address (middleware/host-check.ts).
  const allowedHosts: AllowedHosts | undefined =
    listedHosts === ALL_HOSTS ? ALL_HOSTS : [...(listedHosts ?? []), ...(isLoopbackHost(options.host) ? [] : [options.host])];
  const publicUrlFromEnv = process.env['SVC_PUBLIC_URL'];
  const ownUrl =
    options.publicUrl ?? (publicUrlFromEnv === undefined || publicUrlFromEnv === '' ? undefined : parsePublicUrl(publicUrlFromEnv, 'SVC_PUBLIC_URL'));
  let startTime: Date | undefined;
  if (options.startTime !== undefined) {
    startTime = new Date(options.startTime);
    if (Number.isNaN(startTime.getTime())) throw new CliError(`--start-time "${options.startTime}" is not an ISO date`, 2);
  }
  return {
    port: options.port,
    host: options.host,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    inMemory: options.inMemory ?? false,
    ...(store === undefined ? {} : { storeUrl: store }),
    ...(options.storeTimeout === undefined ? {} : { storeHoldMs: options.storeTimeout }),
    ...(options.seed === undefined ? {} : { seedFile: options.seed }),
    ...(options.idSeed === undefined ? {} : { idSeed: options.idSeed }),
    ...(options.snapshot === undefined ? {} : { snapshot: options.snapshot }),
    clock: { ...(options.clockSpeed === undefined ? {} : { speed: options.clockSpeed }), ...(startTime === undefined ? {} : { startTime }) },
    ...(options.retrySchedule === undefined ? {} : { retryScheduleMs: options.retrySchedule }),
    ...(options.deliveryTimeout === undefined ? {} : { deliveryTimeoutMs: options.deliveryTimeout }),
    ...(options.adminToken === undefined || options.adminToken === '' ? {} : { adminToken: options.adminToken }),
    ...(options.dnsServer === undefined ? {} : { dnsServer: options.dnsServer }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(webhookTargets === undefined ? {} : { webhookTargets }),
    ...(options.cors === undefined ? {} : { cors: options.cors }),
    ...(allowedHosts === undefined || allowedHosts.length === 0 ? {} : { allowedHosts }),
    ...(options.journalSize === undefined ? {} : { journalSize: options.journalSize }),
    ...(ownUrl === undefined ? {} : { publicUrl: ownUrl }),
    logger,
  };
}

async function serve(options: ServeOptions): Promise<void> {
  const logger = createLogger({ format: options.logFormat, quiet: options.quiet ?? false });
  const settings = emulatorOptions(options, logger);
  const store = settings.storeUrl;
  const emulator = await startEmulator(settings);

  // The addresses printed are the ones others call it at: --public-url when given.
  const apiUrl = `${emulator.publicUrl}/v1`;
  const listening = emulator.baseUrl === apiUrl ? [] : [`  Listening  ${emulator.server.origin}`];
  const lines = [
    `${chalk.bold('svc')} emulator ready`,
    `  API        ${chalk.cyan(apiUrl)}`,
    `  Dashboard  ${chalk.cyan(emulator.dashboardUrl)}`,
    ...listening,
    `  Data       ${store !== undefined ? `${redactUrl(store)} (shared)` : (emulator.rt.store.dataDir ?? '(in memory)')}`,
    ...emulator.seededKeys.map((k) => `  API key    ${chalk.green(k.key)}  ${chalk.dim(`(${k.tenantName})`)}`),
  ];
  // The CLI's other commands default to the default port's address: elsewhere they need SVC_URL, so say how to set it.
  if (apiUrl !== `http://${DEFAULT_HOST}:${DEFAULT_PORT}/v1`) lines.push(`  CLI        ${chalk.cyan(`export SVC_URL=${apiUrl}`)}`);
  if (emulator.seededKeys.length === 0) lines.push(`  API key    ${chalk.dim('none of the fixture keys is active; create one with POST /v1/api-keys')}`);
  if (options.logFormat === 'json') {
    process.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'ready', baseUrl: apiUrl, dashboardUrl: emulator.dashboardUrl, listening: emulator.server.origin, apiKeys: emulator.seededKeys })}\n`,
    );
  } else {
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      logger.log('info', `${signal}: stopping (draining requests, flushing the store)`);
      void emulator.close().then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
