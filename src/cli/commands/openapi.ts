/**
 * `svc openapi`: the OpenAPI 3.1 document of the API. By default it is made in-process from
 * the same app `svc serve` runs (no server needed); with --url it is fetched from a server.
 * Its `servers` is the origin it is made for: --server (default svc serve's address), or the
 * --url (or SVC_URL) server's own; the command says which on stderr, so stdout stays the document alone.
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadUndici } from '../../undici.js';
import { createRuntime, DEFAULT_HOST, DEFAULT_PORT } from '../../emulator.js';
import { VERSION } from '../../version.js';
import { originOf } from '../control-client.js';
import { CliError } from '../output.js';

interface OpenApiOptions {
  out?: string;
  url?: string;
  server?: string;
}

/** svc serve's default address (D1). */
const DEFAULT_SERVER = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/** An origin for `servers`: scheme, host, optional port, nothing more. */
function parseServer(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text.replace(/\/$/, ''))
    throw new CliError(`--server "${text}" is not an origin such as http://127.0.0.1:4400 (scheme, host, optional port, no path)`, 2);
  return url.origin;
}

async function inProcess(server: string): Promise<string> {
  // Made for `server` as svc serve --public-url would make it: the document's servers names it.
  const rt = await createRuntime({ inMemory: true, publicUrl: server });
  try {
    // Loaded here, not at the CLI's start: the app's modules are most of what a start would evaluate.
    const { createApp } = await import('../../app.js');
    const answer = await createApp(rt, { version: VERSION }).request(`${server}/v1/openapi.json`);
    if (answer.status !== 200) throw new CliError(`the app could not make its OpenAPI document (HTTP ${answer.status})`);
    return await answer.text();
  } finally {
    await rt.close();
  }
}

async function fromServer(url: string): Promise<string> {
  const origin = originOf(url);
  let response;
  try {
    response = await (await loadUndici()).request(`${origin}/v1/openapi.json`);
  } catch (error) {
    throw new CliError(`cannot reach the emulator at ${origin} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 2);
  }
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new CliError(`GET ${origin}/v1/openapi.json answered HTTP ${response.statusCode}`);
  return text;
}

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description('Print or save the OpenAPI 3.1 document of the API (made in-process unless --url)')
    .option('-o, --out <file>', 'write it to this file instead of stdout')
    .option(
      '--url <url>',
      'fetch it from a running emulator instead (its servers is then the URL that emulator was told it is reached at, svc serve --public-url; env SVC_URL, as for every command)',
    )
    .option('--server <origin>', `the origin written into servers (default ${DEFAULT_SERVER}); not with --url`, parseServer)
    .addHelpText(
      'after',
      `
Examples:
  $ svc openapi > openapi.json
  $ svc openapi --out build/openapi.json
  $ svc openapi --server http://127.0.0.1:4400 --out openapi.json   # for svc serve --port 4400
  $ svc openapi --url http://127.0.0.1:4010
  $ SVC_URL=http://127.0.0.1:4400 svc openapi        # fetched from that emulator, as --url; --server makes it here instead`,
    )
    .action(async (given: OpenApiOptions) => {
      if (given.url !== undefined && given.server !== undefined)
        throw new CliError('--server sets the origin of a document made here; with --url the server gives its own', 2);
      // SVC_URL names the emulator as for every other command, unless --server asks for a document made here.
      const fromEnv = process.env['SVC_URL'];
      const options = given.url === undefined && given.server === undefined && fromEnv !== undefined && fromEnv !== '' ? { ...given, url: fromEnv } : given;
      const text = options.url === undefined ? await inProcess(options.server ?? DEFAULT_SERVER) : await fromServer(options.url);
      let pretty: string;
      try {
        pretty = `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
      } catch {
        throw new CliError('the answer is not a JSON document');
      }
      const servers = (JSON.parse(text) as { servers?: Array<{ url?: string }> }).servers?.map((server) => server.url).join(', ') ?? '(none)';
      if (options.out === undefined) {
        process.stdout.write(pretty);
        process.stderr.write(`The document's servers: ${servers}${options.url === undefined ? ' (set it with --server)' : ''}\n`);
        return;
      }
      try {
        await writeFile(options.out, pretty);
      } catch (error) {
        throw new CliError(`cannot write ${options.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      process.stderr.write(`Wrote the OpenAPI document to ${options.out}, servers: ${servers}\n`);
    });
}
