// How the HTTP server logs: short human lines on a terminal, JSON lines for machines, and
// requests only at debug, so that at the default level a person sees start-up and warnings.
import { LogController, type FastifyLoggerOptions, type FastifyServerOptions } from 'fastify';
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

export function usesPrettyLogs(format: Config['LOG_FORMAT'], stdoutIsTerminal = Boolean(process.stdout.isTTY)): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

export function loggingOptions(config: Config): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const logger: FastifyLoggerOptions & NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> = {
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', 'req.headers["x-deploy-token"]'],
    hooks: {
      logMethod(args, method, level) {
        const [first] = args as unknown[];
        if (level === 30 && typeof first === 'string' && first.startsWith(FASTIFY_LISTENING_TEXT)) {
          this.debug(first);
          return;
        }
        method.apply(this, args);
      },
    },
  };
  if (usesPrettyLogs(config.LOG_FORMAT)) {
    const prettify = prettyFactory({ translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true });
    // Written at once, in this thread and in order with console.log's start-up lines: a
    // transport (a stream or worker thread) would lose the last lines before process.exit.
    logger.stream = { write: (record: string) => void process.stdout.write(prettify(record)) };
  }
  return { logger, logController: new RequestLogsAtDebug() };
}
