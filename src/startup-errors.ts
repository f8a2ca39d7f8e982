// What a person starting Hookline (npm start, the hookline CLI) is told when start-up fails:
// one line saying what is wrong and what to do, instead of a stack trace. Errors not
// recognised here are bugs, and keep their stack.
import { ConfigError } from './config.ts';
import { EmbeddedDataDirectoryInUseError, EmbeddedStartError } from './db/embedded.ts';

export interface StartupContext {
  /** The database in use: DATABASE_URL, or the embedded one's (then `embedded` is true). */
  databaseUrl?: string;
  embedded: boolean;
  port: number;
  host: string;
}

interface SystemError {
  code?: string;
  message?: string;
  syscall?: string;
  cause?: unknown;
}

/** host:port/database of a connection string, without its credentials. */
function whereIs(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

function codeOf(error: unknown): { code?: string; syscall?: string; message: string } {
  for (let current = error as SystemError | undefined, depth = 0; current && depth < 5; depth++, current = current.cause as SystemError) {
    if (typeof current.code === 'string') return { code: current.code, syscall: current.syscall, message: String(current.message ?? '') };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** One line for a start-up failure, or undefined when it is not a known condition (then: a bug). */
export function describeStartupError(error: unknown, context: StartupContext): string | undefined {
  if (error instanceof ConfigError || error instanceof EmbeddedDataDirectoryInUseError || error instanceof EmbeddedStartError) {
    return error.message;
  }
  const { code, syscall, message } = codeOf(error);
  if (syscall === 'listen' || code === 'EADDRINUSE') {
    if (code === 'EADDRINUSE')
      return `Port ${context.port} on ${context.host} is already in use: stop the program using it, or set PORT to a free port.`;
    if (code === 'EACCES') return `No permission to listen on port ${context.port} on ${context.host}: use a port above 1023, or set PORT.`;
    if (code === 'EADDRNOTAVAIL')
      return `HOST ${context.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0.`;
    return `Cannot listen on ${context.host}:${context.port} (${code}): set HOST and PORT to an address this machine can use.`;
  }
  if (!context.databaseUrl) return undefined;
  const where = whereIs(context.databaseUrl);
  const setting = context.embedded ? 'the embedded PostgreSQL' : 'DATABASE_URL';
  const database = new URL(context.databaseUrl).pathname.slice(1);
  switch (code) {
    case 'ECONNREFUSED':
      return `Cannot connect to PostgreSQL at ${where} (${setting}): connection refused. Start PostgreSQL there, or set DATABASE_URL to a running server.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot resolve the host of DATABASE_URL (${where}): check the host name.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Cannot reach PostgreSQL at ${where} (${setting}): ${code}. Check the host, port and network.`;
    case '3D000':
      return `Database "${database}" does not exist on ${where} (DATABASE_URL): create it (createdb ${database}), or set DATABASE_URL to an existing database.`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${where} refused the credentials of DATABASE_URL (${message}): check the user name and password.`;
    case '57P03':
      return `PostgreSQL at ${where} is starting up or shutting down: try again in a moment.`;
    case '42501':
      return `The user of DATABASE_URL may not change the database at ${where} (${message}): Hookline needs to create its tables there.`;
    default:
      return undefined;
  }
}
