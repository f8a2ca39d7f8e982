// Recover on the endpoint's page: after an outage, re-send the failed deliveries of a window.
import { useId, useState } from 'react';
import { useMutation } from 'urql';
import { useCan } from '../auth';
import { ErrorAlert } from '../components';
import { graphql } from '../gql';
import type { WebhookEndpointStatus } from '../gql/graphql';
import { deliveryCount } from '../webhooks';
import { DELIVERY_CONTEXT } from './DeliveryLogPage';

const REENABLE_ENDPOINT = graphql(`
  mutation ReenableEndpoint($id: ID!) {
    setWebhookEndpointActive(id: $id, active: true) { ...EndpointFields }
  }
`);

const RECOVER_DELIVERIES = graphql(`
  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!, $until: DateTime) {
    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }
  }
`);

/** A `datetime-local` input's value for `date`, in the browser's time zone. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/**
 * Re-sends the FAILED and CANCELLED deliveries of a window (after the receiver's outage), a batch
 * per click; an endpoint that is not active is re-enabled first, since it would take none.
 */
export function RecoverForm({
  endpointId,
  status,
  onRecovered,
}: {
  endpointId: string;
  status: WebhookEndpointStatus;
  onRecovered(): void;
}) {
  const id = useId();
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 3600_000)));
  const [until, setUntil] = useState('');
  const [reenabled, reenable] = useMutation(REENABLE_ENDPOINT);
  const [recovered, recover] = useMutation(RECOVER_DELIVERIES);
  const result = recovered.data?.recoverDeliveries;
  const active = status === 'ACTIVE';
  const submit = async (from: string) => {
    if (!active) {
      const enabled = await reenable({ id: endpointId });
      if (enabled.error) return;
    }
    await recover(
      { endpointId, since: new Date(from).toISOString(), until: until ? new Date(until).toISOString() : null },
      DELIVERY_CONTEXT,
    );
    onRecovered();
  };
  const busy = recovered.fetching || reenabled.fetching;
  // Recovering is a MEMBER's; re-enabling an endpoint first is an ADMIN's.
  const mayRecover = useCan(active ? 'MEMBER' : 'ADMIN');
  if (!mayRecover) return null;
  return (
    <form
      className="card form recover"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(since);
      }}
    >
      <h2 id={`${id}-title`}>Recover failed deliveries</h2>
      <p className="help">
        After an outage of your receiver: every FAILED or CANCELLED delivery created in the window, and every PENDING one there that lost
        its queued attempt, is sent again (same delivery id), looking at 1,000 per click.
        {!active && (
          <>
            {' '}
            <strong>{status === 'DISABLED' ? 'Disabled' : 'Inactive'}: Recover re-enables it first</strong> (its count of failures in a row
            starts again from 0).
          </>
        )}
      </p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-since`}>From</label>
          <input id={`${id}-since`} type="datetime-local" required value={since} onChange={(e) => setSince(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-until`}>To (empty: now)</label>
          <input id={`${id}-until`} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </div>
        <div className="field field-button">
          <button type="submit" className={active ? undefined : 'primary'} disabled={busy || !since}>
            {busy ? 'Recovering…' : active ? 'Recover' : 'Re-enable and recover'}
          </button>
        </div>
      </div>
      {(reenabled.error ?? recovered.error) && <ErrorAlert error={reenabled.error ?? recovered.error} />}
      {result && (
        <p className="success" role="status">
          {result.queued === 0 ? 'Nothing to send again in this window.' : `${deliveryCount(result.queued)} queued again.`}{' '}
          {result.hasMore && result.nextSince && (
            <button type="button" className="small" onClick={() => void submit(result.nextSince!)}>
              Recover the next ones
            </button>
          )}
        </p>
      )}
    </form>
  );
}
