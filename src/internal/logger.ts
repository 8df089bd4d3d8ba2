/**
 * Structured logging: JSON lines (one object per event) unless the output is a terminal, where the
 * same fields are printed as `time level msg key=value`. No module-level state: each subsystem gets a
 * child logger from the one created at start-up.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  level?: LogLevel;
  format?: 'json' | 'pretty';
  write?: (line: string) => void;
  base?: LogFields;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const format = options.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const base = options.base ?? {};

  const emit = (lvl: LogLevel, msg: string, fields: LogFields = {}) => {
    if (LEVEL_ORDER[lvl] < LEVEL_ORDER[level]) return;
    const record = { time: new Date().toISOString(), level: lvl, msg, ...base, ...fields };
    write(format === 'json' ? JSON.stringify(record, jsonReplacer) : pretty(record));
  };

  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ level, format, write, base: { ...base, ...fields } }),
  };
}

/** A logger that drops everything, for tests that do not look at logs. */
export function createSilentLogger(): Logger {
  return createLogger({ level: 'error', write: () => {} });
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

function pretty(record: LogFields): string {
  const { time, level, msg, ...rest } = record;
  const extras = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v, jsonReplacer)}`)
    .join(' ');
  return `${String(time).slice(11, 23)} ${String(level).toUpperCase().padEnd(5)} ${msg}${extras ? ` ${extras}` : ''}`;
}
