/**
 * The suite's connections to the target, and what each request did on one. undici keeps a
 * connection open between requests; a target closes one it has held idle for its keep-alive
 * timeout (Node's default: 5 s). When the suite reuses a connection at the moment the target
 * closes it, the request dies with "other side closed" — on a busy machine, where timers run
 * late, often enough to turn a correct target red. So the suite's agent reuses a connection
 * only while it has been idle for at most REUSE_IDLE_MS, and never one the target announced it
 * would keep for less than KEEP_ALIVE_MARGIN_MS more than that (`Keep-Alive: timeout=`);
 * `Connection: close` closes it (undici's own rule). And each request is followed on its way: the
 * connection it went out on (new or reused, its age, its count of requests, how long it sat
 * idle), whether any byte of it was written and whether any byte of an answer came back, so that
 * the transport (transport.ts) knows what it may retry and says what happened when it gives up.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { loadUndici } from '../undici.js';

/** The longest a connection may sit idle and still be reused. */
export const REUSE_IDLE_MS = 1_000;
/** How much sooner than the target's announced keep-alive timeout the suite stops reusing a connection. */
export const KEEP_ALIVE_MARGIN_MS = 2_000;

/** What one connection has carried so far. */
interface ConnectionState {
  openedAt: number;
  /** Requests written on it, this one included once it is. */
  requests: number;
  /** When its last answer ended (it sat idle from then), or undefined while none has. */
  idleSince: number | undefined;
}

/** One request's way to the target. */
export interface RequestTrace {
  /** Whether a byte of the request was handed to a connection (undici began to write it). */
  written: boolean;
  /** Whether the answer's status line came back. */
  answered: boolean;
  /** The connection it went out on, when it was written. */
  connection?: {
    /** Whether the connection had carried a request before. */
    reused: boolean;
    /** Milliseconds since the connection was opened, when this request was written. */
    ageMs: number;
    /** Milliseconds it had sat idle before this request (0 on a new one). */
    idleMs: number;
    /** This request's place on the connection (1: the first). */
    sequence: number;
  };
}

const connections = new WeakMap<Socket, ConnectionState>();
/** The trace of the request undici is writing right now: its onRequestStart comes just before its headers go out. */
let writing: { trace: RequestTrace; at: number } | undefined;

let subscribed = false;
function followConnections(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('undici:client:connected', (message) => {
    const { socket } = message as { socket: Socket };
    connections.set(socket, { openedAt: performance.now(), requests: 0, idleSince: undefined });
  });
  // Published synchronously right after the request's onRequestStart, with the connection it is written on.
  subscribe('undici:client:sendHeaders', (message) => {
    const { socket } = message as { socket: Socket };
    const current = writing;
    writing = undefined;
    if (current === undefined) return;
    const state = connections.get(socket) ?? { openedAt: current.at, requests: 0, idleSince: undefined };
    connections.set(socket, state);
    state.requests += 1;
    current.trace.connection = {
      reused: state.requests > 1,
      ageMs: current.at - state.openedAt,
      idleMs: state.idleSince === undefined ? 0 : current.at - state.idleSince,
      sequence: state.requests,
    };
    state.idleSince = undefined;
    traceSockets.set(current.trace, socket);
  });
}

const traceSockets = new WeakMap<RequestTrace, Socket>();

/** Wraps undici's handler of one request to fill in its trace. */
function tracing(handler: Dispatcher.DispatchHandler, trace: RequestTrace): Dispatcher.DispatchHandler {
  return {
    onRequestStart(controller, context) {
      trace.written = true;
      writing = { trace, at: performance.now() };
      // Its headers go out in this same tick; a request undici gave up before that must not lend its trace to the next.
      queueMicrotask(() => {
        if (writing?.trace === trace) writing = undefined;
      });
      handler.onRequestStart?.(controller, context);
    },
    onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
    onResponseStart(controller, status, headers, message) {
      trace.answered = true;
      handler.onResponseStart?.(controller, status, headers, message);
    },
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd(controller, trailers) {
      const socket = traceSockets.get(trace);
      const state = socket === undefined ? undefined : connections.get(socket);
      if (state !== undefined) state.idleSince = performance.now();
      handler.onResponseEnd?.(controller, trailers);
    },
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  };
}

let agent: Promise<Dispatcher> | undefined;

/** The suite's one agent: keep-alive cut short of the target's (see the module's header). */
export function suiteAgent(): Promise<Dispatcher> {
  followConnections();
  return (agent ??= loadUndici().then(
    (undici) =>
      new undici.Agent({
        keepAliveTimeout: REUSE_IDLE_MS,
        keepAliveMaxTimeout: REUSE_IDLE_MS,
        keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
      }),
  ));
}

/** A dispatcher for one request, over the suite's agent, that fills in `trace` as the request goes. */
export async function tracedDispatcher(trace: RequestTrace): Promise<Dispatcher> {
  const base = await suiteAgent();
  return base.compose((dispatch) => (options, handler) => dispatch(options, tracing(handler, trace)));
}

/** "a connection opened 3.2 s before, its 4th request, idle 0.9 s" or "a new connection". */
export function describeConnection(trace: RequestTrace): string {
  const { connection } = trace;
  if (connection === undefined) return trace.written ? 'on a connection' : 'before any of it was written';
  if (!connection.reused) return 'on a new connection';
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return `on a connection opened ${seconds(connection.ageMs)} before (its request ${connection.sequence}, after ${seconds(connection.idleMs)} idle)`;
}
