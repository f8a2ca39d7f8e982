// Small building blocks shared by the pages: states (loading, empty, error), once-shown
// secrets with a copy button, confirmation dialogs, status badges, and form parts.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CombinedError } from 'urql';
import { errorMessage } from './errors';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

export function ErrorAlert({ error, children }: { error?: CombinedError | Error | null; children?: ReactNode }) {
  const message = children ?? errorMessage(error);
  if (!message) return null;
  return (
    <p className="error-alert" role="alert">
      {message}
    </p>
  );
}

/** The message shown under a form field (`id` is what the field's aria-describedby names). */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}

export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** A value that can be copied: a read-only field and a Copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // No clipboard API (a plain-http origin other than localhost): select it for Ctrl+C.
      input.current?.select();
      setCopied('failed');
    }
  };
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          id={id}
          ref={input}
          className="mono"
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="secret-value"
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <span className="copy-status" role="status" aria-live="polite">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Selected: press Ctrl+C (⌘C) to copy.' : ''}
      </span>
    </div>
  );
}

/**
 * How Hookline keeps a secret it shows once: tokens as a hash only; signing secrets in clear,
 * since an HMAC signature needs the secret itself (never displayed again all the same).
 */
const KEPT_AS = {
  hash: { warning: 'Copy it now: it will not be shown again.', kept: 'Hookline keeps only a hash of it.' },
  signingKey: {
    warning: 'Copy it now: it will not be shown again here.',
    kept: "Hookline keeps it to sign deliveries (a signature needs the secret itself); only Reveal secret on the endpoint's page shows it again, and each reveal is recorded.",
  },
  verifyingKey: {
    warning: 'Copy it now: it will not be shown again.',
    kept: "Hookline keeps it to check GitHub's signatures (a check needs the secret itself), and never shows it again: make a new one if it is lost.",
  },
} as const;

/** A secret shown once, with its warning; it disappears when dismissed. */
export function SecretOnce({
  title,
  label,
  value,
  keptAs,
  children,
  onDismiss,
}: {
  title: string;
  label: string;
  value: string;
  keptAs: keyof typeof KEPT_AS;
  children?: ReactNode;
  onDismiss(): void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="secret-once" aria-labelledby={headingId} data-testid="secret-once">
      <h2 id={headingId} tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <p className="warning">
        <strong>{KEPT_AS[keptAs].warning}</strong> {KEPT_AS[keptAs].kept}
      </p>
      {children}
      <CopyField label={label} value={value} />
      <button type="button" onClick={onDismiss}>
        I have copied it
      </button>
    </section>
  );
}

interface ConfirmProps {
  /** The button that opens the dialog. */
  label: string;
  title: string;
  /** What happens, said plainly. */
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm(): Promise<unknown> | undefined;
}

/** A button that asks first, in a modal <dialog> (focus stays inside; Escape cancels). */
export function ConfirmButton({ label, title, children, confirmLabel, danger, disabled, onConfirm }: ConfirmProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button type="button" className={danger ? 'danger' : undefined} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm-dialog">
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">
          {/* First in the dialog, so showModal() focuses it: the safe choice. */}
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className={danger ? 'danger' : 'primary'} disabled={busy} onClick={confirm}>
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

const BADGE_KIND: Record<string, string> = {
  ACTIVE: 'ok',
  SUCCEEDED: 'ok',
  RESOLVED: 'ok',
  INACTIVE: 'muted',
  CANCELLED: 'muted',
  PENDING: 'info',
  ACKNOWLEDGED: 'info',
  DISABLED: 'bad',
  FAILED: 'bad',
  OPEN: 'bad',
  FIRING: 'bad',
  CAUSED: 'bad',
  DISMISSED: 'muted',
  SEV1: 'bad',
  SEV2: 'warn',
  SEV3: 'info',
  SEV4: 'muted',
};

export function Badge({ value, title }: { value: string; title?: string }) {
  return (
    <span className={`badge badge-${BADGE_KIND[value] ?? 'muted'}`} title={title} data-status={value}>
      {value}
    </span>
  );
}

/** A table that scrolls sideways on a narrow screen rather than overflowing the page. */
export function TableWrap({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table aria-label={label} className={className}>
        {children}
      </table>
    </div>
  );
}

/** The options of a service picker: a first one for "none", then the organization's services. */
export function ServiceOptions({ none, services }: { none: string; services: { node: { id: string; name: string } }[] | undefined }) {
  return (
    <>
      <option value="">{none}</option>
      {services?.map(({ node }) => (
        <option key={node.id} value={node.id}>
          {node.name}
        </option>
      ))}
    </>
  );
}

/** A form's closing row: the API's general error, the submit button (busy while sending), and Cancel. */
export function FormButtons({
  error,
  busy,
  label,
  busyLabel,
  onCancel,
}: {
  error: string | null | undefined;
  busy: boolean;
  label: string;
  busyLabel: string;
  onCancel(): void;
}) {
  return (
    <>
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <div className="button-row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? busyLabel : label}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

/** Where a page sits: each step a link back to it (the page itself is its heading). */
export function Breadcrumbs({ trail }: { trail: { label: ReactNode; to: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {trail.map(({ label, to }) => (
          <li key={to}>
            <Link to={to}>{label}</Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** How an attempt's stored response body relates to the bytes received: decoded or not, and whether it was text. */
export function ResponseBodyNotes({
  attempt,
}: {
  attempt: { responseContentEncoding: string | null; responseBodyDecoded: boolean; responseBodyBase64: string | null };
}) {
  return (
    <>
      {attempt.responseContentEncoding && (
        <p className="subtle small-text">
          {attempt.responseBodyDecoded
            ? `Body decoded from ${attempt.responseContentEncoding}.`
            : `Body kept as received (${attempt.responseContentEncoding}, not decoded).`}
        </p>
      )}
      {attempt.responseBodyBase64 && <p className="subtle small-text">Not UTF-8 text: other bytes are shown as \xNN.</p>}
    </>
  );
}
