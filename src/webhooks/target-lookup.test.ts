/**
 * The connection webhooks use refuses svc's own listeners (docs/webhook-targets.md#svc-never-calls-itself):
 * before connecting when the look-up answers one of them, and on the connection as made when
 * no look-up saw it (an address in the URL), with a real listener and a real DNS server.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListeningAddress } from '../runtime.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import { startReceiver, type TestReceiver } from '../test-support/receiver.js';
import { loadUndici } from '../undici.js';
import { guardedConnector, hostLookup, TargetRefusedError } from './target-lookup.js';
import { targetPolicy } from './targets.js';

/** Connects through a guarded connector that takes `listening` for svc's own listeners. */
async function connect(listening: ReadonlySet<ListeningAddress>, hostname: string, port: number, dns: TestDnsServer): Promise<Socket> {
  const connector = guardedConnector(await loadUndici(), targetPolicy('any'), hostLookup(dns.address), listening);
  return new Promise((resolve, reject) => {
    connector({ hostname, host: `${hostname}:${port}`, protocol: 'http:', port: String(port) }, (error, socket) => (error ? reject(error) : resolve(socket)));
  });
}

describe('guardedConnector', () => {
  let dns: TestDnsServer;
  let receiver: TestReceiver;
  let port: number;
  beforeAll(async () => {
    dns = await startDnsServer();
    dns.addresses.set('self.hooks.test', ['127.0.0.1']);
    receiver = await startReceiver();
    port = Number(new URL(receiver.url).port);
  });
  afterAll(async () => {
    await receiver.close();
    await dns.close();
  });

  it.each([
    // net.connect skips the look-up for an address: only the connection as made shows it.
    ['an address', '127.0.0.1', `the URL reaches svc itself (127.0.0.1:`],
    ['a name', 'self.hooks.test', `the URL reaches svc itself (self.hooks.test at 127.0.0.1:`],
  ])('refuses %s that reaches a listener of svc, under any', async (_name, hostname, message) => {
    const listening = new Set([{ address: '127.0.0.1', port }]);
    const refused = connect(listening, hostname, port, dns);
    await expect(refused).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(refused).rejects.toThrow(`target refused: ${message}${port})`);
    expect(receiver.received).toHaveLength(0);
  });

  it.each([
    ['svc listens at another port', [{ address: '127.0.0.1', port: 1 }]],
    ['svc listens nowhere', []],
  ])('connects to the same address when %s', async (_name, listeners) => {
    for (const hostname of ['127.0.0.1', 'self.hooks.test']) {
      const socket = await connect(new Set(listeners), hostname, port, dns);
      expect(socket.remotePort).toBe(port);
      socket.destroy();
    }
  });
});
