// One delivery of the endpoint's log: its status, event type, age, actions and attempts.
import { Link } from 'react-router';
import { Badge, ResponseBodyNotes } from '../components';
import { formatDateTime, timeAgo } from '../format';
import type { DeliveryFieldsFragment } from '../gql/graphql';
import { DeliveryButtons } from './DeliveryButtons';

const BODY_EXCERPT = 280;

export function DeliveryItem({
  delivery,
  endpointActive,
  unfold,
}: {
  delivery: DeliveryFieldsFragment;
  endpointActive: boolean;
  unfold: boolean;
}) {
  const attemptsLabel = `${delivery.attemptCount} attempt${delivery.attemptCount === 1 ? '' : 's'}`;
  return (
    <li className="delivery card" data-delivery-id={delivery.id} data-status={delivery.status} data-attempts={delivery.attempts.length}>
      <div className="delivery-head">
        <Badge value={delivery.status} />
        <span className="mono">{delivery.event.type}</span>
        <span className="subtle" title={formatDateTime(delivery.createdAt)}>
          {timeAgo(delivery.createdAt)}
        </span>
        <span className="subtle">{attemptsLabel}</span>
        {delivery.status === 'PENDING' && delivery.nextAttemptAt && (
          <span className="subtle">next attempt {timeAgo(delivery.nextAttemptAt)}</span>
        )}
        <DeliveryButtons delivery={delivery} endpointActive={endpointActive} />
      </div>
      <p className="subtle mono small-text">
        <Link to={`/deliveries/${delivery.id}`}>Delivery {delivery.id}</Link>
      </p>
      {delivery.attempts.length > 0 && (
        <details className="attempts" open={unfold || undefined}>
          <summary>
            Attempts ({delivery.attempts.length}) · last: {lastAnswer(delivery.attempts[delivery.attempts.length - 1]!)}
          </summary>
          <ol className="attempt-list">
            {delivery.attempts.map((attempt) => (
              <li key={attempt.id} className={`attempt ${attempt.succeeded ? 'ok' : 'bad'}`} data-attempt={attempt.number}>
                <div className="attempt-head">
                  <strong>#{attempt.number}</strong>
                  <span className={`badge badge-${attempt.succeeded ? 'ok' : 'bad'}`}>
                    {attempt.responseStatus != null ? `HTTP ${attempt.responseStatus}` : 'no answer'}
                  </span>
                  <span className="subtle">{attempt.durationMs} ms</span>
                  <span className="subtle">{formatDateTime(attempt.startedAt)}</span>
                </div>
                {attempt.error && <p className="attempt-error">{attempt.error}</p>}
                <ResponseBodyNotes attempt={attempt} />
                {attempt.responseBody && (
                  <pre className="response-body" aria-label={`Response body of attempt ${attempt.number}`}>
                    {attempt.responseBody.length > BODY_EXCERPT ? `${attempt.responseBody.slice(0, BODY_EXCERPT)}…` : attempt.responseBody}
                  </pre>
                )}
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}

/** "HTTP 503", or the error of an attempt that got no answer. */
function lastAnswer(attempt: DeliveryFieldsFragment['attempts'][number]): string {
  return attempt.responseStatus != null ? `HTTP ${attempt.responseStatus}` : (attempt.error ?? 'no answer');
}
