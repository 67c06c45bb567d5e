/**
 * A real DNS server for tests: UDP on a loopback port, answering TXT, A and AAAA questions
 * from tables (dns-packet over dgram). Names in no table answer NXDOMAIN. `silent` makes a server
 * that receives and never answers, as a dead resolver does.
 */
import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIP } from 'node:net';
import dnsPacket from 'dns-packet';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for `--dns-server`. */
  readonly address: string;
  /** TXT values by lower-case name; edit it to change the answers. */
  readonly txt: Map<string, string[]>;
  /** IPv4 and IPv6 addresses by lower-case name (A and AAAA answers, TTL 0); edit it to change the answers. */
  readonly addresses: Map<string, string[]>;
  /** How many queries arrived. */
  readonly queries: () => number;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startDnsServer(options: { silent?: boolean } = {}): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[]>();
  const addresses = new Map<string, string[]>();
  let queries = 0;
  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    queries += 1;
    if (options.silent) return;
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    const values = txt.get(name);
    const ips = addresses.get(name);
    const answers: dnsPacket.Answer[] = [];
    if (question.type === 'TXT' && values)
      answers.push(...values.map((value): dnsPacket.Answer => ({ type: 'TXT', name: question.name, ttl: 60, data: value })));
    if ((question.type === 'A' || question.type === 'AAAA') && ips) {
      const family = question.type === 'A' ? 4 : 6;
      for (const ip of ips.filter((address) => isIP(address) === family)) answers.push({ type: question.type, name: question.name, ttl: 0, data: ip });
    }
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | (values || ips ? 0 : NXDOMAIN);
    const response = dnsPacket.encode({ type: 'response', id: query.id ?? 0, flags, questions: [question], answers });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    addresses,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
