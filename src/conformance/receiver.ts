/**
 * The suite's webhook receiver: the recorder of receiver/ (default 127.0.0.1, an ephemeral
 * port), with the suite's one policy: a fresh path per endpoint, under the run's id, so no
 * two checks or runs read each other's deliveries.
 */
import { startRecorder, type Recorder, type Responder } from '../receiver/recorder.js';

export { ReceiverTimeout, type ReceivedDelivery, type Responder } from '../receiver/recorder.js';

export interface Receiver extends Recorder {
  /** A fresh URL on this receiver that answers as `respond` says (200 by default). */
  endpoint(label: string, respond?: Responder): string;
  /** The event type (`type` of the JSON body) of every delivery its endpoints were sent, for the run's coverage. */
  eventTypes(): string[];
}

export async function startReceiver(options: { host: string; port: number; runId: string }): Promise<Receiver> {
  const recorder = await startRecorder(options);
  let counter = 0;
  const endpoints: string[] = [];
  return Object.assign(recorder, {
    endpoint(label: string, respond: Responder = () => 200) {
      counter += 1;
      const url = `${recorder.origin}/conformance/${options.runId}/${label}-${counter}`;
      recorder.setResponder(url, respond);
      endpoints.push(url);
      return url;
    },
    eventTypes() {
      return endpoints.flatMap((url) =>
        recorder.received(url).flatMap((delivery) => {
          try {
            const { type } = JSON.parse(delivery.body.toString('utf8')) as { type?: unknown };
            return typeof type === 'string' ? [type] : [];
          } catch {
            return [];
          }
        }),
      );
    },
  });
}
