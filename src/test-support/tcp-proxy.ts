/**
 * A TCP proxy on loopback between svc and PostgreSQL, for the fault tests: it can
 * cut every connection at once (a reset, as when a link or a NAT drops) and blackhole the link
 * (nothing is read or answered, no connection closes, new ones hang: a partition, the fault
 * only timeouts detect), then heal: what was held then flows on, as TCP would retransmit it.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port svc connects to (127.0.0.1). */
  readonly port: number;
  /** Resets every open connection; new ones are made as usual. */
  cut(): void;
  /** From now on, no byte passes either way and new connections hang unanswered, until heal(). */
  blackhole(): void;
  heal(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const held: Socket[] = [];
  /** Writes held in the dark, in order, sent on heal. */
  const stalled: Array<() => void> = [];
  let dark = false;
  let accepted = 0;

  const join = (client: Socket): void => {
    const upstream = connect(targetPort, targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: Socket, to: Socket): void => {
      from.on('data', (chunk: Buffer) => {
        if (dark) stalled.push(() => to.write(chunk));
        else to.write(chunk);
      });
    };
    forward(client, upstream);
    forward(upstream, client);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  };

  const server: Server = createServer((client) => {
    accepted += 1;
    client.setNoDelay(true);
    if (dark) {
      held.push(client);
      client.on('error', () => {});
      return;
    }
    join(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const proxy: TcpProxy = {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    cut() {
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    blackhole() {
      dark = true;
    },
    heal() {
      dark = false;
      for (const send of stalled.splice(0)) send();
      for (const client of held.splice(0)) if (!client.destroyed) join(client);
    },
    close() {
      proxy.cut();
      for (const client of held.splice(0)) client.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
