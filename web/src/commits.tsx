// Commit messages and repository links as every page shows them: the subject, with the body
// behind a toggle; links only to http(s) addresses.
import type { ReactNode } from 'react';

/** A link that opens outside the dashboard, or its text alone when the address is missing or not http(s). */
export function ExternalLink({ href, children }: { href: string | null | undefined; children: ReactNode }) {
  if (!href || !/^https?:\/\//i.test(href)) return <span>{children}</span>;
  return (
    <a href={href} rel="noreferrer noopener" target="_blank">
      {children}
    </a>
  );
}

/** The message's first line; the rest, when there is any, behind a "more" toggle. */
export function CommitMessage({ message }: { message: string }) {
  const [subject = '', ...rest] = message.replace(/\r\n/g, '\n').split('\n');
  const body = rest.join('\n').trim();
  if (!body) return <span className="commit-subject">{subject}</span>;
  return (
    <details className="commit-message">
      <summary className="commit-subject">{subject}</summary>
      <p className="commit-body">{body}</p>
    </details>
  );
}
