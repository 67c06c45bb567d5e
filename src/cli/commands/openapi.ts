/**
 * `svc openapi`: the OpenAPI 3.1 document of the API. By default it is made in-process from
 * the same app `svc serve` runs (no server needed); with --url it is fetched from a server.
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadUndici } from '../../undici.js';
import { createApp } from '../../app.js';
import { createRuntime } from '../../emulator.js';
import { VERSION } from '../../version.js';
import { originOf } from '../control-client.js';
import { CliError } from '../output.js';

interface OpenApiOptions {
  out?: string;
  url?: string;
}

async function inProcess(): Promise<string> {
  const rt = await createRuntime({ inMemory: true });
  try {
    const answer = await createApp(rt, { version: VERSION }).request('/v1/openapi.json');
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
    .option('--url <url>', 'fetch it from a running emulator instead')
    .addHelpText(
      'after',
      `
Examples:
  $ svc openapi > openapi.json
  $ svc openapi --out build/openapi.json
  $ svc openapi --url http://127.0.0.1:4010`,
    )
    .action(async (options: OpenApiOptions) => {
      const text = options.url === undefined ? await inProcess() : await fromServer(options.url);
      let pretty: string;
      try {
        pretty = `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
      } catch {
        throw new CliError('the answer is not a JSON document');
      }
      if (options.out === undefined) {
        process.stdout.write(pretty);
        return;
      }
      try {
        await writeFile(options.out, pretty);
      } catch (error) {
        throw new CliError(`cannot write ${options.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      process.stderr.write(`Wrote the OpenAPI document to ${options.out}\n`);
    });
}
