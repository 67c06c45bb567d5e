/** The server's log: one line per request and per notable event, pretty or JSON lines. */
import chalk from 'chalk';

export type LogFormat = 'pretty' | 'json';
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  request(fields: { method: string; path: string; status: number; ms: number; requestId: string }): void;
  /** false when request() writes nothing (--quiet): a request is then neither timed nor described for it. */
  readonly logsRequests?: boolean;
}

export interface LoggerOptions {
  format?: LogFormat;
  quiet?: boolean;
  write?: (line: string) => void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? 'pretty';
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const quiet = options.quiet ?? false;
  const emit = (level: LogLevel, message: string, fields: Record<string, unknown>): void => {
    if (quiet && level === 'info') return;
    if (format === 'json') {
      write(JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }));
      return;
    }
    const colour = level === 'error' ? chalk.red : level === 'warn' ? chalk.yellow : chalk.dim;
    const extra = Object.entries(fields)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    write(`${colour(level.padEnd(5))} ${message}${extra ? ` ${chalk.dim(extra)}` : ''}`);
  };
  return {
    logsRequests: !quiet,
    log: (level, message, fields = {}) => emit(level, message, fields),
    request: ({ method, path, status, ms, requestId }) => {
      if (quiet) return;
      if (format === 'json') {
        write(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'request', method, path, status, ms, requestId }));
        return;
      }
      const colour = status >= 500 ? chalk.red : status >= 400 ? chalk.yellow : chalk.green;
      write(`${chalk.dim(new Date().toISOString().slice(11, 23))} ${method.padEnd(6)} ${path} ${colour(String(status))} ${chalk.dim(`${ms.toFixed(1)}ms`)}`);
    },
  };
}

/** A logger that says nothing (tests, library use). */
export const silentLogger: Logger = { log: () => {}, request: () => {}, logsRequests: false };
