/**
 * The Host check's rule as a table (which Host values are known, for which --allowed-hosts), the
 * entries --allowed-hosts takes, and the check in both apps app-base.ts makes: the app of the
 * health probes alone answers a foreign Host as the whole app does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeApp } from '../app-base.js';
import { createApp } from '../app.js';
import { createRuntime } from '../emulator.js';
import type { Runtime } from '../runtime.js';
import { allowedHostEntry, hostRule } from './host-check.js';

describe('hostRule', () => {
  it.each([
    // loopback, any port, any case
    [[], 'localhost', true],
    [[], 'LocalHost:4010', true],
    [[], 'app.localhost:5173', true],
    [[], 'localhost.:4010', true],
    [[], '127.0.0.1:4010', true],
    [[], '127.255.0.9', true],
    [[], '127.1', true],
    [[], '2130706433', true],
    [[], '[::1]:4010', true],
    [[], '[::ffff:127.0.0.1]', true],
    // not loopback
    [[], 'evil.example', false],
    [[], '127.0.0.1.nip.io:4010', false],
    [[], 'localhost.evil.example', false],
    [[], 'localhostx', false],
    [[], '10.0.0.5', false],
    [[], '[::2]', false],
    [[], '', false],
    [[], 'evil.example@127.0.0.1', false],
    [[], '127.0.0.1/x', false],
    // listed names and addresses
    [['svc.internal'], 'svc.internal:8080', true],
    [['svc.internal'], 'SVC.INTERNAL', true],
    [['svc.internal'], 'a.svc.internal', false],
    [['.example.test'], 'example.test', true],
    [['.example.test'], 'api.v2.example.test:443', true],
    [['.example.test'], 'badexample.test', false],
    [['10.0.0.5'], '10.0.0.5:4010', true],
    [['10.0.0.5'], '10.0.0.6', false],
    [['fd00::5'], '[fd00::5]:4010', true],
    // a wildcard address: svc listens on every address, so every address is known, never a name
    [['0.0.0.0'], '192.168.1.20:4010', true],
    [['::'], '[fd00::9]', true],
    [['0.0.0.0'], 'evil.example', false],
  ] as const)('with %j, Host %j is known: %s', (listed, host, known) => {
    expect(hostRule(listed)(host)).toBe(known);
  });
});

describe('allowedHostEntry', () => {
  it.each([
    ['svc.internal', 'svc.internal'],
    [' SVC.Internal ', 'svc.internal'],
    ['.Example.Test', '.example.test'],
    ['10.0.0.5', '10.0.0.5'],
    ['::1', '[::1]'],
    ['[fd00::5]', '[fd00::5]'],
    ['0.0.0.0', '0.0.0.0'],
    ['svc.internal:8080', null],
    ['[::1]:80', null],
    ['http://svc.internal', null],
    ['svc.internal/path', null],
    ['', null],
  ] as const)('%j is %j', (text, entry) => {
    expect(allowedHostEntry(text)).toBe(entry);
  });
});

describe('the Host check in both apps of app-base.ts', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await createRuntime({ inMemory: true });
  });
  afterAll(() => rt.close());

  it.each([
    ['the app of the probes alone', () => probeApp(rt)],
    ['the whole app', () => createApp(rt)],
  ])('%s refuses a foreign Host on /healthz and answers localhost', async (_name, make) => {
    const app = make();
    const refused = await app.request('http://evil.example/healthz');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'host_not_allowed' });
    expect((await app.request('http://localhost:4010/healthz')).status).toBe(200);
  });
});
