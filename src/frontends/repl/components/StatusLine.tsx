/** model · cwd · memory injected · context tokens used/budget · Norris step · tokens and cost. */
import { Text } from 'ink';
import { memo } from 'react';
import type { StatusInfo } from '../../../core/status';
import { truncateColumns } from '../../../util/width';
import { statusText } from '../status-text';

// Memoized: every frame of a streaming answer re-renders the App, but the status (and the widths
// measured to fit it) changes only between turns.
export const StatusLine = memo(function StatusLine({ status, width }: { status: StatusInfo; width: number }) {
  return <Text dimColor>{statusText(status, width, truncateColumns)}</Text>;
});
