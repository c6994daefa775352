/** model · cwd · memory injected · context tokens used/budget · Norris step · tokens and cost. */
import { Text } from 'ink';
import type { StatusInfo } from '../../../core/status';
import { truncateColumns } from '../../../util/width';
import { statusText } from '../status-text';

export function StatusLine({ status, width }: { status: StatusInfo; width: number }) {
  return <Text dimColor>{statusText(status, width, truncateColumns)}</Text>;
}
