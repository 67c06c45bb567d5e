/**
 * A real DNS server for tests: UDP on a loopback port, answering TXT questions from a table
 * (dns-packet over dgram). Names not in the table answer NXDOMAIN. `silent` makes a server
 * that receives and never answers, as a dead resolver does.
 */
import { createSocket, type RemoteInfo } from 'node:dgram';
import dnsPacket from 'dns-packet';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for `--dns-server`. */
  readonly address: string;
  /** TXT values by lower-case name; edit it to change the answers. */
  readonly txt: Map<string, string[]>;
  /** How many queries arrived. */
  readonly queries: () => number;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startDnsServer(options: { silent?: boolean } = {}): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[]>();
  let queries = 0;
  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    queries += 1;
    if (options.silent) return;
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const values = txt.get(question.name.toLowerCase());
    const answers: dnsPacket.Answer[] =
      question.type === 'TXT' && values ? values.map((value) => ({ type: 'TXT', name: question.name, ttl: 60, data: value })) : [];
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | (values ? 0 : NXDOMAIN);
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
    queries: () => queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
