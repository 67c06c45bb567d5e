/**
 * The answer of `svc serve`, given to Node as http.createServer()'s `ServerResponse` option: its
 * end() hands the answer to the socket at the end of the event loop's turn (setImmediate), with
 * every other answer ended in that turn, rather than at once.
 *
 * Node reads every connection that has a request waiting in one turn and answers each in turn.
 * Written at once, each answer wakes the client, which (on the same machine, as svc's clients
 * are: test suites over loopback) reads it and goes back to sleep before the next one is
 * written, and waking a thread on the other core is an interrupt between cores, a fifth of a
 * GET's CPU when profiled. Written together, the answers of a turn wake the client once. An
 * answer waits at most for the rest of its turn; a lone request's, for nothing but the check
 * phase. Its measured gain is on docs/http-layer.md.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';

/** What end() is called with: (callback?), (chunk, callback?) or (chunk, encoding, callback?). */
type EndArguments = unknown[];

export class BatchedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  static #waiting: Array<[BatchedResponse, EndArguments]> = [];

  /** Ends, in the order they were ended, the answers of the turn that has just run. */
  static #endWaiting = (): void => {
    const ended = BatchedResponse.#waiting;
    BatchedResponse.#waiting = [];
    for (const [response, args] of ended) {
      try {
        response.#endNow(args);
      } catch (error) {
        // What Node's end() throws (a body longer than its Content-Length, with strict lengths)
        // would have reached the caller; here it ends that connection, not the others' answers.
        response.destroy(error as Error);
      }
    }
  };

  override end(...args: EndArguments): this {
    if (BatchedResponse.#waiting.length === 0) setImmediate(BatchedResponse.#endWaiting);
    BatchedResponse.#waiting.push([this, args]);
    return this;
  }

  /** Node's own end(), with what end() was given. */
  #endNow(args: EndArguments): void {
    (super.end as (...given: EndArguments) => this).apply(this, args);
  }
}
