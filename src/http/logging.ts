// How the HTTP server logs: short human lines on a terminal, JSON lines for machines, and
// requests only at debug, so that at the default level a person sees start-up and warnings.
import { LogController, type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Config } from '../config.ts';

/** Fastify's announcement of each address it listens on; main.ts prints the one a user needs. */
const FASTIFY_LISTENING_TEXT = 'Server listening at ';

/** Fastify's per-request lines ("incoming request", "request completed") at debug instead of info. */
class RequestLogsAtDebug extends LogController {
  override incomingRequest(...[request]: Parameters<LogController['incomingRequest']>): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(...[error, request, reply]: Parameters<LogController['requestCompleted']>): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * Short human lines, written at once, in this thread and in order with main.ts's console.log
 * lines: a transport (a stream or a worker thread) could lose the last lines before process.exit.
 */
function prettyToStdout(): { write(record: string): void } {
  const prettify = prettyFactory({ translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true });
  return { write: (record) => void process.stdout.write(prettify(record)) };
}

/**
 * The process's logger, made before anything that may log: the queue and the LISTEN connections
 * report errors while the HTTP server is still being built, which then logs through a child of it.
 */
export function createLogger(config: Config): FastifyBaseLogger {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY === true);
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-deploy-token"]'],
      hooks: {
        logMethod(args, method, level) {
          const [first] = args as unknown[];
          if (level === this.levels.values.info && typeof first === 'string' && first.startsWith(FASTIFY_LISTENING_TEXT)) {
            this.debug(first);
            return;
          }
          method.apply(this, args);
        },
      },
    },
    ...(pretty ? [prettyToStdout()] : []),
  );
}

export const requestLogsAtDebug = (): LogController => new RequestLogsAtDebug();
