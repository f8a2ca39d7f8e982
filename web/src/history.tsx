// Where webhook history begins (RETENTION_DAYS on the server), said beside the lists it limits,
// so that an empty or short list of old deliveries or events is not mistaken for missing data.
import { useQuery } from 'urql';
import { formatDateTime } from './format';
import { graphql } from './gql';

const HISTORY_START = graphql(`
  query HistoryStart {
    viewer { retentionDays historyStartsAt }
  }
`);

export function HistoryNote({ what }: { what: string }) {
  const [{ data }] = useQuery({ query: HISTORY_START });
  if (!data) return null;
  const { retentionDays, historyStartsAt } = data.viewer;
  return (
    <p className="subtle history-note">
      {what} are kept for {retentionDays} days: history starts {formatDateTime(historyStartsAt)}.
    </p>
  );
}
