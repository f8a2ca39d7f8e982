// A delivery's own actions, in the endpoint's log and on the delivery's page: Retry a failed or
// cancelled one, Resend a succeeded one, Queue again one whose queued attempt is overdue.
import { useMutation } from 'urql';
import { useCan } from '../auth';
import { ErrorAlert } from '../components';
import { graphql } from '../gql';
import { isOverdue } from '../webhooks';

const RETRY_DELIVERY = graphql(`
  mutation RetryDelivery($id: ID!) {
    retryDelivery(id: $id) { ...DeliveryFields }
  }
`);

const RESEND_DELIVERY = graphql(`
  mutation ResendDelivery($id: ID!) {
    resendDelivery(id: $id) { ...DeliveryFields }
  }
`);

export function DeliveryButtons({
  delivery,
  endpointActive,
}: {
  delivery: { id: string; status: string; nextAttemptAt: string | null };
  /** A retry of a delivery to an endpoint that takes none would only be refused: Recover re-enables it. */
  endpointActive: boolean;
}) {
  const [retry, retryDelivery] = useMutation(RETRY_DELIVERY);
  const [resend, resendDelivery] = useMutation(RESEND_DELIVERY);
  // Retrying and resending are a MEMBER's.
  const member = useCan('MEMBER');
  const retryable = endpointActive && (delivery.status === 'FAILED' || delivery.status === 'CANCELLED');
  const overdue = isOverdue(delivery);
  return (
    <>
      {member && retryable && (
        <button type="button" className="small" disabled={retry.fetching} onClick={() => retryDelivery({ id: delivery.id })}>
          {retry.fetching ? 'Retrying…' : 'Retry'}
        </button>
      )}
      {member && (delivery.status === 'SUCCEEDED' || overdue) && (
        <button
          type="button"
          className="small"
          title={
            overdue
              ? 'Its attempt is overdue: queue it again if it was lost (refused while it is still queued)'
              : 'Send this delivery again, as a new attempt with the same delivery id'
          }
          disabled={resend.fetching}
          onClick={() => resendDelivery({ id: delivery.id })}
        >
          {overdue ? (resend.fetching ? 'Queueing…' : 'Queue again') : resend.fetching ? 'Resending…' : 'Resend'}
        </button>
      )}
      {retry.error && <ErrorAlert error={retry.error} />}
      {resend.error && <ErrorAlert error={resend.error} />}
    </>
  );
}
