// Lists read a page at a time: the pages loaded so far stay on screen, one under the other,
// and only the last offers to load the next.
import { Fragment, useEffect, useState, type ReactNode } from 'react';

/** What one loaded page needs: whether it is the first, its cursor, and (on the last) how to load more. */
export interface PageSlot {
  first: boolean;
  after: string | null;
  onMore?: (cursor: string) => void;
}

/** The pages loaded so far, back to the first page whenever `resetKey` (the filters) changes. */
export function usePages(resetKey: string) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  useEffect(() => setCursors([null]), [resetKey]);
  const loadMore = (cursor: string) => setCursors((loaded) => [...loaded, cursor]);
  return (page: (slot: PageSlot) => ReactNode) =>
    cursors.map((after, index) => (
      <Fragment key={`${resetKey}|${after ?? ''}`}>
        {page({ first: index === 0, after, onMore: index === cursors.length - 1 ? loadMore : undefined })}
      </Fragment>
    ));
}

export function LoadOlder({
  onMore,
  pageInfo,
  label,
}: {
  onMore?: (cursor: string) => void;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
  label: string;
}) {
  const cursor = pageInfo.endCursor;
  if (!onMore || !pageInfo.hasNextPage || !cursor) return null;
  return (
    <button type="button" onClick={() => onMore(cursor)}>
      {label}
    </button>
  );
}
