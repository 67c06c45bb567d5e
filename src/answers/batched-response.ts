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
  static #waiting: BatchedResponse[] = [];

  /** Ends, in the order they were ended, the answers of the turn that has just run. */
  static #endWaiting = (): void => {
    const ended = BatchedResponse.#waiting;
    BatchedResponse.#waiting = [];
    for (const response of ended) {
      try {
        response.#flush();
      } catch (error) {
        // What Node's end() throws (a body longer than its Content-Length, with strict lengths)
        // would have reached the caller; here it ends that connection, not the others' answers.
        response.destroy(error as Error);
      }
    }
  };

  /** What end() was given, until the end of the turn hands it to Node's own end(). */
  #pending: EndArguments | null = null;

  override end(...args: EndArguments): this {
    // A second end() in one turn follows the first, as it would have in Node's order.
    this.#flush();
    if (BatchedResponse.#waiting.length === 0) setImmediate(BatchedResponse.#endWaiting);
    BatchedResponse.#waiting.push(this);
    this.#pending = args;
    return this;
  }

  /**
   * An answer ended and destroyed in one turn (@hono/node-server does so when writing an answer
   * fails: its error text, then destroy) is ended first, as it would have been without waiting.
   */
  override destroy(error?: Error): this {
    this.#flush();
    return super.destroy(error);
  }

  /** Node's own end(), with what end() was given, if it has not run yet. */
  #flush(): void {
    const args = this.#pending;
    if (args === null) return;
    this.#pending = null;
    (super.end as (...given: EndArguments) => this).apply(this, args);
  }
}
