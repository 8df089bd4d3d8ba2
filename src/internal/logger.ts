/**
 * Structured logging on pino (Fastify's logger): JSON lines on stderr (`time` ISO, `level` by name, the
 * subsystem's bindings, the fields, `msg`), or one readable line per event through pino-pretty when stderr
 * is a terminal. Call sites use the project's `Logger` (`log.info('message', { fields })`), so nothing
 * outside this file knows pino. No module-level state: each subsystem gets a child logger from the one
 * created at start-up.
 */
import { createRequire } from 'node:module';
import { type DestinationStream, type Logger as PinoLogger, pino } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import { loggable } from './loggable.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  format?: 'json' | 'pretty';
  /** Where each line goes, without its newline (default: stderr). */
  write?: (line: string) => void;
  base?: LogFields;
}

/** Field names whose values never reach a log line, at the top level or inside a SECRET_HOLDERS field. */
const SECRET_FIELDS = [
  'privateKey',
  'relayerKey',
  'solverKey',
  'attesterKey',
  'mnemonic',
  'accessKey',
  'apiKey',
  'authorization',
  'signature',
  'secret',
  'password',
  'databaseUrl',
  'x-access-key',
];
/** Fields whose own fields may hold a secret (a request's headers, a resolved config, the operator). */
const SECRET_HOLDERS = ['headers', 'config', 'operator', 'options', 'request'];
// Named paths, not `*.field`: a path starting with a wildcard makes pino run redaction on every field of
// every line (9.6 instead of 2.5 µs per line, docs/benchmarks.md).
const REDACTED_PATHS = [
  ...SECRET_FIELDS.map((field) => `["${field}"]`),
  ...SECRET_HOLDERS.flatMap((holder) => SECRET_FIELDS.map((field) => `${holder}["${field}"]`)),
];
const STDERR_FD = 2;

export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const sink: DestinationStream = options.write
    ? lineSink(options.write)
    : pino.destination({ fd: STDERR_FD, sync: true });
  const destination = format === 'pretty' ? prettySink(sink, !options.write && process.stderr.isTTY) : sink;
  const root = pino(
    {
      level: options.level ?? 'info',
      base: options.base ? loggable(options.base) : null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: loggable },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
  return wrap(root);
}

/** A logger that drops everything, for tests that do not look at logs. */
export function createSilentLogger(): Logger {
  return wrap(pino({ level: 'silent' }, { write: () => {} }));
}

function wrap(log: PinoLogger): Logger {
  return {
    debug: (msg, fields) => (fields ? log.debug(fields, msg) : log.debug(msg)),
    info: (msg, fields) => (fields ? log.info(fields, msg) : log.info(msg)),
    warn: (msg, fields) => (fields ? log.warn(fields, msg) : log.warn(msg)),
    error: (msg, fields) => (fields ? log.error(fields, msg) : log.error(msg)),
    child: (fields) => wrap(log.child(newBindings(log, fields))),
  };
}

/**
 * A child's fields made loggable (pino passes bindings through no formatter), less those the parent already
 * binds to the same value: pino appends bindings, so a subsystem that names its own component under a caller
 * that named it too would write the key twice on every line.
 */
function newBindings(log: PinoLogger, fields: LogFields): LogFields {
  const bound = log.bindings();
  return Object.fromEntries(Object.entries(loggable(fields)).filter(([key, value]) => bound[key] !== value));
}

function lineSink(write: (line: string) => void): DestinationStream {
  return { write: (line) => write(line.endsWith('\n') ? line.slice(0, -1) : line) };
}

/**
 * `HH:MM:ss.l LEVEL msg {fields}` on one line. pino-pretty is loaded only here (synchronously, it is
 * CommonJS), so a service whose stderr is a file or a pipe never loads it.
 */
function prettySink(sink: DestinationStream, colorize: boolean): DestinationStream {
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as {
    prettyFactory(options: PrettyOptions): (line: string) => string;
  };
  const pretty = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'HH:MM:ss.l',
    ignore: 'pid,hostname',
    // An `error` field stays on its line as JSON, as every other field does.
    errorLikeObjectKeys: [],
  });
  return { write: (line) => sink.write(pretty(line)) };
}
