/**
 * The tests' webhook receiver: the recorder of receiver/ on a loopback port, one URL, every
 * request recorded, each answered with the status `respond` gives (a test may change it).
 */
import { startRecorder, type ReceivedDelivery, type Responder } from '../receiver/recorder.js';

export type { ReceivedDelivery };

export interface TestReceiver {
  readonly url: string;
  /** What arrived so far, in order. */
  readonly received: ReceivedDelivery[];
  /** Status to answer (a function of the request index), default 200. */
  respond: Responder;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => 200): Promise<TestReceiver> {
  const recorder = await startRecorder({ host: '127.0.0.1', port: 0 });
  const url = `${recorder.origin}/hook`;
  const receiver: TestReceiver = {
    url,
    get received() {
      return recorder.received(url);
    },
    respond,
    waitFor: (count, timeoutMs = 10_000) => recorder.waitFor(url, count, timeoutMs),
    close: () => recorder.close(),
  };
  recorder.setResponder(url, (index) => receiver.respond(index));
  return receiver;
}
