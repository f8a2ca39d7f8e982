// The only reader of process.env: every setting is parsed and validated here once, so a
// bad value stops start-up with a message naming the variable.
import os from 'node:os';
import path from 'node:path';
import ms from 'ms';
import { z } from 'zod';
import { POOL_SIZE } from './db/pool.ts';
import { DEFAULT_RETRY_DELAYS_MS, type RetrySchedule } from './delivery/backoff.ts';

/** A per-minute limit, or `off` where something in front of Hookline already limits. */
const perMinuteLimit = z
  .string()
  .regex(/^(off|[1-9]\d*)$/, 'must be a whole number greater than 0, or off')
  .transform((value) => (value === 'off' ? null : Number(value)));

/** Fastify's trustProxy: a boolean, or the addresses/CIDRs of the proxies to believe. */
function parseTrustProxy(value: string): boolean | string[] {
  const normalized = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(normalized)) return true;
  if (['false', '0', 'no', ''].includes(normalized)) return false;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

const ipOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
/** proxy-addr (Fastify's) also knows these names for common ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
function isProxyAddress(entry: string): boolean {
  return PROXY_RANGE_NAMES.includes(entry) || ipOrCidr.safeParse(entry).success;
}

const wholeNumber = (minimum: number) =>
  z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(minimum, `must be ${minimum} or more`);

const retryDelays = z
  .string()
  // ms() throws on an empty string: an empty entry ("1m,,2h") is as invalid as any other.
  .transform((value) => value.split(',').map((entry) => (entry.trim() === '' ? Number.NaN : ms(entry.trim() as ms.StringValue))))
  .refine((delays) => delays.every((delay) => Number.isInteger(delay) && delay >= 0), {
    message: 'must be comma-separated durations such as 1m,10m,2h,8h,20h',
  });

/** `*`, or exact origins: scheme, host and port, as a browser sends them in `Origin`. */
const corsOrigins = z
  .string()
  .transform((value) =>
    value.trim() === '*'
      ? ('*' as const)
      : value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
  )
  .refine((origins) => origins === '*' || origins.every(isOrigin), {
    message: 'must be * or a comma-separated list of origins such as https://app.example.com (scheme, host and port only)',
  });

function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value && !url.hostname.includes('*');
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/**
 * An OpenID Connect issuer: https://, or http:// on this machine only (a provider run locally for
 * development or tests); anything else would let the sign-in's tokens travel in clear.
 */
const issuerUrl = z
  .string()
  .refine((value) => URL.canParse(value), { message: 'must be a URL such as https://accounts.example.com' })
  .transform((value) => new URL(value))
  .refine((url) => url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)), {
    message: 'must be an https:// URL (http:// only for localhost, 127.0.0.1 or [::1])',
  });
const connectionString = z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string');

const environmentSchema = z
  .object({
    DATABASE_URL: connectionString.optional(),
    /**
     * PostgreSQL itself, when DATABASE_URL goes through a pooler in transaction mode (PgBouncer):
     * for what needs a session of its own (LISTEN, the queue, migrations).
     */
    DATABASE_DIRECT_URL: connectionString.optional(),
    PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535, 'must be a port number (0..65535)').default(4000),
    /**
     * Loopback by default: a first start on a laptop (which prints an admin token) is reachable from
     * this machine only. 0.0.0.0 (or ::) serves every interface, as a container or a server needs.
     */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** all: API and delivery worker in one process; api or worker: one role each. */
    ROLE: z.enum(['all', 'api', 'worker'], { message: 'must be all, api or worker' }).default('all'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** auto: short human lines when standard output is a terminal, JSON lines otherwise (a file, a log collector). */
    LOG_FORMAT: z.enum(['auto', 'pretty', 'json'], { message: 'must be auto, pretty or json' }).default('auto'),
    /** Whether X-Forwarded-For is believed: false, true, or a comma-separated list of trusted proxy addresses/CIDRs. */
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform(parseTrustProxy)
      .refine((value) => typeof value === 'boolean' || value.every(isProxyAddress), {
        message: 'must be true, false, or a comma-separated list of IP addresses or CIDR ranges',
      }),
    /** Origins whose pages may call the APIs from a browser: `*`, or a comma-separated list (default: none). */
    CORS_ORIGINS: corsOrigins.default([]),
    /** A signed-in session ends after this many minutes without a request (each request moves it on). */
    SESSION_IDLE_TIMEOUT_MINUTES: wholeNumber(1).default(720),
    /** A signed-in session ends this many hours after sign-in, used or not. */
    SESSION_MAX_AGE_HOURS: wholeNumber(1).default(168),
    /**
     * The address people open Hookline at (e.g. https://hookline.example.com), for the links the CLI
     * prints (set-up links); default: the server's own address. Links made through the API use the
     * address the request came to.
     */
    PUBLIC_URL: z
      .string()
      .refine(isOrigin, { message: 'must be an origin such as https://hookline.example.com (scheme, host and port only)' })
      .optional(),
    /** Time a client has to send a whole request, headers and body; then it gets 408 and the connection closes. */
    HTTP_REQUEST_TIMEOUT_MS: wholeNumber(1).default(30_000),
    /** A connection with no traffic either way for this long is closed (e.g. a client that stopped reading). */
    HTTP_CONNECTION_TIMEOUT_MS: wholeNumber(1).default(120_000),
    INGEST_RATE_LIMIT_PER_MINUTE: perMinuteLimit.default(60),
    INGEST_TEST_RATE_LIMIT_PER_MINUTE: perMinuteLimit.default(10),
    DELIVERY_TIMEOUT_MS: wholeNumber(1).default(15_000),
    DELIVERY_MAX_RETRIES: wholeNumber(0).default(5),
    /** Attempts one worker process has in flight at most (and so jobs it holds). */
    DELIVERY_CONCURRENCY: wholeNumber(1).max(10_000, 'must be 10000 or less').default(200),
    /**
     * The bounds of each endpoint's limit of attempts in flight at once, across every worker process.
     * The limit starts at 10 (within them), grows by one per 2xx answered within a second, and halves
     * on a timeout, a connection error, 429 or 5xx.
     */
    DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT: wholeNumber(1).default(1),
    DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT: wholeNumber(1).default(200),
    /** Consecutive timed-out attempts to an endpoint after which its deliveries wait (the circuit opens). */
    DELIVERY_CIRCUIT_BREAKER_TIMEOUTS: wholeNumber(1).default(5),
    /** How long an open circuit's deliveries wait before one probe attempt is made. */
    DELIVERY_CIRCUIT_BREAKER_COOLDOWN_MS: wholeNumber(1).default(60_000),
    /** Setting this or DELIVERY_BACKOFF_FACTOR retries after base × factor^(n-1) (defaults 10 s and 4) instead of the schedule. */
    DELIVERY_BACKOFF_BASE_MS: wholeNumber(0).optional(),
    /** How often each worker looks for PENDING deliveries that lost their queued attempt, and queues it again. */
    DELIVERY_RECONCILE_INTERVAL_MS: wholeNumber(1).default(60_000),
    /**
     * How often each worker judges the rollbacks of the deploys ingested since and adds them to DORA's
     * daily figures (deploys.rolled_back and DORA's whole days trail ingest by about this much).
     */
    ROLLBACK_JUDGEMENT_INTERVAL_MS: wholeNumber(1).default(2000),
    DELIVERY_BACKOFF_FACTOR: z.coerce.number({ message: 'must be a number' }).min(1, 'must be 1 or more').optional(),
    /** Delays before retries 1, 2, …, the last one repeating: comma-separated durations such as 30s, 10m, 2h, 1d. */
    DELIVERY_RETRY_SCHEDULE: retryDelays.optional(),
    ENDPOINT_DISABLE_AFTER_FAILURES: wholeNumber(1).default(10),
    /** Webhook endpoints one organization may have (deleted ones do not count). */
    WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION: wholeNumber(1).default(100),
    /** GraphQL mutation fields (each alias counts) one organization may run per minute. */
    MUTATION_RATE_LIMIT_PER_MINUTE: perMinuteLimit.default(600),
    /**
     * GraphQL operations (queries and mutations) one organization runs at once on one api process;
     * more wait up to GRAPHQL_OPERATION_WAIT_MS, then get TOO_MANY_OPERATIONS (429).
     */
    GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION: wholeNumber(1).default(POOL_SIZE),
    GRAPHQL_OPERATION_WAIT_MS: wholeNumber(0).default(500),
    /**
     * Database connections one organization's GraphQL operations hold at once, of the POOL_SIZE
     * of a process: half by default, so that the others always find one.
     */
    DATABASE_MAX_CONNECTIONS_PER_ORGANIZATION: wholeNumber(1)
      .max(POOL_SIZE, `must be at most ${POOL_SIZE}, the connections of a process`)
      .default(POOL_SIZE / 2),
    /** A statement of an API request running longer is cancelled (0: never); background work has no limit. */
    API_STATEMENT_TIMEOUT_MS: wholeNumber(0).default(10_000),
    /**
     * Local development (`hookline start --dev`): the two WEBHOOK_ALLOW_* below default to true, so a
     * receiver on this machine (http://localhost:3000/...) works in one step. The start line says so.
     */
    HOOKLINE_DEV: booleanFlag.default(false),
    /** Local development and tests only: allow http:// endpoints (default: HOOKLINE_DEV). */
    WEBHOOK_ALLOW_HTTP: booleanFlag.optional(),
    /** Local development and tests only: allow private, loopback and link-local destinations (default: HOOKLINE_DEV). */
    WEBHOOK_ALLOW_PRIVATE: booleanFlag.optional(),
    /** How far before an incident's start deploys are considered as suspects. */
    INCIDENT_LOOKBACK_HOURS: z.coerce.number({ message: 'must be a number' }).positive('must be greater than 0').default(24),
    /** GraphQL over WebSocket: the largest message a client may send (ws closes the socket with 1009 past it). */
    WS_MAX_PAYLOAD_BYTES: wholeNumber(1024).default(1024 * 1024),
    /** GraphQL over WebSocket: operations running at once on one socket; one more fails with TOO_MANY_SUBSCRIPTIONS. */
    WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: wholeNumber(1).default(100),
    /** GraphQL over WebSocket: open sockets of one organization on one api process; one more is closed with 4029. */
    WS_MAX_CONNECTIONS_PER_ORGANIZATION: wholeNumber(1).default(1000),
    /** GraphQL over WebSocket: bytes waiting to be sent to one socket past which it is closed as too slow (4008). */
    WS_MAX_BUFFERED_BYTES: wholeNumber(1024).default(1024 * 1024),
    /** Deliveries (with their attempts) and events older than this many days are deleted, PENDING deliveries excepted. */
    RETENTION_DAYS: wholeNumber(1).default(90),
    /** Audit log entries older than this many days are deleted (by the job that prunes webhook history). */
    AUDIT_RETENTION_DAYS: wholeNumber(1).default(365),
    /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset. */
    HOOKLINE_DATA_DIR: z.string().min(1).default('.hookline'),
    /** Single sign-on: the OpenID Connect provider's issuer (its discovery document is read from there). */
    OIDC_ISSUER_URL: issuerUrl.optional(),
    /** Single sign-on: this server's client at the provider. */
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
  })
  .refine(
    (config) => {
      const set = [config.OIDC_ISSUER_URL, config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET].filter((value) => value !== undefined);
      return set.length === 0 || set.length === 3;
    },
    {
      path: ['OIDC_ISSUER_URL'],
      message: 'single sign-on needs all three of OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (or none of them)',
    },
  )
  .refine((config) => config.HTTP_CONNECTION_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS, {
    // Otherwise a slow request's connection would be cut before its 408 could be sent.
    path: ['HTTP_CONNECTION_TIMEOUT_MS'],
    message: 'must be greater than HTTP_REQUEST_TIMEOUT_MS',
  })
  .refine((config) => config.DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT <= config.DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT, {
    path: ['DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT'],
    message: 'must be at most DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT',
  })
  .refine((config) => !config.DATABASE_DIRECT_URL || config.DATABASE_URL, {
    path: ['DATABASE_DIRECT_URL'],
    message: 'needs DATABASE_URL (the pooled connection) too',
  })
  .refine(
    (config) =>
      !config.DELIVERY_RETRY_SCHEDULE || (config.DELIVERY_BACKOFF_BASE_MS === undefined && config.DELIVERY_BACKOFF_FACTOR === undefined),
    {
      path: ['DELIVERY_RETRY_SCHEDULE'],
      message: 'set either DELIVERY_RETRY_SCHEDULE or DELIVERY_BACKOFF_BASE_MS/DELIVERY_BACKOFF_FACTOR, not both',
    },
  )
  .transform(
    ({
      DELIVERY_RETRY_SCHEDULE,
      DELIVERY_BACKOFF_BASE_MS,
      DELIVERY_BACKOFF_FACTOR,
      OIDC_ISSUER_URL,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      ...config
    }) => ({
      ...config,
      /** Single sign-on through an OpenID Connect provider; undefined where it is not configured. */
      oidc:
        OIDC_ISSUER_URL && OIDC_CLIENT_ID && OIDC_CLIENT_SECRET
          ? { issuer: OIDC_ISSUER_URL, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET }
          : undefined,
      // An explicit value wins over dev mode, either way.
      WEBHOOK_ALLOW_HTTP: config.WEBHOOK_ALLOW_HTTP ?? config.HOOKLINE_DEV,
      WEBHOOK_ALLOW_PRIVATE: config.WEBHOOK_ALLOW_PRIVATE ?? config.HOOKLINE_DEV,
      retrySchedule: retrySchedule(DELIVERY_RETRY_SCHEDULE, DELIVERY_BACKOFF_BASE_MS, DELIVERY_BACKOFF_FACTOR),
    }),
  );

function retrySchedule(delaysMs: number[] | undefined, baseMs: number | undefined, factor: number | undefined): RetrySchedule {
  if (baseMs === undefined && factor === undefined) return { delaysMs: delaysMs ?? DEFAULT_RETRY_DELAYS_MS };
  return { baseMs: baseMs ?? 10_000, factor: factor ?? 4 };
}

/** How long sessions last (SESSION_IDLE_TIMEOUT_MINUTES, SESSION_MAX_AGE_HOURS), in ms. */
export function sessionLifetime(config: Config): { idleMs: number; maxAgeMs: number } {
  return { idleMs: config.SESSION_IDLE_TIMEOUT_MINUTES * 60_000, maxAgeMs: config.SESSION_MAX_AGE_HOURS * 3600_000 };
}

/** Where what needs a session of its own connects: LISTEN, the queue, migrations. */
export function directDatabaseUrl(config: Config, databaseUrl: string): string {
  return config.DATABASE_DIRECT_URL ?? databaseUrl;
}

export type Config = z.output<typeof environmentSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as a shell `VAR= npm start` intends.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/** What `hookline start` sets over the environment (`--dev`). */
export interface ConfigOverrides {
  HOOKLINE_DEV?: 'true';
}

/** The server's settings: the environment, with the start command's flags over it. */
export function loadServerConfig(overrides: ConfigOverrides = {}): Config {
  return loadConfig({ ...process.env, ...overrides });
}

/**
 * The start line: the address actually bound, and every relaxation of the webhook destination
 * rules in force, so that none is ever on silently.
 */
export function describeListening(address: string, config: Config): string {
  const notes: string[] = [];
  if (/^http:\/\/(0\.0\.0\.0|\[::\]):/.test(address)) notes.push('every network interface of this machine');
  const allowed = [config.WEBHOOK_ALLOW_HTTP && 'http://', config.WEBHOOK_ALLOW_PRIVATE && 'private and loopback'].filter(Boolean);
  if (allowed.length > 0) {
    const why = config.HOOKLINE_DEV ? 'dev mode' : 'WEBHOOK_ALLOW_HTTP/WEBHOOK_ALLOW_PRIVATE';
    notes.push(`${why}: ${allowed.join(' and ')} webhook receivers allowed`);
  }
  return `Hookline listening on ${address}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/**
 * Where the CLI keeps a developer's own settings (the `hookline listen` signing secret):
 * `$XDG_CONFIG_HOME/hookline`, else `~/.config/hookline`, as the XDG base directory spec says.
 */
export function developerConfigDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'hookline');
}
